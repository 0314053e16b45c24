#!/bin/sh
# POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB as the official image reads them: a cluster
# made on first start in PGDATA, then the server in the foreground. POSTGRES_LISTEN (default all
# addresses) and PGPORT let the check run it on host networking.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" -A scram-sha-256 -E UTF8 --no-sync > /dev/null
  rm -f "$pwfile"
  echo "CREATE DATABASE \"$POSTGRES_DB\" OWNER \"$POSTGRES_USER\"" | postgres --single -D "$PGDATA" postgres > /dev/null
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
fi
exec postgres -D "$PGDATA" -c "listen_addresses=${POSTGRES_LISTEN:-*}"
