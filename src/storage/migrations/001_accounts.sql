-- Accounts, one-time codes, sessions and refresh tokens of the REST surface (D1-D18).
CREATE TABLE users (
  id uuid PRIMARY KEY,
  phone text NOT NULL,
  phone_verified boolean NOT NULL DEFAULT true,
  handle text NOT NULL,
  name text,
  bio text,
  avatar_url text,
  country text,
  language text,
  email text,
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  kyc_status text NOT NULL DEFAULT 'none',
  kyc_country text,
  kyc_birthday date,
  kyc_verified_at timestamptz,
  pin_hash text NOT NULL,
  failed_pin_attempts int NOT NULL DEFAULT 0,
  locked_until timestamptz,
  handle_changed_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz
);
-- D4: phone, handle and e-mail are unique among live accounts only.
CREATE UNIQUE INDEX users_phone_live ON users (phone) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX users_handle_live ON users (handle) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX users_email_live ON users (lower(email)) WHERE deleted_at IS NULL AND email IS NOT NULL;

-- D6: only a keyed hash of the code is kept.
CREATE TABLE otps (
  id uuid PRIMARY KEY,
  phone text NOT NULL,
  purpose text NOT NULL,
  code_hash text NOT NULL,
  attempts int NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);
CREATE INDEX otps_phone_purpose ON otps (phone, purpose, created_at DESC);

-- D7: temp_tokens are stored as SHA-256 of the token.
CREATE TABLE temp_tokens (
  token_hash text PRIMARY KEY,
  phone text NOT NULL,
  purpose text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

-- D15: one sign-in on one device.
CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  client_id text NOT NULL,
  device_name text,
  platform text NOT NULL,
  ip_address text,
  auth_time timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoke_reason text
);
CREATE INDEX sessions_user_active ON sessions (user_id) WHERE revoked_at IS NULL;

-- D16: a family of refresh tokens per session, stored as SHA-256 hashes.
CREATE TABLE refresh_tokens (
  token_hash text PRIMARY KEY,
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  client_id text NOT NULL,
  issued_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  rotated_at timestamptz,
  successor_hash text
);
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);

-- RS256 signing keys; the private half is encrypted with the key-encryption key.
CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  public_jwk jsonb NOT NULL,
  private_key_enc text NOT NULL,
  created_at timestamptz NOT NULL,
  retired_at timestamptz,
  published_until timestamptz
);

-- D32: every event is written here in the transaction of the change it reports.
CREATE TABLE outbox_events (
  seq bigserial PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  type text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL
);

-- D29: rate-limit counters shared by all instances (when Redis is not configured).
CREATE TABLE rate_counters (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  count int NOT NULL
);
