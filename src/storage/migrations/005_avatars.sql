-- D22, issue 5: avatars live in the database by default, so every instance serves them; addressed by
-- content hash, so their URLs can be cached for good. They go with the account (purge, D4).
CREATE TABLE avatars (
  name text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  content_type text NOT NULL,
  data bytea NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX avatars_user ON avatars (user_id);
