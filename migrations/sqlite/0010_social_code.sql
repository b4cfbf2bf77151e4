-- The hand-over of a social sign-in to the page that started it
-- (origin/src/domain/social.rs): the provider's callback ends at
-- /user/login#social_code=<code>, and POST /api/auth/social/redeem gives the
-- page what the sign-in came to, once, only with the `social_bind` cookie the
-- callback set in the same browser. So neither a session token nor a link
-- ticket travels in an address, and a link made by someone else signs nobody
-- in (login CSRF). The row says what the code hands over: the account to sign
-- in, or (provider_id set) the provider's person waiting to be linked to it
-- with the account's password. The token or the ticket is made only when the
-- code is redeemed; only hashes of the code and the cookie are kept. Single
-- use, two minutes.
CREATE TABLE social_code (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
    provider TEXT NOT NULL,                -- 'google' or 'facebook'
    provider_id TEXT,                      -- set when the code hands over a link
    code_hash TEXT NOT NULL UNIQUE,
    browser_hash TEXT NOT NULL,            -- the hash of the social_bind cookie
    expires_at INTEGER NOT NULL,
    used_at INTEGER,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX social_code_user ON social_code(user_id);
