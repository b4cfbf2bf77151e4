-- A social sign-in waiting for the account's password (origin/src/domain/social.rs):
-- the provider vouched for an e-mail address that an account without this
-- provider already has, so the provider is linked only when the shopper
-- proves the account is theirs with its password (POST /api/auth/social/link,
-- with the ticket the callback gave). Single use, ten minutes; only a hash of
-- the ticket is kept.
CREATE TABLE social_link (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
    provider TEXT NOT NULL,                -- 'google' or 'facebook'
    provider_id TEXT NOT NULL,             -- the provider's id for the person
    token_hash TEXT NOT NULL UNIQUE,
    expires_at INTEGER NOT NULL,
    used_at INTEGER,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX social_link_user ON social_link(user_id);
