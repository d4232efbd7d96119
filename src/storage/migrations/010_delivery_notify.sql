-- P61: a statement that writes webhook deliveries notifies the delivery workers, which LISTEN, so the first
-- attempt starts as soon as the event's transaction commits (NOTIFY is sent at commit, and not at all on
-- rollback). The workers' poll stays as the fallback for a notification missed while reconnecting.
CREATE FUNCTION webhook_deliveries_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM inserted) THEN
    PERFORM pg_notify('callsign_webhook_deliveries', '');
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER webhook_deliveries_notify AFTER INSERT ON webhook_deliveries
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION webhook_deliveries_notify();
