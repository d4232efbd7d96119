/**
 * Set-based inserts of the accounts numbered $1..$2 and what each holds: the account (a real PIN hash, one of
 * those given), 3 sessions with the head of a refresh chain, a consent, an SSO session, and for some accounts a
 * passkey with recovery codes and a recent authorization code. Ids derive from the number (md5 of a name), so
 * they spread over the id space as random ids do, and a benchmark finds an account's rows again.
 * Parameters: $1 first, $2 last, $3 now, $4 the PIN hashes (text[]), $5 the seeded client's id.
 */
export const ACCOUNT_STATEMENTS: string[] = [
  `INSERT INTO users (id, phone, phone_verified, handle, name, country, language, pin_hash, created_at, updated_at)
   SELECT md5('user' || g)::uuid, '+919' || lpad(g::text, 9, '0'), true, 'seed' || g, 'Seed ' || g, 'IN', 'en',
          ($4::text[])[1 + g % cardinality($4::text[])],
          $3::timestamptz - make_interval(secs => (g::bigint * 7919) % (365 * 86400)),
          $3::timestamptz - make_interval(secs => (g::bigint * 7919) % (365 * 86400))
     FROM generate_series($1::int, $2::int) g`,
  `INSERT INTO sessions (id, user_id, client_id, device_name, platform, ip_address, auth_time, created_at,
                         last_used_at, scope, refresh_generation, refresh_hash, refresh_issued_at, refresh_expires_at, amr)
   SELECT md5('session' || g || '.' || k)::uuid, md5('user' || g)::uuid, CASE WHEN k = 1 THEN $5 ELSE 'callsign' END,
          'Seeded phone', CASE WHEN k = 3 THEN 'web' ELSE 'android' END, '10.0.' || (g % 250) || '.' || k,
          t.at, t.at, t.at, 'openid profile phone', g % 7, md5('refresh' || g || '.' || k),
          t.at, t.at + interval '30 days', ARRAY['pwd']
     FROM generate_series($1::int, $2::int) g, generate_series(1, 3) k,
          LATERAL (SELECT $3::timestamptz - make_interval(secs => (g * 31 + k * 7) % (20 * 86400)) AS at) t`,
  `INSERT INTO consents (user_id, client_id, scope, granted_at)
   SELECT md5('user' || g)::uuid, $5, 'openid profile phone', $3::timestamptz - interval '10 days'
     FROM generate_series($1::int, $2::int) g`,
  `INSERT INTO sso_sessions (token_hash, user_id, auth_time, expires_at, amr)
   SELECT md5('sso' || g), md5('user' || g)::uuid, $3::timestamptz - make_interval(secs => g % 86400),
          $3::timestamptz + make_interval(secs => 6 * 86400 - g % 86400), ARRAY['pwd']
     FROM generate_series($1::int, $2::int) g`,
  `INSERT INTO authorization_codes (code_hash, client_id, user_id, redirect_uri, scope, code_challenge, auth_time,
                                    created_at, expires_at, used_at, session_id)
   SELECT md5('code' || g), $5, md5('user' || g)::uuid, 'https://app.example/callback', 'openid', md5('pkce' || g),
          t.at, t.at, t.at + interval '60 seconds', t.at + interval '1 second', md5('session' || g || '.1')::uuid
     FROM generate_series($1::int, $2::int) g,
          LATERAL (SELECT $3::timestamptz - make_interval(secs => g % 86400) AS at) t
    WHERE g % 10 = 0`,
  `INSERT INTO passkeys (id, user_id, credential_id, public_key, counter, device_type, backed_up, name, created_at)
   SELECT md5('passkey' || g)::uuid, md5('user' || g)::uuid, md5('credential' || g), decode(md5('key' || g), 'hex'),
          0, 'multi_device', true, 'Seeded passkey', $3::timestamptz - interval '100 days'
     FROM generate_series($1::int, $2::int) g WHERE g % 10 = 0`,
  `INSERT INTO recovery_code_sets (user_id, created_at)
   SELECT md5('user' || g)::uuid, $3::timestamptz - interval '100 days'
     FROM generate_series($1::int, $2::int) g WHERE g % 10 = 0`,
  `INSERT INTO recovery_codes (user_id, code_hash, salt, created_at)
   SELECT md5('user' || g)::uuid, md5('recovery' || g || '.' || k), decode(md5('salt' || k), 'hex'),
          $3::timestamptz - interval '100 days'
     FROM generate_series($1::int, $2::int) g, generate_series(1, 10) k WHERE g % 10 = 0`,
  `INSERT INTO phone_proofs (user_id, proven_at)
   SELECT md5('user' || g)::uuid, $3::timestamptz - interval '30 days' FROM generate_series($1::int, $2::int) g`,
];
