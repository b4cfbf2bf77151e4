-- The events the origin's rate limits count (origin/src/ratelimit.rs): one row
-- per counted event and key, e.g. `to:someone@example.com` or `ip:203.0.113.9`
-- for password-reset links. In the database, not in an origin's memory, so
-- that every origin of a cluster counts the same events. Rows older than the
-- longest window are deleted by the limiter itself.
CREATE TABLE rate_event (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    at INTEGER NOT NULL,                   -- unix seconds of the event
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX rate_event_key_at ON rate_event(key, at);
CREATE INDEX rate_event_at ON rate_event(at);
