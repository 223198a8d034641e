package store_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

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
		ctx, s, _ := openWithGames(t, backend)
		if err := s.CreateUser(ctx, &store.User{ID: "u1", Name: "Ann", Password: "h", Created: 1}); err != nil {
			t.Fatal(err)
		}
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

func TestLearnProgress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s, _ := openWithGames(t, backend)
		if err := s.CreateUser(ctx, &store.User{ID: "u1", Name: "Ann", Password: "h", Created: 1}); err != nil {
			t.Fatal(err)
		}
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
