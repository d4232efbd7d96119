-- RFC 8628: a device's request to sign in, found by the hash of its device code (what the device polls with)
-- or of its user code (what the person types on the verification page). Pending until the person allows or
-- denies it; an allowed one holds the hash of the authorization code its approval issued, which the device's
-- poll redeems once. `interval_seconds` grows by 5 with every poll that came too soon.
CREATE TABLE device_authorizations (
  device_code_hash text PRIMARY KEY,
  user_code_hash text NOT NULL UNIQUE,
  client_id text NOT NULL,
  scope text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied', 'redeemed')),
  code_hash text,
  interval_seconds integer NOT NULL,
  last_polled_at timestamptz,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX device_authorizations_expires_at ON device_authorizations (expires_at);
