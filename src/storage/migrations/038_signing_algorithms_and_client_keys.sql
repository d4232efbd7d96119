-- A signing key per JWS algorithm: every key made before signs RS256. A client chooses the algorithm of its
-- ID tokens and, if it wants them signed, of its userinfo answers; it may register the public keys it signs
-- with (inline or by address) and ask that its authorization requests come only through PAR (RFC 7591 names).
ALTER TABLE signing_keys ADD COLUMN alg text NOT NULL DEFAULT 'RS256';
ALTER TABLE clients
  ADD COLUMN id_token_signed_response_alg text NOT NULL DEFAULT 'RS256',
  ADD COLUMN userinfo_signed_response_alg text,
  ADD COLUMN jwks jsonb,
  ADD COLUMN jwks_uri text,
  ADD COLUMN require_pushed_authorization_requests boolean NOT NULL DEFAULT false;

-- The JWT ids a client (or a DPoP key) has used in a signed assertion, kept until the assertion expires, so
-- none is accepted twice.
CREATE TABLE jwt_id_uses (
  issuer text NOT NULL,
  jti text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (issuer, jti)
);
CREATE INDEX jwt_id_uses_expires_at ON jwt_id_uses (expires_at);
