-- The economics of codes, an hour at a time, per destination country, provider and channel ('' where a figure
-- has none: a send refused before any provider was chosen; silent checks are the channel 'network'). Rolled up
-- from messages, the SMS defence's counts and the silent checks while they are still kept, and kept as long as
-- events are.
CREATE TABLE code_economics_hours (
  hour timestamptz NOT NULL,
  country text NOT NULL,
  provider text NOT NULL,
  channel text NOT NULL,
  sent integer NOT NULL DEFAULT 0,
  delivered integer NOT NULL DEFAULT 0,
  verified integer NOT NULL DEFAULT 0,
  fell_back integer NOT NULL DEFAULT 0,
  refused_country integer NOT NULL DEFAULT 0,
  refused_type integer NOT NULL DEFAULT 0,
  refused_prefix integer NOT NULL DEFAULT 0,
  challenged integer NOT NULL DEFAULT 0,
  over_cap integer NOT NULL DEFAULT 0,
  over_budget integer NOT NULL DEFAULT 0,
  rate_limited integer NOT NULL DEFAULT 0,
  silent_attempted integer NOT NULL DEFAULT 0,
  silent_proven integer NOT NULL DEFAULT 0,
  cost numeric NOT NULL DEFAULT 0,
  PRIMARY KEY (hour, country, provider, channel)
);

-- When a code was entered correctly (consumed_at is also set when a newer code ends it, or wrong tries burn it).
ALTER TABLE otps ADD COLUMN verified_at timestamptz;
