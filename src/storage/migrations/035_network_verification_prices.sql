-- What each silent check cost, as the configured price per attempt in the number's country had it when the
-- check started (null: no price configured), for the operators' sums per country.
ALTER TABLE network_verifications ADD COLUMN price numeric;
