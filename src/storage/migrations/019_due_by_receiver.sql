-- P113: a claim takes each receiver's due rows apart (at most its share of a worker's slots), so the rows
-- waiting for an attempt are indexed per receiver; the claims were the only readers of the indexes replaced.
CREATE INDEX webhook_deliveries_due_by_endpoint ON webhook_deliveries (endpoint_id, next_attempt_at)
  WHERE status = 'pending';
DROP INDEX webhook_deliveries_due;
CREATE INDEX backchannel_logouts_due_by_client ON backchannel_logouts (client_id, next_attempt_at)
  WHERE status = 'pending';
DROP INDEX backchannel_logouts_due;
