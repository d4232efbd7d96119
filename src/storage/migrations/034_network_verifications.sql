-- Silent proofs of a number by its mobile network: one row per attempt, used once, for 5 minutes. The state
-- the operator sends back is kept as its SHA-256; what the check needs on the device's return (the PKCE
-- verifier, the nonce) is sealed.
CREATE TABLE network_verifications (
  id uuid PRIMARY KEY,
  phone text NOT NULL,
  purpose text NOT NULL,
  provider text NOT NULL,
  country text,
  language text NOT NULL,
  state_hash text NOT NULL UNIQUE,
  pending_enc text NOT NULL,
  -- verified, other_number, unavailable or error; null until the device is back
  outcome text,
  detail text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  finished_at timestamptz,
  used_at timestamptz
);
-- The day's budget counts the checks started since midnight; housekeeping removes them a day past their end.
CREATE INDEX network_verifications_created_at ON network_verifications (created_at);
CREATE INDEX network_verifications_expires_at ON network_verifications (expires_at);

-- The key Callsign signs its requests to operators with (private_key_jwt), made on first start; its public
-- half is what an operator registers.
CREATE TABLE operator_client_keys (
  kid text PRIMARY KEY,
  public_jwk jsonb NOT NULL,
  private_key_enc text NOT NULL,
  created_at timestamptz NOT NULL
);
