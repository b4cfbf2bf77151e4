-- The browsers an account signed in from with its password (origin/src/surfaces/api/auth.rs):
-- a hash of the browser's SELF-TOKEN, which only that browser holds. A sign-in from
-- a known browser counts its failures apart from the account's shared count, so
-- that wrong guesses from anywhere else, which lock the shared count, never lock
-- the owner out of their own browser (guesses from it are throttled on its own count).
CREATE TABLE known_browser (
    user_id INTEGER NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
    browser_hash TEXT NOT NULL,
    last_at INTEGER NOT NULL,              -- unix seconds of the last sign-in from it
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch()),
    PRIMARY KEY (user_id, browser_hash)
);
