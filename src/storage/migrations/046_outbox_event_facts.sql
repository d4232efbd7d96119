-- What an account event's security signals need that its webhook payload does not say (a sign-in's assurance),
-- kept beside the payload and never sent to webhooks.
ALTER TABLE outbox_events ADD COLUMN facts jsonb;
