-- The SMS toll-fraud defence.
-- A solved proof-of-work challenge is used once: its challenge string is kept until it expires.
CREATE TABLE challenge_uses (
  challenge text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);

-- Codes sent and verified per destination country and minute, for the breaker's sliding window.
CREATE TABLE sms_country_minutes (
  country text NOT NULL,
  minute timestamptz NOT NULL,
  sent int NOT NULL DEFAULT 0,
  verified int NOT NULL DEFAULT 0,
  -- sends refused, by reason
  refused_country int NOT NULL DEFAULT 0,
  refused_type int NOT NULL DEFAULT 0,
  refused_prefix int NOT NULL DEFAULT 0,
  challenged int NOT NULL DEFAULT 0,
  over_cap int NOT NULL DEFAULT 0,
  over_budget int NOT NULL DEFAULT 0,
  PRIMARY KEY (country, minute)
);

-- An operator's override of a country's breaker: open or closed whatever the traffic says, until set back.
CREATE TABLE sms_breaker_overrides (
  country text PRIMARY KEY,
  state text NOT NULL CHECK (state IN ('open', 'closed')),
  set_at timestamptz NOT NULL
);
