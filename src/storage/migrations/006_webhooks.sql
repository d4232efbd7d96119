-- The delivered body is the event as it was emitted: json keeps the payload's key order, jsonb would sort it.
ALTER TABLE outbox_events ALTER COLUMN data TYPE json USING data::json;

-- D32, D36: where events go. An empty event_types list means every event type.
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  url text NOT NULL,
  description text,
  event_types text[] NOT NULL DEFAULT '{}',
  enabled boolean NOT NULL DEFAULT true,
  -- signing secrets, encrypted with the key-encryption key; during a roll the previous one signs too
  secret_enc text NOT NULL,
  previous_secret_enc text,
  previous_secret_expires_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- One row per (endpoint, event), written in the transaction of the event itself, so none is lost.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id uuid NOT NULL REFERENCES outbox_events (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  -- failed attempts of the current schedule (a replay starts a new one)
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  -- a worker's claim: until then no other worker takes the delivery; also the fencing token of its result
  locked_until timestamptz,
  last_attempt_at timestamptz,
  last_status_code int,
  last_error text,
  last_latency_ms int,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL,
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at DESC);
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);

-- D32: every attempt, for the operator (status, latency, error).
CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  started_at timestamptz NOT NULL,
  latency_ms int NOT NULL,
  status_code int,
  error text
);
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id, started_at);

-- Housekeeping drops old events (they hold phone numbers) once nothing is waiting to deliver them.
CREATE INDEX outbox_events_created_at ON outbox_events (created_at);
