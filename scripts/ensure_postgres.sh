#!/usr/bin/env bash
# Make sure the local PostgreSQL the tests use (127.0.0.1:5432, trust auth) is up; start it if it is
# down; fail loudly if it cannot be reached. Tests never skip PostgreSQL.
set -u
HOST=127.0.0.1
PORT=5432
if pg_isready -h "$HOST" -p "$PORT" -q 2>/dev/null; then
  exit 0
fi
echo "PostgreSQL at $HOST:$PORT is down; starting it..." >&2
if command -v pg_ctlcluster >/dev/null 2>&1; then
  for version in $(ls /etc/postgresql 2>/dev/null); do
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  done
fi
for _ in $(seq 1 30); do
  pg_isready -h "$HOST" -p "$PORT" -q 2>/dev/null && exit 0
  sleep 1
done
echo "ERROR: PostgreSQL is not reachable at $HOST:$PORT. The integration tests need it." >&2
echo "Start it with: pg_ctlcluster --skip-systemctl-redirect \$(ls /etc/postgresql) main start" >&2
exit 1
