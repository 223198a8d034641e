package store_test

import (
	"context"
	"database/sql"
	"io/fs"
	"strings"
	"testing"

	"github.com/pressly/goose/v3"

	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// TestComputerPlaceMigration: on both databases, the games made before
// a game's computer could think in the browser read as the server's
// (migration 00017), and a new game keeps its place through a write.
func TestComputerPlaceMigration(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		url := storetest.URL(t, backend)
		driver, dsn, dialect, dir := "sqlite", strings.TrimPrefix(url, "sqlite:"), goose.DialectSQLite3, "migrations/sqlite"
		if backend == "postgres" {
			driver, dsn, dialect, dir = "pgx", url, goose.DialectPostgres, "migrations/postgres"
		}
		db, err := sql.Open(driver, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		own, _ := fs.Sub(store.Migrations, dir)
		common, _ := fs.Sub(store.Migrations, "migrations/common")
		p, err := goose.NewProvider(dialect, db, store.UnionFS(own, common))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.UpTo(ctx, 16); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO games (id, game, rules, start, opponent, level, player0, player1, seat0, seat1, invite, public,
			status, result, reason, nmoves, position, clock_initial, clock_increment, remaining0, remaining1, clock_at,
			draw_offer, rematch_by, rematch_game, rematch_of, created, updated)
			VALUES ('old', 'magneton', '', 'start', 'computer', 3, 'Ann', 'computer (level 3)', 's', '', '', 1,
			'playing', '*', '', 0, 'start', 0, 0, 0, 0, 1, -1, -1, '', '', 1, 1)`); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Up(ctx); err != nil {
			t.Fatalf("migration 00017: %v", err)
		}
		db.Close()
		s, err := store.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		old, err := s.Game(ctx, "old")
		if err != nil {
			t.Fatal(err)
		}
		if old.ComputerPlace != "" || old.Level != 3 {
			t.Errorf("the game from before reads %+v, want the server's computer at level 3", old)
		}
		old.ComputerPlace = "browser"
		if err := s.UpdateGame(ctx, old); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Game(ctx, "old"); err != nil || got.ComputerPlace != "browser" {
			t.Errorf("after a write of the place: %+v, %v", got, err)
		}
		g := &store.Game{ID: "new", Game: "magneton", Start: "start", Opponent: "computer", Level: 2, ComputerPlace: "browser",
			Players: [2]string{"Ann", "computer (level 2)"}, Seats: [2]string{"s", ""}, Status: store.Playing, Result: "*", Position: "start",
			DrawOffer: -1, RematchBy: -1, TakebackBy: -1, Created: 2, Updated: 2}
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Game(ctx, "new"); err != nil || got.ComputerPlace != "browser" {
			t.Errorf("a new browser's computer game reads %+v, %v", got, err)
		}
	})
}
