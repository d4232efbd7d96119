-- RFC 9126: authorization requests a client pushed, found by the hash of the request_uri it was given, bound
-- to that client, good for 60 s and for one authorization: `finished_at` is set when it ends.
CREATE TABLE pushed_authorization_requests (
  reference_hash text PRIMARY KEY,
  client_id text NOT NULL,
  parameters jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX pushed_authorization_requests_expires_at ON pushed_authorization_requests (expires_at);
