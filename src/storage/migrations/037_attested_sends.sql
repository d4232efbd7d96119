-- Of the codes counted as sent to a country in a minute, those an app attested (Play Integrity, App Attest):
-- a pumping wave shows as the rest.
ALTER TABLE sms_country_minutes ADD COLUMN attested integer NOT NULL DEFAULT 0;
