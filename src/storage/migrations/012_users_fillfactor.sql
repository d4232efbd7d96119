-- P81: every sign-in rewrites its account's row twice (D9: the attempt taken before the PIN is checked, then
-- the reset, P80), changing no indexed column. Room on the row's page lets the new version stay there (a HOT
-- update), so none of the five indexes on users is written and the old version is pruned without VACUUM, as
-- migration 009 did for sessions. Rows written before this keep their packed pages until they move.
ALTER TABLE users SET (fillfactor = 80);
