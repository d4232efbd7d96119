-- When each country's SMS breaker opened and closed, as the service saw it on a send (by its traffic, or held by
-- an operator), for the console's charts. At most one opening per country is open at a time. Kept as long as
-- events are.
CREATE TABLE sms_breaker_openings (
  country text NOT NULL,
  opened_at timestamptz NOT NULL,
  closed_at timestamptz,
  by_operator boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX sms_breaker_openings_open ON sms_breaker_openings (country) WHERE closed_at IS NULL;
CREATE INDEX sms_breaker_openings_opened_at ON sms_breaker_openings (opened_at);
CREATE INDEX sms_breaker_openings_closed_at ON sms_breaker_openings (closed_at);
