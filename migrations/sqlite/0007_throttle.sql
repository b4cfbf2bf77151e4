-- Throttles on guessing (origin/src/plumbing/ratelimit.rs, `throttle`): one row
-- per key, e.g. `login-user:42`, `login-ip:203.0.113.9`, `track-order:1001`,
-- holding the failures counted since the key was last cleared and the instant
-- before which the next attempt is refused (a delay growing with the failures,
-- or a lock). In the database, so that every origin of a cluster refuses the
-- same attempts. Rows idle for a day are deleted by the throttle itself.
CREATE TABLE throttle (
    key TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    last_at INTEGER NOT NULL,              -- unix seconds of the last counted attempt
    blocked_until INTEGER NOT NULL,        -- unix seconds; no attempt before it
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX throttle_last_at ON throttle(last_at);
