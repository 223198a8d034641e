package archive

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// TestSeedGamesWritesWhatTheLivePathWrites: games played move by move in
// one database (with takebacks, resignations, aborts), then written in
// bulk into another from their rows and moves (store.Seeder), leave the
// same archive in both, on both databases; a batch with a game SeedGames
// refuses writes nothing.
func TestSeedGamesWritesWhatTheLivePathWrites(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		live, bulk := openArchive(t, backend), openArchive(t, backend)
		rng := rand.New(rand.NewPCG(41, 1))
		users := []string{"ann", "bob", "cat", ""}
		var seeded []store.SeededGame
		aborted := 0
		for i := range 40 {
			gm := games.All()[i%len(games.All())]
			rules := gm.Spec.New(gm.Spec.Defaults())
			u := [2]string{users[rng.IntN(len(users))], users[rng.IntN(len(users))]}
			id := fmt.Sprintf("s%03d", i)
			playRandom(t, ctx, live, rng, id, rules, u)
			g, err := live.Game(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			moves, err := live.Moves(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if g.Status == store.Aborted {
				aborted++
			}
			seeded = append(seeded, store.SeededGame{Game: g, Moves: moves})
		}
		if aborted == 0 {
			t.Fatal("no game was aborted: the test tests less than it says")
		}
		sd := bulk.(store.Seeder)
		if err := sd.SeedGames(ctx, seeded[:25]); err != nil {
			t.Fatal(err)
		}
		// A refused game (the row says more moves than it has) takes its
		// whole batch with it.
		bad := *seeded[30].Game
		bad.Moves++
		batch := append(append([]store.SeededGame{}, seeded[25:30]...), store.SeededGame{Game: &bad, Moves: seeded[30].Moves})
		if err := sd.SeedGames(ctx, batch); err == nil {
			t.Error("SeedGames took a game whose row counts a move too many")
		}
		if _, err := bulk.Game(ctx, seeded[25].Game.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a game of the refused batch is there: %v", err)
		}
		if err := sd.SeedGames(ctx, seeded[25:]); err != nil {
			t.Fatal(err)
		}
		if got, want := dump(t, ctx, bulk), dump(t, ctx, live); got != want {
			t.Errorf("the seeded archive differs from the live one:\n%s\nlive:\n%s", got, want)
		}
		for _, sg := range seeded {
			got, err := bulk.Game(ctx, sg.Game.ID)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprintf("%+v", *got) != fmt.Sprintf("%+v", *sg.Game) {
				t.Errorf("game %s seeded as\n%+v\nplayed as\n%+v", sg.Game.ID, *got, *sg.Game)
			}
		}
		if r, err := Verify(ctx, bulk, t.TempDir(), nil); err != nil || !r.OK() {
			t.Errorf("verify the seeded archive: %+v, %v", r, err)
		}
	})
}

// TestSeedGamesRefuses: what SeedGames does not take, each with its
// reason.
func TestSeedGamesRefuses(t *testing.T) {
	ctx := context.Background()
	st := openArchive(t, "sqlite")
	sd := st.(store.Seeder)
	ok := func() *store.Game {
		return &store.Game{ID: "x", Game: "magneton", Status: store.Finished, Result: "1-0", Reason: "resignation", DrawOffer: -1, RematchBy: -1, TakebackBy: -1, Updated: 5}
	}
	for _, c := range []struct {
		name  string
		edit  func(g *store.Game)
		moves []store.Move
	}{
		{"imported", func(g *store.Game) { g.Source = store.SourceImport }, nil},
		{"playing", func(g *store.Game) { g.Status = store.Playing }, nil},
		{"aborted with an end", func(g *store.Game) { g.Status, g.Ended = store.Aborted, 5 }, nil},
		{"moves miscounted", func(g *store.Game) { g.Moves = 2 }, []store.Move{{Ply: 0, Move: "d4"}}},
		{"moves out of order", func(g *store.Game) { g.Moves = 2 }, []store.Move{{Ply: 1, Move: "d4"}, {Ply: 0, Move: "e5"}}},
	} {
		g := ok()
		c.edit(g)
		if err := sd.SeedGames(ctx, []store.SeededGame{{Game: g, Moves: c.moves}}); err == nil {
			t.Errorf("%s: taken", c.name)
		} else {
			t.Logf("%s: %v", c.name, err)
		}
	}
	if _, err := st.Game(ctx, "x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a refused game was written: %v", err)
	}
	st.SetArchiveIndexer(nil)
	if err := sd.SeedGames(ctx, []store.SeededGame{{Game: ok()}}); err == nil {
		t.Error("SeedGames seeded without an indexer")
	}
}
