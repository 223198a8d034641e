package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// TestLeases: one instance holds a game's lease at a time, as long as it
// beats; another gets it only once its holder's heartbeat is old; writes
// are fenced by it.
func TestLeases(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		s, _ := openTest(t, backend)
		g := leaseTakeovers(ctx, t, s)
		leaseFencing(ctx, t, s, g)
		leaseOrphans(ctx, t, s)
		if err := s.ReleaseLease(ctx, "g1", "b"); err != nil {
			t.Fatal(err)
		}
		if owner, previous, _ := s.AcquireLease(ctx, "g1", "a", 0); owner != "a" || previous != "" {
			t.Errorf("after release: %s holds it, before %q", owner, previous)
		}
	})
}

// beat records a heartbeat of the instance who at the time at.
func beat(ctx context.Context, t *testing.T, s store.Store, who string, at int64) {
	t.Helper()
	if err := s.Beat(ctx, who, at); err != nil {
		t.Fatal(err)
	}
}

// leaseTakeovers makes game g1, owned by a, and has a and b ask for its
// lease as a's heartbeat ages: b gets it once a's beat is dead. It
// returns the game, whose lease b holds.
func leaseTakeovers(ctx context.Context, t *testing.T, s store.Store) *store.Game {
	beat(ctx, t, s, "a", 1000)
	beat(ctx, t, s, "b", 2000)
	g := sample("g1", store.Playing, 100)
	g.Owner = "a"
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		who             string
		beatA, dead     int64 // a's heartbeat, and the time before which a beat is dead
		owner, previous string
	}{
		{"b", 1000, 500, "a", "a"},  // a beats: b cannot take it
		{"a", 1000, 5000, "a", "a"}, // a keeps its own, even with an old beat
		{"b", 2000, 2000, "a", "a"}, // a beat at the limit: alive
		{"b", 2000, 2001, "b", "a"}, // a's beat is old: b takes it
		{"a", 9000, 0, "b", "b"},    // now b's
	} {
		beat(ctx, t, s, "a", tc.beatA)
		owner, previous, err := s.AcquireLease(ctx, "g1", tc.who, tc.dead)
		if err != nil || owner != tc.owner || previous != tc.previous {
			t.Errorf("%s, a beating at %d, dead before %d: %s, before %s (%v), want %s before %s", tc.who, tc.beatA, tc.dead, owner, previous, err, tc.owner, tc.previous)
		}
	}
	if owner, previous, _ := s.AcquireLease(ctx, "new", "a", 0); owner != "a" || previous != "" {
		t.Errorf("a game without a lease: %s, before %q", owner, previous)
	}
	return g
}

// leaseFencing: once b holds g's lease, a's writes to g are refused and
// b's go through; b's leases and g's owner say so.
func leaseFencing(ctx context.Context, t *testing.T, s store.Store, g *store.Game) {
	g.Moves, g.Owner = 1, "a"
	if err := s.AddMove(ctx, g, store.Move{Ply: 0, Move: "d4"}); !errors.Is(err, store.ErrNotOwner) {
		t.Errorf("a move by the old owner: %v, want ErrNotOwner", err)
	}
	if err := s.UpdateGame(ctx, g); !errors.Is(err, store.ErrNotOwner) {
		t.Errorf("an update by the old owner: %v, want ErrNotOwner", err)
	}
	g.Owner = "b"
	if err := s.AddMove(ctx, g, store.Move{Ply: 0, Move: "e5"}); err != nil {
		t.Errorf("a move by the owner: %v", err)
	}
	if ms, _ := s.Moves(ctx, "g1"); len(ms) != 1 || ms[0].Move != "e5" {
		t.Errorf("moves %v, want only the owner's", ms)
	}
	beat(ctx, t, s, "b", 7000)
	held, err := s.HeldLeases(ctx, "b")
	if err != nil || len(held) != 1 || held[0] != "g1" {
		t.Errorf("b holds %v (%v)", held, err)
	}
	if owner, lastBeat, err := s.LeaseOwner(ctx, "g1"); owner != "b" || lastBeat != 7000 || err != nil {
		t.Errorf("LeaseOwner: %s beating at %d (%v)", owner, lastBeat, err)
	}
}

// leaseOrphans: the games that need an instance with no living holder
// (Orphans: those with a clock; Ownerless: with or without), b beating
// last at 7000 and holding g1.
func leaseOrphans(ctx context.Context, t *testing.T, s store.Store) {
	clocked := sample("clocked", store.Playing, 100) // with a clock, no lease
	waiting := sample("waiting", store.Waiting, 100)
	untimed := sample("untimed", store.Playing, 200) // no clock, no lease
	untimed.ClockInitial, untimed.ClockIncrement, untimed.NeedsOwner = 0, 0, false
	for _, x := range []*store.Game{clocked, waiting, untimed} {
		if err := s.CreateGame(ctx, x); err != nil {
			t.Fatal(err)
		}
	}
	orphans, err := s.Orphans(ctx, 7000)
	if err != nil || len(orphans) != 1 || orphans[0] != "clocked" {
		t.Errorf("orphans, b alive: %v (%v), want [clocked]", orphans, err)
	}
	if orphans, _ := s.Orphans(ctx, 7001); len(orphans) != 2 {
		t.Errorf("orphans once b is dead: %v", orphans)
	}
	// Ownerless: the same, with or without a clock.
	for _, tc := range []struct {
		dead int64
		want string
	}{{7000, "[clocked untimed]"}, {7001, "[clocked g1 untimed]"}} {
		got, err := s.Ownerless(ctx, tc.dead)
		slices.Sort(got)
		if fmt.Sprint(got) != tc.want || err != nil {
			t.Errorf("ownerless, dead before %d: %v (%v), want %s", tc.dead, got, err, tc.want)
		}
	}
}

// TestLeaseRace: instances racing for the lease of a dead holder: exactly
// one wins each round, and only the winner's move is written.
func TestLeaseRace(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		s, url := openTest(t, backend)
		// Other instances on the same database: on PostgreSQL, other
		// processes' connections would be the same.
		stores := []store.Store{s}
		if backend == "postgres" {
			for range 2 {
				o, err := store.Open(ctx, url)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { o.Close() })
				stores = append(stores, o)
			}
		}
		g := sample("race", store.Playing, 1)
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		for round := range 20 {
			// Every contender beats now; the holder of the last round
			// does not: its lease is up for grabs.
			now := int64(1000 * (round + 1))
			for i := range 6 {
				if err := s.Beat(ctx, string(rune('a'+i)), now); err != nil {
					t.Fatal(err)
				}
			}
			holder, _, _ := s.LeaseOwner(ctx, "race")
			if holder != "" {
				s.Beat(ctx, holder, now-500)
			}
			var wg sync.WaitGroup
			var mu sync.Mutex
			wins, written := 0, 0
			for i := range 6 {
				st := stores[i%len(stores)]
				who := string(rune('a' + i))
				if who == holder {
					// The dead one does not compete (were it only slow, it
					// would keep its lease in its own eyes, and its writes
					// would be refused: TestLeases).
					continue
				}
				wg.Go(func() {
					owner, _, err := st.AcquireLease(ctx, "race", who, now-100)
					if err != nil {
						t.Error(err)
						return
					}
					if owner != who {
						return
					}
					gg := *g
					gg.Owner, gg.Moves = who, round+1
					err = st.AddMove(ctx, &gg, store.Move{Ply: round, Move: who})
					mu.Lock()
					defer mu.Unlock()
					wins++
					if err == nil {
						written++
					}
				})
			}
			wg.Wait()
			if wins != 1 || written != 1 {
				t.Fatalf("round %d: %d instances won the lease, %d wrote", round, wins, written)
			}
		}
		if ms, _ := s.Moves(ctx, "race"); len(ms) != 20 {
			t.Errorf("%d moves written in 20 rounds", len(ms))
		}
	})
}

// TestNotifications: a notification reaches every listener of its channel,
// on PostgreSQL across connections as across processes.
func TestNotifications(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		s, url := openTest(t, backend)
		other := s
		if backend == "postgres" {
			o, err := store.Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { o.Close() })
			other = o
		}
		got, err := other.Listen(ctx, "games", "inst_a")
		if err != nil {
			t.Fatal(err)
		}
		mine, err := s.Listen(ctx, "inst_b")
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []store.Notification{{Channel: "games", Payload: `{"g":"x","ply":3}`}, {Channel: "inst_b", Payload: "to b"}, {Channel: "inst_a", Payload: "to a"}} {
			if err := s.Notify(ctx, n.Channel, n.Payload); err != nil {
				t.Fatal(err)
			}
		}
		for _, want := range []store.Notification{{Channel: "games", Payload: `{"g":"x","ply":3}`}, {Channel: "inst_a", Payload: "to a"}} {
			select {
			case n := <-got:
				if n != want {
					t.Errorf("got %+v, want %+v", n, want)
				}
			case <-ctx.Done():
				t.Fatalf("no notification %+v", want)
			}
		}
		select {
		case n := <-mine:
			if n.Payload != "to b" {
				t.Errorf("inst_b got %+v", n)
			}
		case <-ctx.Done():
			t.Fatal("no notification on inst_b")
		}
		if err := s.Notify(ctx, "games", string(make([]byte, 8000))); err == nil {
			t.Error("an 8,000-byte notification was sent")
		}
	})
}

// TestHeartbeatsAndAborted: heartbeats keep the last time; aborted games are
// neither unfinished nor finished.
func TestHeartbeatsAndAborted(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		s, _ := openTest(t, backend)
		if at, err := s.LastBeat(ctx, "main"); err != nil || at != 0 {
			t.Errorf("before any beat: %d %v", at, err)
		}
		for _, at := range []int64{5, 9} {
			if err := s.Beat(ctx, "main", at); err != nil {
				t.Fatal(err)
			}
		}
		if at, err := s.LastBeat(ctx, "main"); err != nil || at != 9 {
			t.Errorf("last beat %d %v, want 9", at, err)
		}
		if err := s.CreateGame(ctx, sample("ab", store.Aborted, 3)); err != nil {
			t.Fatal(err)
		}
		un, _ := s.Unfinished(ctx)
		fin, _ := s.List(ctx, store.Query{Status: store.Finished})
		ab, _ := s.List(ctx, store.Query{Status: store.Aborted})
		if len(un) != 0 || len(fin) != 0 || len(ab) != 1 {
			t.Errorf("an aborted game: %d unfinished, %d finished, %d aborted", len(un), len(fin), len(ab))
		}
	})
}
