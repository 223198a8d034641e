package tournament

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// A round robin of 2 to 16 players: every pair meets exactly once, no one
// plays twice in a round, an odd count gives each player one bye, and
// colours stay within one of even.
func TestPropertyRoundRobin(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 16).Draw(t, "players")
		ids := seeds(n)
		met := make(map[[2]string]int)
		byes := make(map[string]int)
		diff := make(map[string]int)
		var all []Pairing
		for r := 1; r <= RoundRobinRounds(n); r++ {
			ps, err := PairRoundRobin(ids, r)
			if err != nil {
				t.Fatalf("round %d: %v", r, err)
			}
			seen := make(map[string]bool)
			for _, p := range ps {
				for _, id := range []string{p.First, p.Second} {
					if id != "" && seen[id] {
						t.Fatalf("round %d: %s twice", r, id)
					}
					seen[id] = true
				}
				if p.Bye() {
					byes[p.First]++
					continue
				}
				met[[2]string{min(p.First, p.Second), max(p.First, p.Second)}]++
				diff[p.First]++
				diff[p.Second]--
			}
			if len(seen) != n+n%2 { // every player, and "" for the bye
				t.Fatalf("round %d: %d of %d players paired", r, len(seen), n)
			}
			for id, d := range diff {
				if d < -2 || d > 2 {
					t.Fatalf("round %d: %s has a colour difference of %d", r, id, d)
				}
			}
			all = append(all, ps...)
		}
		for i, a := range ids {
			for _, b := range ids[i+1:] {
				if k := met[[2]string{min(a, b), max(a, b)}]; k != 1 {
					t.Fatalf("%s and %s meet %d times", a, b, k)
				}
			}
			if diff[a] < -1 || diff[a] > 1 {
				t.Fatalf("%s ends with a colour difference of %d", a, diff[a])
			}
			if byes[a] != n%2 {
				t.Fatalf("%s has %d byes", a, byes[a])
			}
		}
		entries := make([]Entry, n)
		for i, id := range ids {
			entries[i] = Entry{Player: id}
		}
		if err := Validate(RoundRobin, entries, all); err != nil {
			t.Fatal(err)
		}
	})
}

// swissRun plays a Swiss with random results, withdrawals and late joins,
// checking each round.
func swissRun(t *rapid.T, n, rounds int, churn bool) ([]Entry, []Pairing) {
	entries := make([]Entry, n)
	for i := range entries {
		entries[i] = Entry{Player: fmt.Sprintf("p%02d", i), Rating: rapid.IntRange(1000, 2000).Draw(t, "rating"), JoinedRound: 1}
		if churn && rapid.IntRange(0, 5).Draw(t, "late") == 0 {
			entries[i].JoinedRound = rapid.IntRange(2, max(rounds, 2)).Draw(t, "joined")
		}
	}
	var played []Pairing
	for r := 1; r <= rounds; r++ {
		if churn && rapid.IntRange(0, 3).Draw(t, "withdraw") == 0 {
			entries[rapid.IntRange(0, n-1).Draw(t, "who")].Withdrawn = true
		}
		ps, err := PairSwissRounds(entries, played, r, rounds)
		eligible := 0
		for _, e := range entries {
			if !e.Withdrawn && e.joined() <= r {
				eligible++
			}
		}
		if err != nil {
			if c := code(err); (c == CodeNoPairing && !pairable(entries, played, r)) || (c == CodeTooFewPlayers && eligible < 2) {
				return entries, played // the tournament cannot go on
			}
			t.Fatalf("round %d: %v", r, err)
		}
		checkSwissRound(t, entries, ps, r, eligible)
		if again, _ := PairSwissRounds(entries, played, r, rounds); !slices.Equal(again, ps) {
			t.Fatalf("round %d paired twice: %v, then %v", r, ps, again)
		}
		for i := range ps {
			if !ps[i].Bye() {
				ps[i].Result = Result(rapid.IntRange(1, 3).Draw(t, "result"))
			}
		}
		played = append(played, ps...)
		if err := Validate(Swiss, entries, played); err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
	}
	return entries, played
}

// checkSwissRound checks that a round pairs every eligible player once.
func checkSwissRound(t *rapid.T, entries []Entry, ps []Pairing, r, eligible int) {
	byID := make(map[string]Entry)
	for _, e := range entries {
		byID[e.Player] = e
	}
	seen := make(map[string]bool)
	for _, p := range ps {
		for _, id := range []string{p.First, p.Second} {
			if id == "" {
				continue
			}
			if seen[id] {
				t.Fatalf("round %d: %s paired twice", r, id)
			}
			seen[id] = true
			if e := byID[id]; e.Withdrawn || e.joined() > r {
				t.Fatalf("round %d: %s paired (entry %+v)", r, id, e)
			}
		}
		if p.Round != r {
			t.Fatalf("round %d: pairing %+v", r, p)
		}
	}
	if len(seen) != eligible {
		t.Fatalf("round %d: %d of %d players paired", r, len(seen), eligible)
	}
}

// pairable reports, by brute force, whether round r's players can all be
// paired (one of them getting a bye if odd) without a rematch.
func pairable(entries []Entry, played []Pairing, r int) bool {
	recs := histories(played)
	var ids []string
	for _, e := range entries {
		if !e.Withdrawn && e.joined() <= r {
			ids = append(ids, e.Player)
		}
	}
	var try func(left []string, byeLeft bool) bool
	try = func(left []string, byeLeft bool) bool {
		if len(left) == 0 {
			return true
		}
		a := left[0]
		rest := func(j int) []string {
			out := append([]string{}, left[1:j]...)
			return append(out, left[j+1:]...)
		}
		for j := 1; j < len(left); j++ {
			if rec := recs[a]; rec == nil || !rec.met[left[j]] {
				if try(rest(j), byeLeft) {
					return true
				}
			}
		}
		return byeLeft && try(left[1:], false)
	}
	return try(ids, len(ids)%2 == 1)
}

// A full Swiss of 4 to 20 players with random results, withdrawals and
// late joins: never a rematch, no one twice in a round, at most one bye
// each (Validate checks these), every player who can be paired is.
func TestPropertySwiss(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(4, 20).Draw(t, "players")
		rounds := rapid.IntRange(1, MaxSwissRounds(n)+1).Draw(t, "rounds")
		swissRun(t, n, rounds, true)
	})
}

// Ten players over five rounds with random results: colour differences
// stay within two, and no one has the same colour three times in a row.
func TestPropertySwissColours(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		_, played := swissRun(t, 10, 5, false)
		recs := histories(played)
		for id, rec := range recs {
			if d := rec.diff(); d < -2 || d > 2 {
				t.Fatalf("%s: colours %v, difference %d", id, rec.colours, d)
			}
			for i := 2; i < len(rec.colours); i++ {
				if rec.colours[i] == rec.colours[i-1] && rec.colours[i] == rec.colours[i-2] {
					t.Fatalf("%s: colours %v, three in a row", id, rec.colours)
				}
			}
		}
	})
}

// Any input, however inconsistent, gets a coded error or an answer, never
// a panic.
func TestPropertyGarbage(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ids := []string{"", "a", "b", "c", "d", "e"}
		entries := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) Entry {
			return Entry{
				Player: rapid.SampledFrom(ids).Draw(t, "player"), Rating: rapid.IntRange(-10, 3000).Draw(t, "rating"),
				Withdrawn: rapid.Bool().Draw(t, "withdrawn"), Paused: rapid.Bool().Draw(t, "paused"),
				JoinedRound: rapid.IntRange(-2, 5).Draw(t, "joined"),
			}
		}), 0, 7).Draw(t, "entries")
		played := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) Pairing {
			return Pairing{
				Round: rapid.IntRange(-1, 5).Draw(t, "round"), First: rapid.SampledFrom(ids).Draw(t, "first"),
				Second: rapid.SampledFrom(ids).Draw(t, "second"), Result: Result(rapid.IntRange(-1, 4).Draw(t, "result")),
			}
		}), 0, 12).Draw(t, "played")
		round := rapid.IntRange(-1, 7).Draw(t, "round")
		format := rapid.SampledFrom([]Format{Arena, RoundRobin, Swiss, "other"}).Draw(t, "format")
		coded := func(what string, err error) {
			if err != nil && code(err) == "" {
				t.Fatalf("%s: %v is not an *Error", what, err)
			}
		}
		coded("Validate", Validate(format, entries, played))
		_, err := PairSwiss(entries, played, round)
		coded("PairSwiss", err)
		_, err = PairSwissRounds(entries, played, round, rapid.IntRange(-1, 7).Draw(t, "rounds"))
		coded("PairSwissRounds", err)
		_, err = PairRoundRobinEntries(entries, round)
		coded("PairRoundRobinEntries", err)
		PairArena(rapid.SliceOf(rapid.SampledFrom(ids)).Draw(t, "waiting"), entries, played)
		if got := Standings(format, entries, played); len(got) != len(entries) {
			t.Fatalf("%d standings of %d entries", len(got), len(entries))
		}
	})
}
