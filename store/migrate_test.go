package store

import (
	"context"
	"database/sql"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/pressly/goose/v3"
)

// TestLookKeyMigration: the accounts made before look-alike names were
// refused get their look key in SQL as LookKey makes it in Go, and of
// those that read alike the oldest keeps it, so that the unique index
// holds.
func TestLookKeyMigration(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "old.db")+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	own, _ := fs.Sub(migrations, "migrations/sqlite")
	common, _ := fs.Sub(migrations, "migrations/common")
	p, err := goose.NewProvider(goose.DialectSQLite3, db, unionFS{own, common})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 11); err != nil {
		t.Fatal(err)
	}
	names := []string{"alice", "aIice", "Al_1ce", "Morgan", "rnorgan", "bob"}
	for i, name := range names {
		if _, err := db.ExecContext(ctx, `INSERT INTO users (id, name, name_key, password, created) VALUES ($1, $2, $3, 'h', $4)`,
			"u"+name, name, nameKey(name), 100+i); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatalf("the migration of accounts that read alike: %v", err)
	}
	want := map[string]string{"alice": LookKey("alice"), "aIice": "", "Al_1ce": "", "Morgan": LookKey("Morgan"), "rnorgan": "", "bob": LookKey("bob")}
	for _, name := range names {
		var key sql.NullString
		if err := db.QueryRowContext(ctx, `SELECT look_key FROM users WHERE name = $1`, name).Scan(&key); err != nil {
			t.Fatal(err)
		}
		if key.String != want[name] {
			t.Errorf("%s: look key %q, want %q", name, key.String, want[name])
		}
	}
}
