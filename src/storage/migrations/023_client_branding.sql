-- How a client shows itself on the hosted pages (RFC 7591's names, and a brand colour of this service's own),
-- and the logos this service fetched once and serves itself, by content.
ALTER TABLE clients ADD COLUMN logo_uri text;
ALTER TABLE clients ADD COLUMN client_uri text;
ALTER TABLE clients ADD COLUMN policy_uri text;
ALTER TABLE clients ADD COLUMN tos_uri text;
ALTER TABLE clients ADD COLUMN brand_color text;
-- the name of the logo fetched from logo_uri (a row of logos)
ALTER TABLE clients ADD COLUMN logo_image text;

CREATE TABLE logos (
  name text PRIMARY KEY,
  -- the address it was fetched from
  source_uri text NOT NULL,
  data bytea NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX logos_source ON logos (source_uri, created_at);
