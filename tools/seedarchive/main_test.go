package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/internal/archiveseed"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// snapshot is everything the seed wrote, as text: each game's row and
// moves, in order, and every row of the archive.
func snapshot(t *testing.T, ctx context.Context, url string, w *archiveseed.World, n int) string {
	t.Helper()
	st, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var b strings.Builder
	for i := range n {
		id := w.GameID(i)
		g, err := st.Game(ctx, id)
		if err != nil {
			t.Fatalf("game %d (%s): %v", i, id, err)
		}
		moves, err := st.Moves(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%+v\n%v\n", *g, moves)
	}
	for _, a := range w.Accounts {
		u, err := st.UserByName(ctx, a.Name)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%+v\n", *u)
	}
	if err := st.DumpArchive(ctx, func(table, row string) error {
		fmt.Fprintln(&b, table, row)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestSeedIsDeterministic: 120 games of both games seeded twice with one
// seed, once on one core and once on two in two runs (the second
// resuming the first), are the same games, players, times and archive,
// on SQLite and on PostgreSQL alike; another seed makes other games; the
// archive matches its recount (magneton archive verify).
func TestSeedIsDeterministic(t *testing.T) {
	ctx := context.Background()
	const n = 120
	base := options{games: n, seed: 7, game: "both", accounts: 40, nodes: 400, workers: 1, batch: 30, quiet: true, verify: true}
	w, err := archiveseed.NewWorld(base.seed, base.gameNames(), base.accounts, base.nodes)
	if err != nil {
		t.Fatal(err)
	}
	half, two := base, base
	half.games, half.workers = n/2, 2
	two.workers = 2
	// seedInto seeds url (or urls, separated by commas) with each of
	// runs in turn (two when none), and returns the first's snapshot.
	seedInto := func(t *testing.T, url string, w *archiveseed.World, runs ...options) string {
		t.Helper()
		if len(runs) == 0 {
			runs = []options{two}
		}
		for _, o := range runs {
			o.db = url
			if err := run(ctx, o, io.Discard, io.Discard); err != nil {
				t.Fatal(err)
			}
		}
		return snapshot(t, ctx, strings.Split(url, ",")[0], w, runs[len(runs)-1].games)
	}
	url := storetest.URL(t, "sqlite")
	one := seedInto(t, url, w, base)
	// The database holds the games as the world plays them.
	var played strings.Builder
	for i := range n {
		sg, err := w.Play(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&played, "%+v\n%v\n", *sg.Game, sg.Moves)
	}
	if stored := one[:played.Len()]; stored != played.String() {
		t.Errorf("the games stored differ from those played:\n%s\nthen\n%s", diffLine(stored, played.String()), diffLine(played.String(), stored))
	}
	if again := seedInto(t, storetest.URL(t, "sqlite"), w, half, two); again != one {
		t.Errorf("the same seed on two cores, in two runs, seeded other games:\n%s\nthen\n%s", diffLine(again, one), diffLine(one, again))
	}
	if !strings.Contains(one, "tumbling-down") || !strings.Contains(one, "Game:magneton") || !strings.Contains(one, "Rated:true") || !strings.Contains(one, "Status:aborted") {
		t.Error("the seed lacks a game, rated games or aborted ones")
	}
	other := base
	other.seed, other.games = 8, 20
	w8, err := archiveseed.NewWorld(other.seed, other.gameNames(), other.accounts, other.nodes)
	if err != nil {
		t.Fatal(err)
	}
	if got := seedInto(t, storetest.URL(t, "sqlite"), w8, other); strings.Contains(one, strings.SplitN(got, "\n", 2)[0]) {
		t.Errorf("seeds 7 and 8 make the same first game:\n%s", strings.SplitN(got, "\n", 2)[0])
	}
	t.Run("postgres", func(t *testing.T) {
		// Both at once (--db A,B), the games played once.
		pgURL, liteURL := storetest.URL(t, "postgres"), storetest.URL(t, "sqlite")
		seedInto(t, pgURL+","+liteURL, w)
		for _, url := range []string{pgURL, liteURL} {
			if got := snapshot(t, ctx, url, w, n); got != one {
				t.Errorf("%s seeded other games than SQLite alone:\n%s\nthen\n%s", url, diffLine(got, one), diffLine(one, got))
			}
		}
	})
}

// diffLine is the first line of a that b lacks.
func diffLine(a, b string) string {
	in := map[string]bool{}
	for _, l := range strings.Split(b, "\n") {
		in[l] = true
	}
	for _, l := range strings.Split(a, "\n") {
		if !in[l] {
			return l
		}
	}
	return "(none)"
}

// TestSeedRefusesBadFlags: each mistake in the flags is named.
func TestSeedRefusesBadFlags(t *testing.T) {
	ok := options{db: "sqlite:" + t.TempDir() + "/x.db", games: 1, seed: 1, game: "both", accounts: 2, nodes: 1, workers: 1, batch: 1}
	for _, c := range []struct {
		edit func(o *options)
		want string
	}{
		{func(o *options) { o.db = "" }, "--db"},
		{func(o *options) { o.games = 0 }, "--games"},
		{func(o *options) { o.accounts = 1 }, "--accounts"},
		{func(o *options) { o.nodes = 0 }, "--nodes"},
		{func(o *options) { o.workers = 0 }, "--workers"},
		{func(o *options) { o.game = "chess" }, "unknown game"},
	} {
		o := ok
		c.edit(&o)
		err := run(context.Background(), o, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error naming %s", o, err, c.want)
		}
	}
}
