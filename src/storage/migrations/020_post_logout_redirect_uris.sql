-- OIDC RP-Initiated Logout 1.0 §3.1: where a client may send the browser back after a logout it asked for.
-- A login redirect URI is never one of them: each client registers these on their own.
ALTER TABLE clients ADD COLUMN post_logout_redirect_uris jsonb NOT NULL DEFAULT '[]'::jsonb;
