#!/bin/sh
# Writes deploy/.env for compose.yaml's Callsign: fresh secrets (the database's URL with its password, the PIN
# pepper, the key-encryption key, the admin token), the public address, and the SMS provider's settings to fill
# in before `docker compose --profile production up -d`; and deploy/postgres.env, the database's password alone.
# It never overwrites them: the pepper and the key-encryption key cannot change once accounts exist.
#
#   deploy/new-env.sh [BASE_URL]        (default http://localhost:3000)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir="${CALLSIGN_ENV_DIR:-$here}"
target="$dir/.env"
database="$dir/postgres.env"
base_url="${1:-http://localhost:3000}"

for file in "$target" "$database"; do
  if [ -e "$file" ]; then
    echo "$file is there already; it keeps its secrets (move it away to start afresh)" >&2
    exit 1
  fi
done

# Random bytes from the system, as base64 or hex, without depending on openssl.
random_base64() { head -c "$1" /dev/urandom | base64 | tr -d '\n'; }
random_hex() { head -c "$1" /dev/urandom | od -An -tx1 | tr -d ' \n'; }

password=$(random_hex 24)
umask 077
cat > "$target" <<ENV
# compose.yaml's settings, written by deploy/new-env.sh. Keep this file out of version control, and keep a copy
# of PIN_PEPPER and KEY_ENCRYPTION_KEY somewhere safe: without them no PIN can be checked.
BASE_URL=$base_url
DATABASE_URL=postgres://callsign:$password@postgres:5432/callsign
PIN_PEPPER=$(random_base64 32)
KEY_ENCRYPTION_KEY=$(random_base64 32)
ADMIN_TOKEN=$(random_hex 24)

# The SMS provider, for --profile production (the try profile prints codes to its log instead), e.g.:
# SMS_PROVIDER=twilio
# TWILIO_ACCOUNT_SID=AC...
# TWILIO_AUTH_TOKEN=...
# TWILIO_FROM=+14155550100
ENV
echo "POSTGRES_PASSWORD=$password" > "$database"
echo "wrote $target and $database"
