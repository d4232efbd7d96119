-- RFC 9449: the key a DPoP proof showed, to which a session's refresh tokens (of a public client) and an
-- authorization code (asked for with dpop_jkt) are bound; a client may register that it always uses DPoP,
-- and that the FAPI 2.0 Security Profile applies to it.
ALTER TABLE sessions ADD COLUMN dpop_jkt text;
ALTER TABLE authorization_codes ADD COLUMN dpop_jkt text;
ALTER TABLE clients
  ADD COLUMN dpop_bound_access_tokens boolean NOT NULL DEFAULT false,
  ADD COLUMN fapi_2_0 boolean NOT NULL DEFAULT false;
