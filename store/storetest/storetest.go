// Package storetest gives tests real databases: SQLite in a temporary
// folder, and PostgreSQL on the server MAGNETON_TEST_POSTGRES names (a URL
// such as postgres://magneton@127.0.0.1:54329/magneton_test; .ci/postgres.sh
// starts one and prints it). Each PostgreSQL database is made for the test
// and dropped after it. Without the variable the PostgreSQL tests skip,
// saying so, except in CI (CI set), where they fail: CI always has one.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver

	"github.com/magneton-games/magneton/store"
)

// EnvPostgres is the variable naming the test PostgreSQL server.
const EnvPostgres = "MAGNETON_TEST_POSTGRES"

// Backends are the databases the store runs on.
var Backends = []string{"sqlite", "postgres"}

// URL returns the address of a new, empty database of backend for the
// test, as store.Open and `magneton serve --db` take it. It skips the test
// when the backend is missing outside CI.
func URL(t testing.TB, backend string) string {
	t.Helper()
	switch backend {
	case "sqlite":
		return "sqlite:" + filepath.Join(t.TempDir(), "games.db")
	case "postgres":
		return postgresURL(t)
	}
	t.Fatalf("unknown backend %q", backend)
	return ""
}

// Open opens a new, empty database of backend for the test and closes it
// after.
func Open(t testing.TB, backend string) store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), URL(t, backend))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Each runs f as a subtest for each backend.
func Each(t *testing.T, f func(t *testing.T, backend string)) {
	for _, b := range Backends {
		t.Run(b, func(t *testing.T) { f(t, b) })
	}
}

func postgresURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvPostgres)
	if base == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not set, and CI must run the PostgreSQL tests (.ci/postgres.sh starts a server)", EnvPostgres)
		}
		t.Skipf("no PostgreSQL to test on: set %s to a server's URL (.ci/postgres.sh starts one)", EnvPostgres)
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", EnvPostgres, err)
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("%s: %v", EnvPostgres, err)
	}
	defer admin.Close()
	b := make([]byte, 6)
	rand.Read(b)
	name := "magneton_t_" + hex.EncodeToString(b)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("make a test database on %s: %v", u.Host, err)
	}
	t.Cleanup(func() {
		admin, err := sql.Open("pgx", base)
		if err != nil {
			return
		}
		defer admin.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	u.Path = "/" + name
	return u.String()
}
