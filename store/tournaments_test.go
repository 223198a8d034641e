package store_test

import (
	"errors"
	"testing"

	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// TestTournaments: a tournament's row, entries and pairings on both
// databases; the limit of unfinished ones per creator; the director's
// lease, taken over only from a dead holder and checked by each write; a
// round's pairing written once; a result written once.
func TestTournaments(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := openWithUsers(t, backend, &store.User{ID: "a", Name: "ann", Password: "h", Created: 1},
			&store.User{ID: "b", Name: "bob", Password: "h", Created: 1})
		tr := &store.Tournament{ID: "t1", Name: "Spring", Game: "magneton", Rules: "standard", Format: "swiss", Clock: "3+2", Rated: true,
			Creator: "a", Starts: 100, Rounds: 3, Created: 50}
		for i, want := range []error{nil, nil, store.ErrTooManyTournaments} {
			next := *tr
			next.ID = []string{"t1", "t2", "t3"}[i]
			if err := s.CreateTournament(ctx, &next, 2); !errors.Is(err, want) {
				t.Errorf("tournament %d: %v, want %v", i+1, err, want)
			}
		}
		got, err := s.Tournament(ctx, "t1")
		if err != nil || got.Name != "Spring" || got.CreatorName != "ann" || got.Status != store.TournamentCreated || !got.Rated || got.Rounds != 3 {
			t.Fatalf("read back: %+v %v", got, err)
		}
		if _, err := s.Tournament(ctx, "nope"); !errors.Is(err, store.ErrNoTournament) {
			t.Errorf("no tournament: %v", err)
		}
		joinAndLeave(t, s)
		directorLease(t, s)
		pairOnce(t, s)
		if list, err := s.TournamentList(ctx, store.TournamentQuery{Finished: true, Winner: "b"}); err != nil || len(list) != 1 || list[0].WinnerName != "bob" {
			t.Errorf("the tournaments bob won: %+v %v", list, err)
		}
		if list, err := s.TournamentList(ctx, store.TournamentQuery{}); err != nil || len(list) != 1 || list[0].ID != "t2" {
			t.Errorf("the unfinished tournaments: %+v %v", list, err)
		}
	})
}

// joinAndLeave: entries in order, a second join refused, a withdrawn
// player back with a later round.
func joinAndLeave(t *testing.T, s store.Store) {
	ctx := t.Context()
	for _, e := range []store.TournamentEntry{{User: "a", Rating: 1600, JoinedRound: 1, Joined: 1}, {User: "b", Rating: 1500, JoinedRound: 1, Joined: 2}} {
		if err := s.JoinTournament(ctx, "t1", e); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.JoinTournament(ctx, "t1", store.TournamentEntry{User: "a", JoinedRound: 1, Joined: 3}); !errors.Is(err, store.ErrEntered) {
		t.Errorf("a second join: %v", err)
	}
	if err := s.SetEntry(ctx, "t1", "b", true, false); err != nil {
		t.Fatal(err)
	}
	if err := s.SetEntry(ctx, "t1", "nobody", true, false); !errors.Is(err, store.ErrNoUser) {
		t.Errorf("a player not entered: %v", err)
	}
	if err := s.JoinTournament(ctx, "t1", store.TournamentEntry{User: "b", JoinedRound: 3, Joined: 4}); err != nil {
		t.Errorf("back after withdrawing: %v", err)
	}
	es, err := s.TournamentEntries(ctx, "t1")
	if err != nil || len(es) != 2 || es[0].Name != "ann" || es[1].Withdrawn || es[1].JoinedRound != 3 || es[0].Rating != 1600 {
		t.Errorf("the entries: %+v %v", es, err)
	}
}

// directorLease: the lease goes to the first to ask, stays while its
// holder beats, and moves once it is dead; a write by another fails.
func directorLease(t *testing.T, s store.Store) {
	ctx := t.Context()
	s.Beat(ctx, "one", 1000)
	s.Beat(ctx, "two", 1000)
	if owner, err := s.AcquireTournament(ctx, "t1", "one", 500); err != nil || owner != "one" {
		t.Fatalf("the first lease: %q %v", owner, err)
	}
	if owner, _ := s.AcquireTournament(ctx, "t1", "two", 500); owner != "one" {
		t.Errorf("taken from a living holder by %q", owner)
	}
	if err := s.StartTournament(ctx, "t1", "two", 3, 100); !errors.Is(err, store.ErrNotDirector) {
		t.Errorf("a start by another: %v", err)
	}
	if owner, _ := s.AcquireTournament(ctx, "t1", "two", 2000); owner != "two" {
		t.Errorf("not taken from a dead holder: %q", owner)
	}
	if err := s.StartTournament(ctx, "t1", "one", 3, 100); !errors.Is(err, store.ErrNotDirector) {
		t.Errorf("a start by the dead holder: %v", err)
	}
	if err := s.StartTournament(ctx, "t1", "two", 3, 100); err != nil {
		t.Fatal(err)
	}
	// Released at a shutdown, it goes to the next to ask, dead or not.
	for _, move := range [][2]string{{"two", "one"}, {"one", "two"}} {
		if err := s.ReleaseTournaments(ctx, move[0]); err != nil {
			t.Fatal(err)
		}
		if owner, _ := s.AcquireTournament(ctx, "t1", move[1], 500); owner != move[1] {
			t.Errorf("a lease released by %s went to %q, not %s", move[0], owner, move[1])
		}
	}
}

// pairOnce: a round's pairing with its game, the same again refused (the
// transaction rolled back, no game left), the result written once.
func pairOnce(t *testing.T, s store.Store) {
	ctx := t.Context()
	g := sample("tg1", store.Playing, 10)
	g.Tournament, g.Owner = "t1", "two"
	ps := []store.TournamentPairing{{Round: 1, First: "a", Second: "b", GameID: "tg1"}}
	if err := s.AddPairings(ctx, "t1", "two", 1, ps, []*store.Game{g}); err != nil {
		t.Fatal(err)
	}
	again := sample("tg2", store.Playing, 10)
	again.Owner = "two"
	ps[0].GameID = "tg2"
	if err := s.AddPairings(ctx, "t1", "two", 1, ps, []*store.Game{again}); err == nil {
		t.Error("a round's pairing written twice")
	}
	if _, err := s.Game(ctx, "tg2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the refused pairing's game: %v", err)
	}
	if got, _ := s.Game(ctx, "tg1"); got.Tournament != "t1" {
		t.Errorf("the game's tournament: %q", got.Tournament)
	}
	for _, r := range []int{2, 1} {
		if err := s.RecordResults(ctx, "t1", "two", map[int]int{1: r}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.TournamentPairings(ctx, "t1")
	if err != nil || len(got) != 1 || got[0].Result != 2 || got[0].GameStatus != store.Playing || got[0].Seq != 1 {
		t.Errorf("the pairings: %+v %v", got, err)
	}
	if tr, _ := s.Tournament(ctx, "t1"); tr.Round != 1 {
		t.Errorf("round %d after the first", tr.Round)
	}
	if err := s.FinishTournament(ctx, "t1", "two", "b", 300); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordResults(ctx, "t1", "two", map[int]int{1: 3}); !errors.Is(err, store.ErrNotDirector) {
		t.Errorf("a result after the end: %v", err)
	}
}

// TestScheduleTournament: the site's tournament is inserted once per id,
// with no creator, on both databases; a second insert of the id reports
// it was there.
func TestScheduleTournament(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		s := storetest.Open(t, backend)
		ctx := t.Context()
		tr := &store.Tournament{ID: "s1", Name: "Daily arena", Game: "magneton", Rules: "standard", Format: "arena", Clock: "3+2", Rated: true,
			Starts: 100, Ends: 200, Created: 50}
		for i, want := range []bool{true, false} {
			again := *tr
			if made, err := s.ScheduleTournament(ctx, &again); err != nil || made != want {
				t.Errorf("insert %d: %v %v, want %v", i+1, made, err, want)
			}
		}
		got, err := s.Tournament(ctx, "s1")
		if err != nil || got.Creator != "" || got.CreatorName != "" || got.Status != store.TournamentCreated || got.Ends != 200 {
			t.Errorf("read back: %+v %v", got, err)
		}
		if list, err := s.TournamentList(ctx, store.TournamentQuery{}); err != nil || len(list) != 1 {
			t.Errorf("list: %+v %v", list, err)
		}
	})
}
