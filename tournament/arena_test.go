package tournament

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

func TestPairArena(t *testing.T) {
	entries := []Entry{
		{Player: "a", Rating: 1500}, {Player: "b", Rating: 1600}, {Player: "c", Rating: 1700},
		{Player: "d", Rating: 1800}, {Player: "p", Paused: true}, {Player: "w", Withdrawn: true},
	}
	for _, tc := range []struct {
		name    string
		waiting []string
		played  []Pairing
		want    string
	}{
		{"by rating", []string{"a", "b", "c", "d"}, nil, "d-c b-a"},
		{"odd: the last to wait sits out", []string{"a", "b", "c"}, nil, "b-a"},
		// c and b were paired after a: one of them waits, the later in
		// waiting; a newcomer (d) never does while others can.
		{"odd: the last paired sits out", []string{"c", "b", "a"}, []Pairing{{First: "a", Second: "d", Result: Draw}, {First: "c", Second: "b", Result: Draw}}, "c-a"},
		{"odd: not a newcomer", []string{"d", "c", "b"}, []Pairing{{First: "c", Second: "b", Result: Draw}, {First: "a", Second: "c", Result: Draw}}, "b-d"},
		{"skipped", []string{"p", "w", "x", "a", "a", "b"}, nil, "b-a"},
		{"in a game", []string{"a", "b", "c"}, []Pairing{{First: "c", Second: "d"}}, "b-a"},
		{"one", []string{"a"}, nil, ""},
		// a won: 2 points, closest to c's 2 (a, c, then d, b); c moved
		// first more (c-d, a was second): a first.
		{"by points", []string{"a", "b", "c", "d"}, []Pairing{{First: "b", Second: "a", Result: SecondWins}, {First: "c", Second: "d", Result: FirstWins}}, "a-c d-b"},
		// d and c just met: not again while others wait.
		{"not the last opponent", []string{"a", "b", "c", "d"}, []Pairing{{First: "d", Second: "c", Result: Draw}}, "b-d c-a"},
		{"the last opponent if no one else", []string{"c", "d"}, []Pairing{{First: "d", Second: "c", Result: Draw}}, "c-d"},
	} {
		if got := boards(PairArena(tc.waiting, entries, tc.played)); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Arena pairing never pairs a player with themselves, twice in one call,
// or when not waiting (or paused, withdrawn, in a game), and leaves at most
// one eligible player waiting.
func TestPropertyArena(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 30).Draw(t, "players")
		ids := make([]string, n+3)
		for i := range ids {
			ids[i] = fmt.Sprint("p", i) // the last three are not entered
		}
		entries := make([]Entry, n)
		for i := range entries {
			entries[i] = Entry{Player: ids[i], Rating: rapid.IntRange(800, 2400).Draw(t, "rating"),
				Paused: rapid.IntRange(0, 9).Draw(t, "paused") == 0, Withdrawn: rapid.IntRange(0, 9).Draw(t, "withdrawn") == 0}
		}
		var played []Pairing
		busy := make(map[string]bool)
		if n >= 2 {
			for range rapid.IntRange(0, 60).Draw(t, "games") {
				a, b := rapid.IntRange(0, n-1).Draw(t, "a"), rapid.IntRange(0, n-1).Draw(t, "b")
				r := Result(rapid.IntRange(0, 3).Draw(t, "result"))
				if a == b || r == Pending && (busy[ids[a]] || busy[ids[b]]) {
					continue
				}
				if r == Pending {
					busy[ids[a]], busy[ids[b]] = true, true
				}
				played = append(played, Pairing{First: ids[a], Second: ids[b], Result: r})
			}
		}
		waiting := rapid.SliceOf(rapid.SampledFrom(ids)).Draw(t, "waiting")
		byID := make(map[string]Entry)
		for _, e := range entries {
			byID[e.Player] = e
		}
		eligible := make(map[string]bool)
		for _, id := range waiting {
			if e, ok := byID[id]; ok && !e.Paused && !e.Withdrawn && !busy[id] {
				eligible[id] = true
			}
		}
		ps := PairArena(waiting, entries, played)
		seen := make(map[string]bool)
		for _, p := range ps {
			if p.First == p.Second || p.Bye() || p.Round != 0 || p.Result != Pending {
				t.Fatalf("pairing %+v", p)
			}
			for _, id := range []string{p.First, p.Second} {
				if seen[id] || !eligible[id] {
					t.Fatalf("%s paired (twice: %v, eligible: %v)", id, seen[id], eligible[id])
				}
				seen[id] = true
			}
		}
		if len(eligible)-len(seen) > 1 {
			t.Fatalf("%d eligible, %d paired", len(eligible), len(seen))
		}
		if err := Validate(Arena, entries, append(played, ps...)); err != nil {
			t.Fatal(err)
		}
	})
}
