/**
 * Set-based inserts of what the accounts numbered $1..$2 did within each retention (at steady state): 10
 * events each over the last 30 days, each delivered to the seeded endpoint with an attempt (one in ten failed
 * first, then delivered), 2 messages with their codes, and for some accounts a live code, a temp token, a rate
 * window, a SIM check answer, a decided KYC verification with two photos, an operator's action and a
 * back-channel logout. Parameters: $1 first, $2 last, $3 now, $6 the seeded webhook endpoint, $5 the client.
 */
export const ACTIVITY_STATEMENTS: string[] = [
  `INSERT INTO outbox_events (id, type, data, created_at)
   SELECT md5('event' || g || '.' || k)::uuid, CASE WHEN k = 1 THEN 'user.created' ELSE 'session.created' END,
          json_build_object('user_id', md5('user' || g)::uuid, 'phone', '+919' || lpad(g::text, 9, '0')),
          $3::timestamptz - make_interval(secs => (g * 13 + k * 86400 * 3) % (29 * 86400))
     FROM generate_series($1::int, $2::int) g, generate_series(1, 10) k`,
  `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, status, attempts, delivered_at, last_attempt_at,
                                   last_status_code, last_latency_ms, created_at)
   SELECT md5('delivery' || g || '.' || k)::uuid, $6::uuid, md5('event' || g || '.' || k)::uuid, 'delivered',
          CASE WHEN k = 10 THEN 1 ELSE 0 END, t.at, t.at, 200, 12, t.at
     FROM generate_series($1::int, $2::int) g, generate_series(1, 10) k,
          LATERAL (SELECT $3::timestamptz - make_interval(secs => (g * 13 + k * 86400 * 3) % (29 * 86400)) AS at) t`,
  `INSERT INTO webhook_attempts (delivery_id, started_at, latency_ms, status_code, error)
   SELECT md5('delivery' || g || '.' || k)::uuid, t.at, 12, CASE WHEN a = 1 AND k = 10 THEN 503 ELSE 200 END,
          CASE WHEN a = 1 AND k = 10 THEN 'HTTP 503' END
     FROM generate_series($1::int, $2::int) g, generate_series(1, 10) k,
          generate_series(1, 2) a,
          LATERAL (SELECT $3::timestamptz - make_interval(secs => (g * 13 + k * 86400 * 3) % (29 * 86400)) AS at) t
    WHERE a = 2 OR k = 10`,
  `INSERT INTO messages (id, phone, country, kind, channel, language, provider, provider_message_id, status,
                         history, attempts, price, created_at, delivered_at)
   SELECT md5('message' || g || '.' || k)::uuid, '+919' || lpad(g::text, 9, '0'), 'IN', 'code', 'sms', 'en',
          'twilio', md5('vendor' || g || '.' || k), 'delivered', '[]', '[]', 0.0045, t.at, t.at
     FROM generate_series($1::int, $2::int) g, generate_series(1, 2) k,
          LATERAL (SELECT $3::timestamptz - make_interval(secs => (g * 17 + k * 86400 * 11) % (29 * 86400)) AS at) t`,
  `INSERT INTO otps (id, phone, purpose, code_hash, created_at, expires_at, consumed_at)
   SELECT md5('otp' || g)::uuid, '+919' || lpad(g::text, 9, '0'), 'signin', md5('c' || g), t.at,
          t.at + interval '5 minutes', t.at + interval '30 seconds'
     FROM generate_series($1::int, $2::int) g, LATERAL (SELECT $3::timestamptz - make_interval(secs => g % 86400) AS at) t
    WHERE g % 10 = 0`,
  `INSERT INTO temp_tokens (token_hash, phone, purpose, created_at, expires_at, used_at)
   SELECT md5('temp' || g), '+919' || lpad(g::text, 9, '0'), 'signin', t.at, t.at + interval '10 minutes', t.at
     FROM generate_series($1::int, $2::int) g, LATERAL (SELECT $3::timestamptz - make_interval(secs => g % 86400) AS at) t
    WHERE g % 10 = 0`,
  `INSERT INTO rate_counters (key, window_start, count)
   SELECT 'signin_phone:+919' || lpad(g::text, 9, '0'), $3::timestamptz - make_interval(secs => g % 86400), 1
     FROM generate_series($1::int, $2::int) g WHERE g % 10 = 0`,
  `INSERT INTO phone_checks (id, user_id, phone, provider, check_kind, outcome, checked_at)
   SELECT md5('check' || g)::uuid, md5('user' || g)::uuid, '+919' || lpad(g::text, 9, '0'), 'camara', 'sim_swap',
          'not_swapped', $3::timestamptz - make_interval(secs => (g * 29) % (89 * 86400))
     FROM generate_series($1::int, $2::int) g WHERE g % 10 = 0`,
  `INSERT INTO kyc_verifications (id, user_id, url_token_hash, url_expires_at, url_used_at, status, provider, country,
                                  document_kind, level, submitted_at, decided_at, created_at)
   SELECT md5('kyc' || g)::uuid, md5('user' || g)::uuid, md5('kyc-url' || g), t.at + interval '1 day', t.at,
          CASE WHEN g % 40 = 0 THEN 'pending' ELSE 'verified' END, 'manual', 'IN', 'passport', 'basic', t.at,
          CASE WHEN g % 40 = 0 THEN NULL ELSE t.at + interval '1 hour' END, t.at
     FROM generate_series($1::int, $2::int) g,
          LATERAL (SELECT $3::timestamptz - make_interval(secs => (g * 37) % (29 * 86400)) AS at) t
    WHERE g % 20 = 0`,
  `INSERT INTO kyc_photos (id, verification_id, kind, content_type, size, data_enc, created_at)
   SELECT md5('photo' || g || '.' || k)::uuid, md5('kyc' || g)::uuid, CASE WHEN k = 1 THEN 'document' ELSE 'selfie' END,
          'image/jpeg', 1024, repeat(md5('photo' || g), 43), $3::timestamptz - interval '1 day'
     FROM generate_series($1::int, $2::int) g, generate_series(1, 2) k WHERE g % 20 = 0`,
  `INSERT INTO admin_actions (at, source, address, request_id, method, route, params, status)
   SELECT $3::timestamptz - make_interval(secs => (g * 41) % (399 * 86400)), 'api', '10.1.0.1', 'seed-' || g,
          'GET', '/admin/users/:id', json_build_object('id', md5('user' || g)::uuid), 200
     FROM generate_series($1::int, $2::int) g WHERE g % 100 = 0`,
  `INSERT INTO backchannel_logouts (id, client_id, session_id, user_id, status, delivered_at, created_at)
   SELECT md5('logout' || g)::uuid, $5, md5('session' || g || '.1')::uuid, md5('user' || g)::uuid, 'delivered',
          t.at, t.at
     FROM generate_series($1::int, $2::int) g,
          LATERAL (SELECT $3::timestamptz - make_interval(secs => (g * 43) % (29 * 86400)) AS at) t
    WHERE g % 100 = 0`,
];
