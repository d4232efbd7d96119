-- D24: authorization codes, single use, bound to client, redirect_uri and PKCE challenge.
CREATE TABLE authorization_codes (
  code_hash text PRIMARY KEY,
  client_id text NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  scope text NOT NULL,
  code_challenge text NOT NULL,
  nonce text,
  auth_time timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  -- the session the exchange opened: a replay of the code revokes it (D24)
  session_id uuid
);

-- D25: remembered consent, per user and client; a request within the granted scopes skips the screen.
CREATE TABLE consents (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  client_id text NOT NULL,
  scope text NOT NULL,
  granted_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, client_id)
);

-- D25: the single sign-on cookie of the authorization page.
CREATE TABLE sso_sessions (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  auth_time timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);

-- The scope a session was granted (REST sessions: the first-party scope of D14).
ALTER TABLE sessions ADD COLUMN scope text NOT NULL DEFAULT 'openid profile phone email kyc';
