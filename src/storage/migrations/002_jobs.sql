-- Periodic jobs of the worker runner: the instance that moves next_run_at runs the job; the others skip it.
CREATE TABLE jobs (
  name text PRIMARY KEY,
  next_run_at timestamptz NOT NULL,
  last_started_at timestamptz,
  last_finished_at timestamptz,
  runs bigint NOT NULL DEFAULT 0
);

-- The purge job finds deleted accounts by deletion time.
CREATE INDEX users_deleted_at ON users (deleted_at) WHERE deleted_at IS NOT NULL;
