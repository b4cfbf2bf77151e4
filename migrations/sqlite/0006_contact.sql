-- Messages sent with the contact form (`POST /api/common/contact`,
-- origin/src/domain/contact.rs). The shop is mailed each one; the row keeps it
-- when the mail is lost. No page shows them, so no change-log trigger: a new
-- message must not make the generator rebuild anything.
CREATE TABLE contact_message (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    mobile TEXT NOT NULL DEFAULT '',       -- 01XXXXXXXXX, or empty
    email TEXT NOT NULL DEFAULT '',        -- lower case, or empty; one of the two is given
    message TEXT NOT NULL,
    client TEXT NOT NULL DEFAULT '',       -- the address the edge forwarded, for abuse reports
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch()),
    CHECK (mobile <> '' OR email <> '')
);
CREATE INDEX contact_message_created ON contact_message(created_at);
