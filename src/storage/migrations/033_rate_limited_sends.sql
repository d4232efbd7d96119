-- Sends refused by a limit on codes (otp_send_phone, otp_send_address), counted per destination country
-- beside the SMS defence's own refusals.
ALTER TABLE sms_country_minutes ADD COLUMN rate_limited integer NOT NULL DEFAULT 0;
