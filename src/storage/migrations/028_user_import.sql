-- Accounts brought from another identity provider: no PIN until the person sets one through the PIN-reset
-- flow, the source's id (unique, searchable), and whether the handle is one the import chose (the person's
-- first own change of it starts no cooldown).
ALTER TABLE users ALTER COLUMN pin_hash DROP NOT NULL;
ALTER TABLE users ADD COLUMN external_id text;
ALTER TABLE users ADD COLUMN handle_from_import boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX users_external_id ON users (external_id) WHERE external_id IS NOT NULL;
