-- The App Attest keys of iOS apps, registered once each: the key's public half (the credential certificate's),
-- the app it belongs to, and the counter of its last assertion, which every later one must pass.
CREATE TABLE app_attest_keys (
  key_id text PRIMARY KEY,
  app_id text NOT NULL,
  public_key text NOT NULL,
  counter bigint NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz
);
