-- P97: a key rotated in is published before it signs, so that a verifier holding the JWKS it fetched last
-- (an HTTP cache, another instance) knows the key before it meets a token signed with it. `signs_from` is when
-- the key starts signing; the key before it retires then (`retired_at` may lie ahead). Keys made before this
-- signed from their creation. The default stays for instances of the release before this one, still running
-- while a new one migrates: a key they rotate in signs at once, as it did.
ALTER TABLE signing_keys ADD COLUMN signs_from timestamptz NOT NULL DEFAULT now();
UPDATE signing_keys SET signs_from = created_at;
