#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster for the tests and prints its URL:
# Debian's postgresql package (installed if missing), a cluster owned by a
# non-root user in a temporary directory, listening on 127.0.0.1 only.
#
#   export MAGNETON_TEST_POSTGRES=$(.ci/postgres.sh)
#
# The cluster runs until the machine stops (or: pg_ctl -D DIR stop, with
# DIR from the first line on standard error).
set -euo pipefail
# The first free port from 54329 (another cluster may be running).
port=${PGPORT_TEST:-54329}
while (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; do port=$((port + 1)); done
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
bin=$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)")
dir=$(mktemp -d /tmp/magneton-pg.XXXXXX)
user=postgres
id "$user" >/dev/null 2>&1 || useradd --system --no-create-home "$user"
chown "$user" "$dir"
run() { if [ "$(id -u)" = 0 ]; then su "$user" -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
echo "cluster: $dir" >&2
run "'$bin/initdb' -D '$dir/data' -U magneton --auth=trust -E UTF8 >/dev/null"
run "'$bin/pg_ctl' -D '$dir/data' -l '$dir/log' -o \"-c listen_addresses=127.0.0.1 -p $port -k '$dir' -c max_connections=300\" -w start >/dev/null"
run "'$bin/createdb' -h 127.0.0.1 -p $port -U magneton magneton_test"
echo "postgres://magneton@127.0.0.1:$port/magneton_test?sslmode=disable"
