-- D19: OAuth client applications; D23: server API keys. Secrets are stored as SHA-256 of 256-bit values.
CREATE TABLE clients (
  client_id text PRIMARY KEY,
  client_name text NOT NULL,
  client_secret_hash text,
  redirect_uris jsonb NOT NULL,
  grant_types jsonb NOT NULL,
  scope text NOT NULL,
  token_endpoint_auth_method text NOT NULL,
  first_party boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  deleted_at timestamptz
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  prefix text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at timestamptz
);
