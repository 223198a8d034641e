package store_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// TestModeration: standings, reports, blocks, the log and the places
// accounts are seen, on both databases.
func TestModeration(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := openWithUsers(t, backend, &store.User{ID: "a", Name: "ann", Password: "h", Created: 1},
			&store.User{ID: "b", Name: "bob", Password: "h", Created: 1}, &store.User{ID: "c", Name: "cy", Password: "h", Created: 1})
		want := store.Standing{Role: store.RoleModerator, MutedUntil: 5000, Reason: "spam"}
		if err := s.SetStanding(ctx, "a", want); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Standing(ctx, "a"); err != nil || got != want {
			t.Errorf("standing: %+v (%v), want %+v", got, err, want)
		}
		if _, err := s.Standing(ctx, "nobody"); !errors.Is(err, store.ErrNoUser) {
			t.Errorf("the standing of nobody: %v", err)
		}
		for i, r := range []*store.Report{
			{ID: "r1", Reporter: "b", ReporterName: "bob", Target: "a", TargetName: "ann", Game: "g1", ChatSeq: 3, Reason: "abuse", Text: "rude", Created: 10},
			{ID: "r2", Reporter: store.SystemReporter, ReporterName: "", Target: "c", TargetName: "cy", ChatSeq: -1, Reason: "shared_origin", Created: 20},
		} {
			if err := s.AddReport(ctx, r); err != nil {
				t.Fatalf("report %d: %v", i, err)
			}
		}
		if err := s.CloseReport(ctx, "r2", "a", "dismissed", 30); err != nil {
			t.Fatal(err)
		}
		if err := s.CloseReport(ctx, "r2", "a", "again", 31); !errors.Is(err, store.ErrNoReport) {
			t.Errorf("closing a closed report: %v", err)
		}
		open, _ := s.Reports(ctx, true, 10)
		closed, _ := s.Reports(ctx, false, 10)
		if len(open) != 1 || open[0].ID != "r1" || open[0].ChatSeq != 3 || len(closed) != 1 || closed[0].Outcome != "dismissed" {
			t.Errorf("open %+v, closed %+v", open, closed)
		}
		s.Block(ctx, "a", "b", 1)
		s.Block(ctx, "a", "b", 2) // twice: once
		if blocked, _ := s.Blocked(ctx, "b", "a"); !blocked {
			t.Error("bob and ann are not blocked either way")
		}
		if names, _ := s.Blocks(ctx, "a"); !slices.Equal(names, []string{"bob"}) {
			t.Errorf("ann blocks %v", names)
		}
		s.Unblock(ctx, "a", "b")
		if blocked, _ := s.Blocked(ctx, "a", "b"); blocked {
			t.Error("unblocked, still blocked")
		}
		s.LogAction(ctx, &store.ModAction{ID: "l1", Moderator: "a", Action: "mute", Target: "b", TargetName: "bob", Reason: "spam", At: 40})
		if log, _ := s.ModLog(ctx, 10); len(log) != 1 || log[0].ModeratorName != "ann" || log[0].Action != "mute" {
			t.Errorf("log %+v", log)
		}
		s.Seen(ctx, "a", store.SeenAddress, "1.2.3.4", 1)
		s.Seen(ctx, "b", store.SeenAddress, "1.2.3.4", 2)
		s.Seen(ctx, "b", store.SeenBrowser, "x", 2)
		s.Seen(ctx, "c", store.SeenBrowser, "x", 3)
		if k, _ := s.Shared(ctx, "a", "b"); !slices.Equal(k, []string{store.SeenAddress}) {
			t.Errorf("ann and bob share %v", k)
		}
		if k, _ := s.Shared(ctx, "a", "c"); len(k) != 0 {
			t.Errorf("ann and cy share %v", k)
		}
	})
}

// TestVoidGame: a rated game removed from the ratings gives back what it
// gave and took, once, and leaves the record without it.
func TestVoidGame(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := openWithUsers(t, backend, &store.User{ID: "a", Name: "ann", Password: "h", Created: 1}, &store.User{ID: "b", Name: "bob", Password: "h", Created: 1})
		g := ratedGame("g1", [2]string{"a", "b"}, 100)
		g.Result = "1-0"
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		fresh := store.Rating{R: 1500, RD: 350, Vol: 0.06}
		if _, err := s.RateGame(ctx, g, fresh, plusWin); err != nil {
			t.Fatal(err)
		}
		if ids, _ := s.RatedGames(ctx, "b"); !slices.Equal(ids, []string{"g1"}) {
			t.Errorf("bob's rated games %v", ids)
		}
		if err := s.VoidGame(ctx, "g1", 200); err != nil {
			t.Fatal(err)
		}
		if err := s.VoidGame(ctx, "g1", 201); !errors.Is(err, store.ErrNotVoidable) {
			t.Errorf("a second void: %v", err)
		}
		for _, u := range []string{"a", "b"} {
			r, ok, err := s.Rating(ctx, u, g.Game, g.Family)
			if err != nil || !ok || r.R != 1500 || r.Games != 0 || r.Wins != 0 || r.Losses != 0 {
				t.Errorf("%s's rating after the void: %+v %v %v", u, r, ok, err)
			}
		}
		if ids, _ := s.RatedGames(ctx, "b"); len(ids) != 0 {
			t.Errorf("bob's rated games after the void %v", ids)
		}
	})
}
