-- P61: a delivery row notifies the delivery workers, which LISTEN, so the first attempt starts as soon as the
-- event's transaction commits (NOTIFY is sent at commit, once per transaction however many rows asked, and
-- not at all on rollback). A row trigger costs nothing to the many statements that write an event and no
-- delivery. The workers' poll stays as the fallback for a notification missed while reconnecting.
CREATE FUNCTION webhook_deliveries_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('callsign_webhook_deliveries', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER webhook_deliveries_notify AFTER INSERT ON webhook_deliveries
  FOR EACH ROW EXECUTE FUNCTION webhook_deliveries_notify();
