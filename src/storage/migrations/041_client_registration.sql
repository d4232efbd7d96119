-- RFC 7591 and 7592: initial access tokens an operator gives for clients to register themselves (each good
-- for a number of registrations until it expires), and the registration access token of a client that
-- registered itself, by which it reads, changes and deletes its registration. Both are stored hashed.
CREATE TABLE initial_access_tokens (
  token_hash text PRIMARY KEY,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  uses_left integer NOT NULL CHECK (uses_left >= 0)
);
CREATE INDEX initial_access_tokens_expires_at ON initial_access_tokens (expires_at);
ALTER TABLE clients ADD COLUMN registration_access_token_hash text;
