package store_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// openTest opens a new database of backend and returns it with its URL.
func openTest(t *testing.T, backend string) (store.Store, string) {
	t.Helper()
	url := storetest.URL(t, backend)
	if backend == "sqlite" {
		url = "sqlite:" + filepath.Join(t.TempDir(), "sub", "games.db") // a folder to make
	}
	s, err := store.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, url
}

func sample(id string, status string, updated int64) *store.Game {
	return &store.Game{
		ID: id, Game: "magneton", Rules: "force=strong", Start: "start text", Opponent: "human",
		Players: [2]string{"human", ""}, Seats: [2]string{"h0", ""}, Invite: "inv", Public: true,
		Users: [2]string{"", "u1"}, Guests: [2]string{"g0", ""},
		Rated: true, Family: "standard", Ratings: [2]string{"1500?", "1623"}, MinRating: 1200, MaxRating: 1800,
		Status: status, Result: "*", Position: "start text",
		ClockInitial: 5 * time.Minute, ClockIncrement: 3 * time.Second,
		Remaining: [2]time.Duration{5 * time.Minute, 5 * time.Minute}, ClockAt: 1000,
		DrawOffer: -1, RematchBy: -1, TakebackBy: -1, Created: updated, Updated: updated,
	}
}

// openWithGames opens a new database of the backend holding the games; it
// returns the database's path or URL too.
func openWithGames(t *testing.T, backend string, games ...*store.Game) (context.Context, store.Store, string) {
	t.Helper()
	ctx := context.Background()
	s, path := openTest(t, backend)
	for _, g := range games {
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	return ctx, s, path
}

func TestGameRoundTrip(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		g := sample("g1", store.Waiting, 10)
		ctx, s, _ := openWithGames(t, backend, g)
		got, err := s.Game(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(*got) != fmt.Sprint(*g) {
			t.Errorf("read back\n%+v\nwant\n%+v", *got, *g)
		}
		if _, err := s.Game(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("missing game: err %v, want ErrNotFound", err)
		}
		if err := s.CreateGame(ctx, g); err == nil {
			t.Error("a second game with the same id was accepted")
		}
		if err := s.UpdateGame(ctx, sample("nope", store.Playing, 1)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("update of a missing game: err %v, want ErrNotFound", err)
		}
	})
}

func TestMovesAndUpdate(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		g := sample("g1", store.Playing, 10)
		ctx, s, path := openWithGames(t, backend, g)
		moves := []string{"d4", "e5", "c3"}
		for i, m := range moves {
			g.Moves = i + 1
			g.Position = "after " + m
			g.Remaining[i%2] -= time.Second
			g.Updated = int64(20 + i)
			if err := s.AddMove(ctx, g, store.Move{Ply: i, Move: m, PlayedAt: int64(20 + i), Clock: g.Remaining[i%2]}); err != nil {
				t.Fatal(err)
			}
		}
		// A move at a ply already taken is refused and changes nothing.
		g2 := *g
		g2.Position = "bad"
		if err := s.AddMove(ctx, &g2, store.Move{Ply: 1, Move: "x"}); err == nil {
			t.Error("a second move at ply 1 was accepted")
		}
		s.Close()
		if backend == "sqlite" {
			path = strings.TrimPrefix(path, "sqlite:") // a plain path too
		}
		s2, err := store.Open(ctx, path) // migrations already applied
		if err != nil {
			t.Fatal(err)
		}
		defer s2.Close()
		got, err := s2.Moves(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(moves) {
			t.Fatalf("got %d moves, want %d", len(got), len(moves))
		}
		for i, m := range got {
			if m.Ply != i || m.Move != moves[i] || m.PlayedAt != int64(20+i) {
				t.Errorf("move %d = %+v", i, m)
			}
		}
		if got[2].Clock != 5*time.Minute-2*time.Second {
			t.Errorf("clock after move 3 = %v", got[2].Clock)
		}
		rg, err := s2.Game(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		if rg.Position != "after c3" || rg.Moves != 3 || rg.Remaining != g.Remaining {
			t.Errorf("game after moves: %+v", rg)
		}
		un, err := s2.Unfinished(ctx)
		if err != nil || len(un) != 1 || un[0].ID != "g1" {
			t.Errorf("Unfinished = %v, %v", un, err)
		}
	})
}

func TestListPaging(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		s, _ := openTest(t, backend)
		for i := range 7 {
			g := sample(fmt.Sprintf("f%d", i), store.Finished, int64(100+i/2)) // equal times in pairs
			g.Public = i != 3
			if err := s.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.CreateGame(ctx, sample("w", store.Waiting, 50)); err != nil {
			t.Fatal(err)
		}
		var all []string
		before := ""
		for page := 0; page < 10; page++ {
			gs, err := s.List(ctx, store.Query{Status: store.Finished, PublicOnly: true, Before: before, Limit: 2})
			if err != nil {
				t.Fatal(err)
			}
			if len(gs) == 0 {
				break
			}
			for _, g := range gs {
				all = append(all, g.ID)
			}
			before = gs[len(gs)-1].ID
		}
		if want := "[f6 f5 f4 f2 f1 f0]"; fmt.Sprint(all) != want {
			t.Errorf("pages = %v, want %s", all, want)
		}
		gs, err := s.List(ctx, store.Query{Status: store.Waiting})
		if err != nil || len(gs) != 1 || gs[0].ID != "w" {
			t.Errorf("waiting list = %v, %v", gs, err)
		}
		if _, err := s.List(ctx, store.Query{Status: "bogus"}); err == nil {
			t.Error("an unknown status gave no error")
		}
		if _, err := s.List(ctx, store.Query{Status: store.Finished, Before: "missing"}); err == nil {
			t.Error("paging before a missing game gave no error")
		}
	})
}

func TestRematchAndConcurrentWrites(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		s, _ := openTest(t, backend)
		old := sample("old", store.Finished, 1)
		if err := s.CreateGame(ctx, old); err != nil {
			t.Fatal(err)
		}
		next := sample("new", store.Playing, 2)
		next.RematchOf = "old"
		old.RematchGame = "new"
		if err := s.CreateRematch(ctx, old, next); err != nil {
			t.Fatal(err)
		}
		if g, _ := s.Game(ctx, "old"); g.RematchGame != "new" {
			t.Errorf("old game's rematch = %q", g.RematchGame)
		}
		if g, _ := s.Game(ctx, "new"); g.RematchOf != "old" {
			t.Errorf("new game's rematch_of = %q", g.RematchOf)
		}
		// Many games written at once: every write lands.
		var wg sync.WaitGroup
		errs := make(chan error, 300)
		for i := range 10 {
			wg.Go(func() {
				g := sample(fmt.Sprintf("c%d", i), store.Playing, 5)
				if err := s.CreateGame(ctx, g); err != nil {
					errs <- err
					return
				}
				for ply := range 10 {
					g.Moves = ply + 1
					if err := s.AddMove(ctx, g, store.Move{Ply: ply, Move: "m"}); err != nil {
						errs <- err
					}
					// A bad move in the same batches fails alone.
					if err := s.AddMove(ctx, g, store.Move{Ply: ply, Move: "again"}); err == nil {
						errs <- fmt.Errorf("game %s: a second move at ply %d was accepted", g.ID, ply)
					}
					if _, err := s.Game(ctx, g.ID); err != nil {
						errs <- err
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		for i := range 10 {
			ms, err := s.Moves(ctx, fmt.Sprintf("c%d", i))
			if err != nil || len(ms) != 10 {
				t.Errorf("game c%d: %d moves, %v", i, len(ms), err)
			}
		}
		if err := s.Ping(ctx); err != nil {
			t.Error(err)
		}
	})
}

func TestOpenErrors(t *testing.T) {
	for _, url := range []string{"sqlite:", "postgres://nobody@127.0.0.1:1/x?connect_timeout=1"} {
		if _, err := store.Open(context.Background(), url); err == nil {
			t.Errorf("%s: opened", url)
		}
	}
}
