-- P101: housekeeping removes the trail's rows older than ADMIN_ACTIONS_RETENTION_DAYS every hour; without
-- an index each pass would read the whole table.
CREATE INDEX admin_actions_at ON admin_actions (at);
