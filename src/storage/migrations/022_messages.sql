-- Every message sent to a phone: the channel and provider that carried it, its delivery as the vendor
-- reports it, and what each attempt did. Kept 30 days.
CREATE TABLE messages (
  id uuid PRIMARY KEY,
  phone text NOT NULL,
  country text,
  -- 'code' or 'notice'
  kind text NOT NULL CHECK (kind IN ('code', 'notice')),
  -- the code it carries (a row of otps), for a re-send when the vendor reports it failed
  otp_id uuid,
  channel text NOT NULL,
  -- the language its text was written in (a re-send is written in the same)
  language text NOT NULL,
  provider text,
  provider_message_id text,
  status text NOT NULL CHECK (status IN ('queued', 'sent', 'delivered', 'read', 'failed', 'undelivered')),
  -- [{status, at}], oldest first
  history jsonb NOT NULL,
  -- [{provider, channel, ok, error, ms}], in the order tried
  attempts jsonb NOT NULL,
  -- the code, sealed, while it may be re-sent (until it expires)
  sealed_code text,
  code_expires_at timestamptz,
  -- a re-send of this message has been made (at most one)
  resent boolean NOT NULL DEFAULT false,
  price numeric,
  created_at timestamptz NOT NULL,
  delivered_at timestamptz
);
CREATE UNIQUE INDEX messages_vendor_id ON messages (provider, provider_message_id)
  WHERE provider_message_id IS NOT NULL;
CREATE INDEX messages_created_at ON messages (created_at);
CREATE INDEX messages_phone ON messages (phone, created_at DESC);
