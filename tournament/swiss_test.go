package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestDefaultSwissRounds(t *testing.T) {
	for n, want := range map[int]int{0: 0, 1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 8: 4, 9: 5, 16: 5, 17: 6, 200: 9} {
		if got := DefaultSwissRounds(n); got != want {
			t.Errorf("DefaultSwissRounds(%d) = %d, want %d", n, got, want)
		}
	}
}

func rated(n int) []Entry {
	entries := make([]Entry, n)
	for i := range entries {
		entries[i] = Entry{Player: fmt.Sprintf("p%d", i+1), Rating: 2000 - 10*i}
	}
	return entries
}

func TestPairSwiss(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries []Entry
		played  []Pairing
		round   int
		want    string
	}{
		// Top half against bottom half, the top seed first on board 1,
		// colours alternating down the boards.
		{"round 1", rated(4), nil, 1, "p1-p3 p4-p2"},
		{"round 1 odd", rated(5), nil, 1, "p1-p3 p4-p2 p5-bye"},
		// Ratings order within a score, then the id.
		{"ties", []Entry{{Player: "b", Rating: 1500}, {Player: "a", Rating: 1500}, {Player: "c", Rating: 1600}, {Player: "d"}}, nil, 1, "c-b d-a"},
		// p1 and p4 won, both moving first: both are due second, and the
		// higher ranked has it. So for p2 and p3, due first.
		{"round 2", rated(4), []Pairing{{Round: 1, First: "p1", Second: "p3", Result: FirstWins}, {Round: 1, First: "p4", Second: "p2", Result: FirstWins}}, 2, "p4-p1 p2-p3"},
		// All drew: p1's natural opponent p3 is a rematch; p4 and p1 are
		// both due second, p2 first: p1 meets p2, as the Dutch system's
		// exchange does.
		{"colours over order", rated(4), []Pairing{{Round: 1, First: "p1", Second: "p3", Result: Draw}, {Round: 1, First: "p4", Second: "p2", Result: Draw}}, 2, "p2-p1 p3-p4"},
		// The bye goes to the lowest without one.
		{"bye once", rated(3), []Pairing{{Round: 1, First: "p1", Second: "p2", Result: Draw}, {Round: 1, First: "p3", Result: FirstWins}}, 2, "p3-p1 p2-bye"},
		// A late joiner (p5, from round 2) is paired with 0 points;
		// a withdrawn player (p2) is not paired.
		{"late and withdrawn", []Entry{{Player: "p1", Rating: 2000}, {Player: "p2", Rating: 1900, Withdrawn: true}, {Player: "p3", Rating: 1800}, {Player: "p4", Rating: 1700}, {Player: "p5", Rating: 2100, JoinedRound: 2}},
			[]Pairing{{Round: 1, First: "p1", Second: "p3", Result: FirstWins}, {Round: 1, First: "p4", Second: "p2", Result: SecondWins}}, 2, "p5-p1 p3-p4"},
	} {
		got, err := PairSwiss(tc.entries, tc.played, tc.round)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if boards(got) != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, boards(got), tc.want)
		}
	}
}

func TestPairSwissErrors(t *testing.T) {
	four := rated(4)
	rr := func(rounds int) []Pairing { // a complete round robin of the four, as a Swiss
		var out []Pairing
		for r := 1; r <= rounds; r++ {
			ps, _ := PairRoundRobin([]string{"p1", "p2", "p3", "p4"}, r)
			for _, p := range ps {
				p.Result = Draw
				out = append(out, p)
			}
		}
		return out
	}
	pending := rr(1)
	pending[0].Result = Pending
	for _, tc := range []struct {
		name    string
		entries []Entry
		played  []Pairing
		round   int
		code    string
	}{
		{"everyone met", four, rr(3), 4, CodeNoPairing},
		{"pending", four, pending, 2, CodeRoundIncomplete},
		{"skipped round", four, rr(1), 3, CodeBadRound},
		{"round 0", four, nil, 0, CodeBadRound},
		{"replayed round", four, rr(2), 2, CodeBadRound},
		{"one player", rated(1), nil, 1, CodeTooFewPlayers},
		{"all withdrawn", []Entry{{Player: "a", Withdrawn: true}, {Player: "b", Withdrawn: true}}, nil, 1, CodeTooFewPlayers},
		{"rematch in history", four, append(rr(1), Pairing{Round: 2, First: "p1", Second: "p4", Result: Draw}), 3, CodeRematch},
		{"duplicate entry", []Entry{{Player: "a"}, {Player: "a"}}, nil, 1, CodeBadEntry},
	} {
		_, err := PairSwiss(tc.entries, tc.played, tc.round)
		if code(err) != tc.code {
			t.Errorf("%s: got %v, want code %s", tc.name, err, tc.code)
		}
	}
}

// A Swiss of as many rounds as a round robin plays to the end, looking
// ahead so that no round leaves the next one without a pairing (which
// happens to PairSwiss, looking one round ahead, for 5 players over 5
// rounds in 14 of 100 tournaments).
func TestPairSwissRoundsToTheEnd(t *testing.T) {
	for n := 4; n <= 12; n++ {
		for seed := range uint64(10) {
			rounds := MaxSwissRounds(n)
			entries, played := playedSwissRounds(t, n, rounds, rounds, seed)
			if got, want := len(played), rounds*((n+1)/2); got != want {
				t.Errorf("%d players, seed %d: %d pairings, want %d", n, seed, got, want)
			}
			if err := Validate(Swiss, entries, played); err != nil {
				t.Errorf("%d players, seed %d: %v", n, seed, err)
			}
		}
	}
	_, err := PairSwissRounds(rated(4), nil, 4, 3)
	if code(err) != CodeBadRound {
		t.Errorf("round 4 of 3: got %v, want %s", err, CodeBadRound)
	}
}

// A second bye is given only when it must be, to the lowest of those with
// the fewest byes who can have it.
func TestPairSwissSecondBye(t *testing.T) {
	entries := rated(3)
	played := []Pairing{
		{Round: 1, First: "p1", Second: "p2", Result: Draw}, {Round: 1, First: "p3", Result: FirstWins},
		{Round: 2, First: "p3", Second: "p1", Result: Draw}, {Round: 2, First: "p2", Result: FirstWins},
		{Round: 3, First: "p2", Second: "p3", Result: Draw}, {Round: 3, First: "p1", Result: FirstWins},
	}
	if _, err := PairSwiss(entries, played, 4); code(err) != CodeNoPairing {
		t.Errorf("everyone met: got %v, want %s", err, CodeNoPairing)
	}
	// Two join: p4 and p5 have no bye, but whichever of them has it, the
	// other must meet one of p1..p3 and the other two of those each other.
	entries = append(entries, Entry{Player: "p4", Rating: 1000, JoinedRound: 4}, Entry{Player: "p5", Rating: 900, JoinedRound: 4})
	got, err := PairSwiss(entries, played, 4)
	if err != nil {
		t.Fatal(err)
	}
	if boards(got) != "p1-p4 p5-p2 p3-bye" {
		t.Errorf("got %s, want p1-p4 p5-p2 p3-bye", boards(got))
	}
	if err := Validate(Swiss, entries, append(played, got...)); err != nil {
		t.Error(err)
	}
	// p5's second bye when p4, say, could have had it is what Validate
	// rejects.
	wrong := []Pairing{
		{Round: 1, First: "p1", Second: "p2", Result: Draw}, {Round: 1, First: "p3", Second: "p4", Result: Draw}, {Round: 1, First: "p5", Result: FirstWins},
		{Round: 2, First: "p1", Second: "p3", Result: Draw}, {Round: 2, First: "p2", Second: "p4", Result: Draw}, {Round: 2, First: "p5", Result: FirstWins},
	}
	if err := Validate(Swiss, rated(5), wrong); code(err) != CodeSecondBye {
		t.Errorf("p5's second bye: got %v, want %s", err, CodeSecondBye)
	}
}

// playedSwiss plays rounds of a Swiss of n with results from seed.
func playedSwiss(tb testing.TB, n, rounds int, seed uint64) ([]Entry, []Pairing) {
	return playedSwissRounds(tb, n, rounds, rounds+1, seed)
}

// playedSwissRounds plays the first rounds of a Swiss of n players and of
// total rounds, with results from seed.
func playedSwissRounds(tb testing.TB, n, rounds, total int, seed uint64) ([]Entry, []Pairing) {
	rng := rand.New(rand.NewPCG(seed, 1))
	entries := make([]Entry, n)
	for i := range entries {
		entries[i] = Entry{Player: fmt.Sprintf("p%03d", i), Rating: 1000 + rng.IntN(1500)}
	}
	var played []Pairing
	for r := 1; r <= rounds; r++ {
		ps, err := PairSwissRounds(entries, played, r, total)
		if err != nil {
			tb.Fatalf("%d players, seed %d, round %d: %v", n, seed, r, err)
		}
		for i := range ps {
			if !ps[i].Bye() {
				ps[i].Result = Result(1 + rng.IntN(3))
			}
		}
		played = append(played, ps...)
	}
	return entries, played
}

// BenchmarkPairSwiss pairs round 7 of a Swiss of 200 players.
func BenchmarkPairSwiss(b *testing.B) { benchPairSwiss(b, 200) }

// BenchmarkPairSwissOdd is the same with 199 players: a bye to choose.
func BenchmarkPairSwissOdd(b *testing.B) { benchPairSwiss(b, 199) }

func benchPairSwiss(b *testing.B, n int) {
	entries, played := playedSwiss(b, n, 6, 7)
	for b.Loop() {
		if _, err := PairSwiss(entries, played, 7); err != nil {
			b.Fatal(err)
		}
	}
}
