-- Every statement that runs often, or that an operator waits for, reaches its rows through an index rather
-- than reading a table that grows with use. Each index is IF NOT EXISTS: on a large database an operator can
-- build them beforehand with CREATE INDEX CONCURRENTLY (docs/operations.md), and this migration then finds them.
-- Each statement stays on one line, so the command there can take them from this file.
--
-- Not indexed on purpose: sessions.refresh_expires_at and last_used_at. A refresh rewrites them on every
-- rotation, and an index on either would turn each rotation from an in-page (HOT) update into one that writes
-- every index of the table. Idle sessions are found by reading a slice of the table's pages each hour instead.

-- The newest-accounts page and the console's user list, newest first. Not partial: a lookup by id that
-- also asks for a live account must not find a partial index on live accounts as cheap as the primary key.
CREATE INDEX IF NOT EXISTS users_created ON users (created_at, id);

-- What goes with an account (PIN reset, lock, deletion, and the purge's cascade).
CREATE INDEX IF NOT EXISTS sso_sessions_user ON sso_sessions (user_id);
CREATE INDEX IF NOT EXISTS authorization_codes_user ON authorization_codes (user_id);
CREATE INDEX IF NOT EXISTS temp_tokens_phone ON temp_tokens (phone, created_at);
CREATE INDEX IF NOT EXISTS webauthn_challenges_user ON webauthn_challenges (user_id) WHERE user_id IS NOT NULL;

-- The hourly expiry deletes.
CREATE INDEX IF NOT EXISTS otps_expires_at ON otps (expires_at);
CREATE INDEX IF NOT EXISTS temp_tokens_expires_at ON temp_tokens (expires_at);
CREATE INDEX IF NOT EXISTS authorization_codes_expires_at ON authorization_codes (expires_at);
CREATE INDEX IF NOT EXISTS sso_sessions_expires_at ON sso_sessions (expires_at);
CREATE INDEX IF NOT EXISTS rate_counters_window_start ON rate_counters (window_start);
CREATE INDEX IF NOT EXISTS challenge_uses_expires_at ON challenge_uses (expires_at);
CREATE INDEX IF NOT EXISTS sms_country_minutes_minute ON sms_country_minutes (minute);
CREATE INDEX IF NOT EXISTS phone_checks_checked_at ON phone_checks (checked_at);
CREATE INDEX IF NOT EXISTS messages_sealed_code_expiry ON messages (code_expires_at) WHERE sealed_code IS NOT NULL;
CREATE INDEX IF NOT EXISTS kyc_links_unused_expiry ON kyc_verifications (url_expires_at) WHERE status = 'awaiting';
CREATE INDEX IF NOT EXISTS kyc_photos_kept ON kyc_verifications (decided_at) WHERE photos_removed_at IS NULL AND decided_at IS NOT NULL;

-- Revoked sessions, for their purge a day later (a revocation is written once; rotations do not touch it).
CREATE INDEX IF NOT EXISTS sessions_revoked_at ON sessions (revoked_at) WHERE revoked_at IS NOT NULL;

-- Deleting a client ends its sessions and forgets its consents. The sessions' index is on an expression that
-- only that statement names: a refresh checks `client_id = ...` too, and with few clients an index on the
-- column itself could draw a refresh's cached plan into reading every session of its client.
CREATE INDEX IF NOT EXISTS sessions_of_client ON sessions (lower(client_id));
CREATE INDEX IF NOT EXISTS consents_client ON consents (client_id);

-- The KYC queue of every submitted verification, oldest first.
CREATE INDEX IF NOT EXISTS kyc_queue_submitted ON kyc_verifications (submitted_at, id) WHERE status <> 'awaiting';

-- The overview's failed webhook attempts of the last day.
CREATE INDEX IF NOT EXISTS webhook_attempts_failed ON webhook_attempts (started_at) WHERE error IS NOT NULL;

-- Logos no client uses are dropped; the check looks a logo up among the clients' logos.
CREATE INDEX IF NOT EXISTS clients_logo_image ON clients (logo_image) WHERE logo_image IS NOT NULL;
