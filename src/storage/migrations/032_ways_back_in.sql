-- Recovery-code sets, one per account. A set made from now on keeps its codes as HMAC-SHA-256 under a key of
-- its own, sealed with a key derived from KEY_ENCRYPTION_KEY (so `callsign keys reencrypt` seals it again); a set
-- made before keeps its argon2id hashes and salt (code_key_enc null) until it is replaced. Each set names the
-- session it was made from (null: made on the account page, or before this was recorded).
CREATE TABLE recovery_code_sets (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  code_key_enc text,
  created_at timestamptz NOT NULL,
  session_id uuid
);
INSERT INTO recovery_code_sets (user_id, created_at)
  SELECT user_id, max(created_at) FROM recovery_codes GROUP BY user_id;
ALTER TABLE recovery_codes ALTER COLUMN salt DROP NOT NULL;
ALTER TABLE recovery_codes ADD CONSTRAINT recovery_codes_set
  FOREIGN KEY (user_id) REFERENCES recovery_code_sets (user_id) ON DELETE CASCADE;

-- The session a passkey was registered from (null: on the account page, or before this was recorded).
ALTER TABLE passkeys ADD COLUMN session_id uuid;

-- When the PIN was last set by a reset (null: at sign-up or import, when the account was made). What was made
-- under the old PIN's authority after that is ended by the next reset.
ALTER TABLE users ADD COLUMN pin_set_at timestamptz;

-- WebAuthn caps a credential id at 1,023 bytes: 1,364 characters of base64url. Rows already stored are left
-- as they are; every new one is held to it.
ALTER TABLE passkeys ADD CONSTRAINT passkeys_credential_id_length
  CHECK (length(credential_id) <= 1364) NOT VALID;
