-- How the person proved who they are when a session opened (RFC 8176 method names), for what needs a recent
-- sign-in of a kind; null for sessions opened before it was recorded.
ALTER TABLE sessions ADD COLUMN amr text[];

-- Recovery codes: a set of single-use codes that reset the PIN without the phone number. Each is kept as an
-- argon2id hash with the set's salt (the same for the set, so a code typed in is hashed once).
CREATE TABLE recovery_codes (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  salt bytea NOT NULL,
  created_at timestamptz NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, code_hash)
);
