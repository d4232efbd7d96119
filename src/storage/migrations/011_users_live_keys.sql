-- P62: a live account's phone, handle and e-mail are unique, a deleted account's are not (they may be taken
-- again at once). Partial unique indexes (`WHERE deleted_at IS NULL`) said so, but like the partial index on
-- sessions (P60) they drew generic plans of every lookup that also says `deleted_at IS NULL`: the plan a
-- connection cached while `users` was near empty read a whole index (a phone or an id looked up through
-- `users_handle_live`), and without autovacuum's ANALYZE it kept doing so as the table grew. The same rule with
-- full indexes: each key is paired with NULLIF(deleted_at IS NULL, false), true while the account is live and
-- NULL once deleted, and NULLs never collide. The names stay: a refused row names its index (PHONE_EXISTS,
-- HANDLE_TAKEN, email_taken). Dropped and made in the migration's transaction, so no row slips in between.
DROP INDEX users_phone_live;
DROP INDEX users_handle_live;
DROP INDEX users_email_live;
CREATE UNIQUE INDEX users_phone_live ON users (phone, NULLIF(deleted_at IS NULL, false));
CREATE UNIQUE INDEX users_handle_live ON users (handle, NULLIF(deleted_at IS NULL, false));
CREATE UNIQUE INDEX users_email_live ON users (lower(email), NULLIF(deleted_at IS NULL, false));
