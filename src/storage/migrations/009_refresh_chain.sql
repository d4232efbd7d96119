-- P59: a session holds the head of its refresh-token chain (D16): the SHA-256 of its one live token, that
-- token's generation, and when it was issued and expires. A token names its session and generation and
-- carries a tag, so an earlier generation is recognised as reuse without a row per token ever issued.
-- Sessions from before keep no refresh token (theirs did not name their session and cannot be carried over):
-- they get one that matches nothing and ends now, so they leave the session lists, their access tokens run
-- out within the hour, housekeeping removes them a day later, and their users sign in again.
ALTER TABLE sessions
  ADD COLUMN refresh_generation integer NOT NULL DEFAULT 0,
  ADD COLUMN refresh_hash text NOT NULL DEFAULT '',
  ADD COLUMN refresh_issued_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN refresh_expires_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE sessions
  ALTER COLUMN refresh_hash DROP DEFAULT,
  ALTER COLUMN refresh_issued_at DROP DEFAULT,
  ALTER COLUMN refresh_expires_at DROP DEFAULT;
DROP TABLE refresh_tokens;

-- Each rotation rewrites the session row, changing no indexed column: room on its page lets the new version
-- stay there (a HOT update), so no index is written and the old version is pruned without VACUUM.
ALTER TABLE sessions SET (fillfactor = 70);

-- P60: the partial index on live sessions drew generic plans of lookups by primary key: on a small table a scan of
-- the whole index that matched `revoked_at IS NULL` looked as cheap, and the cached plan kept reading every
-- live session as the table grew. A plain index serves the lookups by user just as well.
DROP INDEX sessions_user_active;
CREATE INDEX sessions_user ON sessions (user_id);
