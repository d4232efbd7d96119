-- A confidential client's secret rolled with a grace: the secret before it keeps working until the grace ends.
ALTER TABLE clients ADD COLUMN previous_secret_hash text;
ALTER TABLE clients ADD COLUMN previous_secret_expires_at timestamptz;
