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

-- How each step toward a session proved who the person is: the channel of the verified phone's code
-- (temp tokens), and the RFC 8176 methods of the hosted pages' single sign-on and of an authorization code;
-- each session opened from them carries them on.
ALTER TABLE temp_tokens ADD COLUMN channel text;
ALTER TABLE sso_sessions ADD COLUMN amr text[];
ALTER TABLE authorization_codes ADD COLUMN amr text[];
