-- What is known of whether an account's number is still its owner's: when the account last proved the number
-- here (sign-up, phone change, an accepted code), the operators' flag for a recycled number, and an operator's
-- clearance that lets code steps through after they verified the owner. An account without a row proved its
-- number when it was created.
CREATE TABLE phone_proofs (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  proven_at timestamptz,
  recycled_at timestamptz,
  cleared_until timestamptz
);

-- Each answer a SIM check provider gave (a lookup is billed, so a known answer is reused for a while).
CREATE TABLE phone_checks (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  phone text NOT NULL,
  provider text NOT NULL,
  check_kind text NOT NULL,
  outcome text NOT NULL,
  detail text,
  last_swap_at timestamptz,
  checked_at timestamptz NOT NULL
);
CREATE INDEX phone_checks_of_user ON phone_checks (user_id, checked_at DESC);
CREATE INDEX phone_checks_of_phone ON phone_checks (phone, check_kind, checked_at DESC);
