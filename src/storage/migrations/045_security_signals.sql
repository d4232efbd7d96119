-- Shared Signals: each client's event streams, and the Security Event Tokens queued on them. A stream's events
-- are fanned out from the outbox in the statement that writes the event; a SET is made from its event when it is
-- delivered (pushed or polled), with the row's id as its jti.
CREATE TABLE ssf_streams (
  id uuid PRIMARY KEY,
  client_id text NOT NULL,
  description text,
  -- urn:ietf:rfc:8935 (push) or urn:ietf:rfc:8936 (poll)
  delivery_method text NOT NULL,
  -- push: where SETs go; poll: null (the poll endpoint is the transmitter's)
  endpoint_url text,
  -- push: the Authorization header to send, sealed
  authorization_header_enc text,
  events_requested text[] NOT NULL,
  -- the outbox event types that feed the events delivered, for the fan-out
  source_types text[] NOT NULL,
  status text NOT NULL DEFAULT 'enabled',
  status_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX ssf_streams_client ON ssf_streams (client_id);

CREATE TABLE ssf_events (
  id uuid PRIMARY KEY,
  stream_id uuid NOT NULL REFERENCES ssf_streams (id) ON DELETE CASCADE,
  -- the outbox event it reports; null for the stream's own events (verification, stream-updated)
  event_id uuid REFERENCES outbox_events (id) ON DELETE CASCADE,
  -- for the stream's own events: their type and members
  own_event jsonb,
  status text NOT NULL DEFAULT 'pending',
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  locked_until timestamptz,
  last_attempt_at timestamptz,
  last_status_code int,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX ssf_events_due ON ssf_events (stream_id, next_attempt_at) WHERE status = 'pending';
-- an account event purged takes its queued SETs with it; the stream's own events go as events do
CREATE INDEX ssf_events_event ON ssf_events (event_id);
CREATE INDEX ssf_events_created_at ON ssf_events (created_at);

-- Whether a client knows an account (it held a session of it, ended or not) is asked when a stream's event is
-- fanned out.
CREATE INDEX sessions_user_client ON sessions (user_id, client_id);

-- when a receiver last asked for a verification event (at most one a minute)
ALTER TABLE ssf_streams ADD COLUMN verification_requested_at timestamptz;
