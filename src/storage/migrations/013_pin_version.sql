-- P88: what a PIN proved is good only while the account keeps that PIN. `pin_version` counts the account's
-- PINs (a reset adds one, D10). A session, a single sign-on or an authorization code that a PIN check started
-- before a reset committed is refused at the statement that would make it, which reads the account's version.
-- Rows written before this are at version 0, as their accounts are.
ALTER TABLE users ADD COLUMN pin_version integer NOT NULL DEFAULT 0;
-- The version of the PIN that the code's sign-in proved; its exchange opens nothing once the PIN has changed.
-- The default stays for instances of the release before this one, still running while a new one migrates:
-- their codes are of version 0, good for every account that never reset its PIN (and refused for the others).
ALTER TABLE authorization_codes ADD COLUMN pin_version integer NOT NULL DEFAULT 0;
