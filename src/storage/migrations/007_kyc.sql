-- Identity verification (D30, D31). A row is born when the user asks for a verification URL (status
-- `awaiting`), takes the submission (`pending`) and the decision (`verified` or `rejected`). Everything goes
-- with the account when it is purged (ON DELETE CASCADE).
CREATE TABLE kyc_verifications (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- the one-time URL's token, hashed; used once, within its lifetime
  url_token_hash text NOT NULL UNIQUE,
  url_expires_at timestamptz NOT NULL,
  url_used_at timestamptz,
  status text NOT NULL DEFAULT 'awaiting' CHECK (status IN ('awaiting', 'pending', 'verified', 'rejected')),
  provider text,
  country text,
  birthday date,
  document_kind text,
  level text CHECK (level IN ('basic', 'full')),
  documents text[],
  submitted_at timestamptz,
  decided_at timestamptz,
  reason text,
  message text,
  -- set when the retention setting removed the photos (the decision stays)
  photos_removed_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX kyc_verifications_by_user ON kyc_verifications (user_id, created_at DESC);
CREATE INDEX kyc_verifications_by_status ON kyc_verifications (status, submitted_at);

-- The submitted photos, encrypted with the key-encryption key (AES-GCM).
CREATE TABLE kyc_photos (
  id uuid PRIMARY KEY,
  verification_id uuid NOT NULL REFERENCES kyc_verifications (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('document', 'selfie')),
  content_type text NOT NULL,
  size int NOT NULL,
  data_enc text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX kyc_photos_by_verification ON kyc_photos (verification_id);
