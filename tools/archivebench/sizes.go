package main

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
	_ "modernc.org/sqlite"             // the "sqlite" database/sql driver
)

// tableSize is the bytes a table takes on the disk, its indexes
// included.
type tableSize struct {
	table string
	bytes int64
}

// sizedTables are the tables whose sizes the report gives: the archive's,
// then the games' own for comparison.
var sizedTables = []string{"archive_games", "archive_moves", "archive_player_moves", "archive_positions", "archive_imports", "games", "moves"}

// tableSizes measures the tables of sizedTables and, last, the whole
// database ("(database)"): on SQLite the pages of each table and its
// indexes (the dbstat table), on PostgreSQL pg_total_relation_size
// (table, indexes and TOAST) and pg_database_size.
func tableSizes(ctx context.Context, url string) ([]tableSize, error) {
	var (
		db  *sql.DB
		err error
		q   string
		all string
	)
	if strings.HasPrefix(url, "postgres:") || strings.HasPrefix(url, "postgresql:") {
		db, err = sql.Open("pgx", url)
		q = `SELECT pg_total_relation_size($1::regclass)`
		all = `SELECT pg_database_size(current_database())`
	} else {
		path := strings.TrimPrefix(url, "sqlite:")
		db, err = sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(10000)")
		q = `SELECT COALESCE(SUM(d.pgsize), 0) FROM dbstat d JOIN sqlite_master m ON m.name = d.name WHERE m.tbl_name = $1`
		all = `SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()`
	}
	if err != nil {
		return nil, fmt.Errorf("the tables' sizes: %w", err)
	}
	defer db.Close()
	var out []tableSize
	for _, t := range sizedTables {
		var n int64
		if err := db.QueryRowContext(ctx, q, t).Scan(&n); err != nil {
			return nil, fmt.Errorf("the size of %s: %w", t, err)
		}
		out = append(out, tableSize{t, n})
	}
	var n int64
	if err := db.QueryRowContext(ctx, all).Scan(&n); err != nil {
		return nil, fmt.Errorf("the database's size: %w", err)
	}
	return append(out, tableSize{"(database)", n}), nil
}
