#!/usr/bin/env bash
# Installs (from Debian's packages, if missing) and starts a local PostgreSQL, creates a
# throw-away database for the tests and prints its SQLAlchemy URL on stdout.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
if ! command -v pg_lsclusters >/dev/null 2>&1; then
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
fi
read -r version cluster _ < <(pg_lsclusters --no-header | head -n 1)
pg_ctlcluster "$version" "$cluster" start >&2 2>/dev/null || true
for _ in $(seq 1 30); do
  su postgres -c "psql -qAtc 'select 1'" >/dev/null 2>&1 && break
  sleep 1
done
su postgres -c "psql -qAt" >&2 <<'SQL'
DROP DATABASE IF EXISTS trpgbot_test;
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'trpgbot') THEN
    CREATE ROLE trpgbot LOGIN PASSWORD 'trpgbot-ci-only';
  END IF;
END $$;
CREATE DATABASE trpgbot_test OWNER trpgbot;
SQL
port=$(su postgres -c "psql -qAtc 'show port'")
echo "postgresql+asyncpg://trpgbot:trpgbot-ci-only@127.0.0.1:${port}/trpgbot_test"
