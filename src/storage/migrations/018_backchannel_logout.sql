-- P109: OpenID Connect Back-Channel Logout 1.0. A client that registers this address is told, server to server,
-- of each of its sessions that ends (logout, revocation, PIN reset, the user's or the operator's doing).
ALTER TABLE clients ADD COLUMN backchannel_logout_uri text;

-- One row per ended session of such a client, written in the revoking transaction, so none is lost. The
-- session, user and client are copied: housekeeping deletes ended sessions a day later, retries run longer.
CREATE TABLE backchannel_logouts (
  id uuid PRIMARY KEY,
  client_id text NOT NULL REFERENCES clients (client_id),
  session_id uuid NOT NULL,
  user_id uuid NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  -- a worker's claim, as for webhook deliveries: the fencing token of its result
  locked_until timestamptz,
  last_attempt_at timestamptz,
  last_status_code int,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL,
  UNIQUE (session_id)
);
CREATE INDEX backchannel_logouts_due ON backchannel_logouts (next_attempt_at) WHERE status = 'pending';
CREATE INDEX backchannel_logouts_created_at ON backchannel_logouts (created_at);
-- the client's log in the admin API and the console, newest first
CREATE INDEX backchannel_logouts_by_client ON backchannel_logouts (client_id, created_at DESC);
