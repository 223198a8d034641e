#!/bin/bash
# archive-copy-pg.sh SQLITE_FILE POSTGRES_URL copies a database that
# tools/seedarchive filled on SQLite into an empty PostgreSQL database that
# the store has migrated (open it once, for instance with
# `go run ./tools/archivebench --db URL`, which stops at "no archived game"),
# table by table through CSV: minutes where seeding PostgreSQL again takes
# an hour (docs/benchmarks.md, "Game archive and opening explorer").
# It needs sqlite3 and psql.
set -euo pipefail
if [ $# -ne 2 ]; then
	echo "usage: $0 SQLITE_FILE POSTGRES_URL" >&2
	exit 2
fi
db=$1 pg=$2
for t in users games moves archive_games archive_moves archive_player_moves archive_positions archive_imports; do
	cols=$(sqlite3 "$db" "select group_concat(name, ', ') from pragma_table_info('$t')")
	start=$(date +%s)
	# Empty strings stay empty strings: NULL is spelled \N, which SQLite's
	# CSV never writes.
	sqlite3 -csv "$db" "select $cols from $t" | psql "$pg" -q -c "\\copy $t ($cols) from stdin with (format csv, null '\\N')"
	echo "$t: copied in $(($(date +%s) - start)) s"
done
psql "$pg" -q -c "analyze"
