-- P100: what operators did through the admin API and the console: who (the API, or the console on behalf of a
-- signed-in operator), from where, when, to what (the route's parameters), and how it ended. Never a body: a
-- body may hold a secret or a person's data. `id` orders the rows and pages through them.
CREATE TABLE admin_actions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL,
  source text NOT NULL CHECK (source IN ('api', 'console')),
  address text NOT NULL,
  request_id text NOT NULL,
  method text NOT NULL,
  route text NOT NULL,
  params jsonb NOT NULL,
  status smallint NOT NULL
);
