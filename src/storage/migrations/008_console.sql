-- The operator's lock (issue 8): unlike the PIN lock (D9), it lasts until the operator lifts it.
ALTER TABLE users ADD COLUMN admin_locked_at timestamptz;

-- Signed-in console browsers: the cookie holds a random id, stored here hashed, with its CSRF token.
CREATE TABLE console_sessions (
  id_hash text PRIMARY KEY,
  csrf text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX console_sessions_expires_at ON console_sessions (expires_at);

-- The overview's charts count by time.
CREATE INDEX outbox_events_type_created_at ON outbox_events (type, created_at);
CREATE INDEX otps_created_at ON otps (created_at);
CREATE INDEX webhook_attempts_started_at ON webhook_attempts (started_at);
