package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
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
		Users: [2]string{"", "u1"}, Guests: [2]string{"g0", ""}, Bots: [2]bool{false, true},
		Rated: true, Family: "standard", Ratings: [2]string{"1500?", "1623"}, MinRating: 1200, MaxRating: 1800,
		Status: status, Result: "*", Position: "start text",
		ClockInitial: 5 * time.Minute, ClockIncrement: 3 * time.Second,
		Remaining: [2]time.Duration{5 * time.Minute, 5 * time.Minute}, ClockAt: 1000,
		DrawOffer: -1, RematchBy: -1, TakebackBy: -1, Created: updated, Updated: updated,
		NeedsOwner: status == store.Playing, // a clocked game being played
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
	dir := t.TempDir()
	for _, tc := range []struct{ url, want string }{
		{"sqlite:", "empty path"},
		{"postgres://nobody@127.0.0.1:1/x?connect_timeout=1", "127.0.0.1"},
		{"mysql://root@db/x", `"mysql":// is not a database`},
		{"'postgres://u@db/x'", `"'postgres":// is not`},
		{"sqlite://" + dir + "/x.db", "sqlite:PATH (no slashes"},
	} {
		_, err := store.Open(context.Background(), tc.url)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.url, err, tc.want)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("a refused URL left %d files behind", len(ents))
	}
}

func TestTakeBack(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		g := sample("g1", store.Playing, 10)
		g.PerMove, g.ClockIncrement = true, 0
		ctx, s, _ := openWithGames(t, backend, g)
		for i, mv := range []string{"d4", "e5", "c3"} {
			g.Moves++
			if err := s.AddMove(ctx, g, store.Move{Ply: i, Move: mv, PlayedAt: int64(100 + i)}); err != nil {
				t.Fatal(err)
			}
		}
		g.Moves, g.Position, g.TakebackBy = 1, "after d4", 1
		if err := s.TakeBack(ctx, g, 1); err != nil {
			t.Fatal(err)
		}
		moves, err := s.Moves(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		if len(moves) != 1 || moves[0].Move != "d4" {
			t.Errorf("moves after taking back to 1: %+v", moves)
		}
		got, err := s.Game(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g, got) {
			t.Errorf("row after the takeback\n%+v\nwant\n%+v", got, g)
		}
		// A move can be played again at the ply taken back.
		g.Moves++
		if err := s.AddMove(ctx, g, store.Move{Ply: 1, Move: "f6", PlayedAt: 200}); err != nil {
			t.Errorf("a move after the takeback: %v", err)
		}
	})
}

func TestChat(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s, _ := openWithGames(t, backend, sample("g1", store.Playing, 10), sample("g2", store.Playing, 10))
		want := []store.ChatLine{
			{Game: "g1", Seq: 0, Room: store.ChatPlayers, Side: 0, Name: "Ann", Text: "good luck <b>", At: 5},
			{Game: "g1", Seq: 1, Room: store.ChatSpectators, Side: -1, Name: "Guest-0042", Text: "hi", At: 6},
			{Game: "g1", Seq: 2, Room: store.ChatPlayers, Side: 1, Name: "Bob", Text: "thanks", At: 7},
		}
		for _, l := range append(want, store.ChatLine{Game: "g2", Seq: 0, Room: store.ChatPlayers, Name: "X", Text: "other game"}) {
			if err := s.AddChat(ctx, l); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.AddChat(ctx, want[0]); err == nil {
			t.Error("a second line with the same number was stored")
		}
		got, err := s.Chat(ctx, "g1", 0)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("chat\n%+v\nwant\n%+v", got, want)
		}
		got, err = s.Chat(ctx, "g1", 2)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(want[2:], got) {
			t.Errorf("chat from 2\n%+v\nwant\n%+v", got, want[2:])
		}
	})
}

func TestPlayerGames(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		mine := sample("a", store.Playing, 30) // guest g0 at seat 0, account u1 at seat 1
		waiting := sample("b", store.Waiting, 20)
		over := sample("c", store.Finished, 40)
		other := sample("d", store.Playing, 50)
		other.Users, other.Guests = [2]string{"u9", ""}, [2]string{"", "g9"}
		ctx, s, _ := openWithGames(t, backend, mine, waiting, over, other)
		ids := func(user, guest string) []string {
			t.Helper()
			games, err := s.PlayerGames(ctx, user, guest)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, g := range games {
				out = append(out, g.ID)
			}
			return out
		}
		for _, c := range []struct {
			user, guest string
			want        []string
		}{
			{"u1", "", []string{"a", "b"}},
			{"", "g0", []string{"a", "b"}},
			{"u9", "g9", []string{"d"}},
			{"", "", nil},
			{"nobody", "", nil},
		} {
			if got := ids(c.user, c.guest); !reflect.DeepEqual(got, c.want) {
				t.Errorf("PlayerGames(%q, %q) = %v, want %v", c.user, c.guest, got, c.want)
			}
		}
	})
}

func TestReviews(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s, _ := openWithGames(t, backend, sample("g1", store.Finished, 10))
		if _, err := s.Review(ctx, "g1"); !errors.Is(err, store.ErrNoReview) {
			t.Fatalf("a review before any: %v", err)
		}
		r := &store.Review{Game: "g1", Status: store.ReviewRunning, Total: 3, Instance: "a", Updated: 100, Data: "[]"}
		got, mine, err := s.StartReview(ctx, r, 0)
		if err != nil || !mine || got.Instance != "a" {
			t.Fatalf("first start: %+v %v %v", got, mine, err)
		}
		// Another instance finds it fresh and leaves it.
		other := *r
		other.Instance, other.Updated = "b", 200
		if got, mine, err := s.StartReview(ctx, &other, 50); err != nil || mine || got.Instance != "a" {
			t.Errorf("a second start while fresh: %+v %v %v", got, mine, err)
		}
		r.Done, r.Data, r.Updated = 1, `[{"cp":5}]`, 150
		if err := s.SaveReview(ctx, r); err != nil {
			t.Fatal(err)
		}
		// Stale: b takes it over and keeps what a computed.
		got, mine, err = s.StartReview(ctx, &other, 1000)
		if err != nil || !mine || got.Instance != "b" || got.Done != 1 || got.Data != `[{"cp":5}]` {
			t.Errorf("taking over a stale review: %+v %v %v", got, mine, err)
		}
		if err := s.SaveReview(ctx, r); !errors.Is(err, store.ErrNotOwner) {
			t.Errorf("the old instance saved after a takeover: %v", err)
		}
		got.Status, got.Done, got.Updated = store.ReviewDone, 3, 300
		if err := s.SaveReview(ctx, got); err != nil {
			t.Fatal(err)
		}
		// Done: nobody starts it again.
		if _, mine, err := s.StartReview(ctx, r, 1<<60); err != nil || mine {
			t.Errorf("a start after it is done: %v %v", mine, err)
		}
	})
}

func TestRatePuzzle(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := openWithUser(t, backend, "u1")
		fresh := store.Rating{R: 1500, RD: 350, Vol: 0.06}
		freshPz := store.PuzzleRating{R: 1700, RD: 300, Vol: 0.06}
		var seen [2]float64
		update := func(u store.Rating, p store.PuzzleRating) (store.Rating, store.PuzzleRating, error) {
			seen = [2]float64{u.R, p.R}
			u.R, u.Games, u.Wins = u.R+100, u.Games+1, u.Wins+1
			p.R, p.Plays, p.Solved = p.R-100, p.Plays+1, p.Solved+1
			return u, p, nil
		}
		u, p, err := s.RatePuzzle(ctx, "u1", "m-1", "magneton", true, 50, fresh, freshPz, update)
		if err != nil || u.R != 1600 || p.R != 1600 || p.Plays != 1 || seen != [2]float64{1500, 1700} {
			t.Fatalf("first attempt: %+v %+v %v (update saw %v)", u, p, err, seen)
		}
		if _, _, err := s.RatePuzzle(ctx, "u1", "m-1", "magneton", true, 60, fresh, freshPz, update); !errors.Is(err, store.ErrAttempted) {
			t.Errorf("second attempt: %v", err)
		}
		got, ok, err := s.Rating(ctx, "u1", "magneton", store.PuzzleFamily)
		if err != nil || !ok || got.R != 1600 || got.Games != 1 {
			t.Errorf("the player's puzzle rating: %+v %v %v", got, ok, err)
		}
		all, err := s.PuzzleRatings(ctx)
		if err != nil || all["m-1"].R != 1600 || all["m-1"].Solved != 1 {
			t.Errorf("puzzle ratings: %+v %v", all, err)
		}
		tried, err := s.Attempted(ctx, "u1")
		if err != nil || !tried["m-1"] || len(tried) != 1 {
			t.Errorf("attempted: %v %v", tried, err)
		}
	})
}

// TestPuzzlePlays: every attempt is kept, newest first, by game, up to
// the limit; another account's are not seen.
func TestPuzzlePlays(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := openWithUser(t, backend, "u1")
		if err := s.CreateUser(ctx, &store.User{ID: "u2", Name: "Bob", Password: "h", Created: 1}); err != nil {
			t.Fatal(err)
		}
		plays := []store.PuzzlePlay{
			{Puzzle: "m-1", Game: "magneton", Solved: false, Rated: true, Rating: 1450.5, Diff: -50, At: 10},
			{Puzzle: "m-1", Game: "magneton", Solved: true, At: 20},
			{Puzzle: "t-1", Game: "tumbling-down", Solved: true, Rated: true, Rating: 1500, Diff: 50, At: 30},
		}
		for _, p := range plays {
			if err := s.AddPuzzlePlay(ctx, "u1", p); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.AddPuzzlePlay(ctx, "u2", store.PuzzlePlay{Puzzle: "m-2", Game: "magneton", At: 15}); err != nil {
			t.Fatal(err)
		}
		// The same attempt twice (a retried request) is one.
		if err := s.AddPuzzlePlay(ctx, "u1", plays[1]); err != nil {
			t.Fatal(err)
		}
		got, err := s.PuzzlePlays(ctx, "u1", "", 10)
		if err != nil || !reflect.DeepEqual(got, []store.PuzzlePlay{plays[2], plays[1], plays[0]}) {
			t.Errorf("all: %+v %v", got, err)
		}
		if got, err := s.PuzzlePlays(ctx, "u1", "magneton", 1); err != nil || !reflect.DeepEqual(got, []store.PuzzlePlay{plays[1]}) {
			t.Errorf("magneton's newest: %+v %v", got, err)
		}
		if err := s.DeleteUser(ctx, "u1"); err != nil {
			t.Fatal(err)
		}
		if got, err := s.PuzzlePlays(ctx, "u1", "", 10); err != nil || len(got) != 0 {
			t.Errorf("after the account was deleted: %+v %v", got, err)
		}
		if got, err := s.PuzzlePlays(ctx, "u2", "", 10); err != nil || len(got) != 1 {
			t.Errorf("the other account's: %+v %v", got, err)
		}
	})
}

func TestLearnProgress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := openWithUser(t, backend, "u1")
		if got, err := s.LearnProgress(ctx, "u1"); err != nil || len(got) != 0 {
			t.Fatalf("before any lesson: %v %v", got, err)
		}
		if got, err := s.AddLearnProgress(ctx, "u1", "magneton", []string{"move", "drop"}, 5); err != nil || !reflect.DeepEqual(got, []string{"drop", "move"}) {
			t.Errorf("first lessons: %v %v", got, err)
		}
		if got, err := s.AddLearnProgress(ctx, "u1", "magneton", []string{"drop", "win"}, 6); err != nil || !reflect.DeepEqual(got, []string{"drop", "move", "win"}) {
			t.Errorf("more lessons: %v %v", got, err)
		}
		s.AddLearnProgress(ctx, "u1", "tumbling-down", []string{"step"}, 7)
		got, err := s.LearnProgress(ctx, "u1")
		if err != nil || !reflect.DeepEqual(got, map[string][]string{"magneton": {"drop", "move", "win"}, "tumbling-down": {"step"}}) {
			t.Errorf("progress: %v %v", got, err)
		}
	})
}

// TestLearnStars: the stars of the stages are kept per game, the best of
// each, beside the lessons solved and without making any lesson solved.
func TestLearnStars(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := openWithUser(t, backend, "u1")
		if got, err := s.LearnStars(ctx, "u1"); err != nil || len(got) != 0 {
			t.Fatalf("before any stage: %v %v", got, err)
		}
		if got, err := s.AddLearnStars(ctx, "u1", "magneton", map[string]int{"blocked:0": 2, "blocked:1": 3}, 5); err != nil || !reflect.DeepEqual(got, map[string]int{"blocked:0": 2, "blocked:1": 3}) {
			t.Errorf("first stars: %v %v", got, err)
		}
		if got, err := s.LearnProgress(ctx, "u1"); err != nil || len(got) != 0 {
			t.Errorf("stars alone solve no lesson: %v %v", got, err)
		}
		// A better score raises the stars, a worse one keeps them.
		if got, err := s.AddLearnStars(ctx, "u1", "magneton", map[string]int{"blocked:0": 3, "blocked:1": 1}, 6); err != nil || !reflect.DeepEqual(got, map[string]int{"blocked:0": 3, "blocked:1": 3}) {
			t.Errorf("more stars: %v %v", got, err)
		}
		if _, err := s.AddLearnProgress(ctx, "u1", "magneton", []string{"blocked"}, 7); err != nil {
			t.Fatal(err)
		}
		s.AddLearnStars(ctx, "u1", "tumbling-down", map[string]int{"equal:0": 1}, 8)
		got, err := s.LearnStars(ctx, "u1")
		want := map[string]map[string]int{"magneton": {"blocked:0": 3, "blocked:1": 3}, "tumbling-down": {"equal:0": 1}}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("stars: %v %v", got, err)
		}
		if l, err := s.LearnProgress(ctx, "u1"); err != nil || !reflect.DeepEqual(l, map[string][]string{"magneton": {"blocked"}}) {
			t.Errorf("the lessons solved beside the stars: %v %v", l, err)
		}
	})
}

// openWithUser opens a new database of the backend holding one account.
func openWithUser(t *testing.T, backend, id string) (context.Context, store.Store) {
	t.Helper()
	ctx, s, _ := openWithGames(t, backend)
	if err := s.CreateUser(ctx, &store.User{ID: id, Name: "Ann", Password: "h", Created: 1}); err != nil {
		t.Fatal(err)
	}
	return ctx, s
}
