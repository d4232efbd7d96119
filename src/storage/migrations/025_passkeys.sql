-- Passkeys (WebAuthn credentials): a key pair on the person's device; the service keeps the public key.
CREATE TABLE passkeys (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- the credential's id as the authenticator gave it, base64url
  credential_id text NOT NULL UNIQUE,
  -- the COSE public key; not a secret
  public_key bytea NOT NULL,
  -- the authenticator's signature counter at the last use (0 for authenticators that keep none)
  counter bigint NOT NULL,
  device_type text NOT NULL CHECK (device_type IN ('single_device', 'multi_device')),
  backed_up boolean NOT NULL,
  transports text[] NOT NULL DEFAULT '{}',
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz
);
CREATE INDEX passkeys_user ON passkeys (user_id, created_at);

-- A ceremony's challenge, kept as a hash until it is used once or expires. A registration's is the account's;
-- a sign-in's names no account (discoverable credentials).
CREATE TABLE webauthn_challenges (
  challenge_hash text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('registration', 'authentication')),
  user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX webauthn_challenges_expiry ON webauthn_challenges (expires_at);
