package tournament

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The FIDE Berger tables (C.05 Annex 1), board by board, first mover first.
var bergerTables = map[int][]string{
	4: {"1-4 2-3", "4-3 1-2", "2-4 3-1"},
	6: {"1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"},
	8: {"1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3",
		"3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1"},
	10: {"1-10 2-9 3-8 4-7 5-6", "10-6 7-5 8-4 9-3 1-2", "2-10 3-1 4-9 5-8 6-7",
		"10-7 8-6 9-5 1-4 2-3", "3-10 4-2 5-1 6-9 7-8", "10-8 9-7 1-6 2-5 3-4",
		"4-10 5-3 6-2 7-1 8-9", "10-9 1-8 2-7 3-6 4-5", "5-10 6-4 7-3 8-2 9-1"},
}

func seeds(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprint(i + 1)
	}
	return ids
}

// boards writes pairings as the tables do; a bye is "5-bye".
func boards(ps []Pairing) string {
	var b []string
	for _, p := range ps {
		second := p.Second
		if p.Bye() {
			second = "bye"
		}
		b = append(b, p.First+"-"+second)
	}
	return strings.Join(b, " ")
}

func TestBergerTables(t *testing.T) {
	for n, table := range bergerTables {
		for r, want := range table {
			got, err := PairRoundRobin(seeds(n), r+1)
			if err != nil {
				t.Fatalf("%d players, round %d: %v", n, r+1, err)
			}
			if boards(got) != want {
				t.Errorf("%d players, round %d: got %s, want %s", n, r+1, boards(got), want)
			}
		}
	}
}

// With an odd count, the last seed of the next even table is the bye, and
// the bye comes last.
func TestBergerOdd(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want []string
	}{
		{3, []string{"2-3 1-bye", "1-2 3-bye", "3-1 2-bye"}},
		{5, []string{"2-5 3-4 1-bye", "5-3 1-2 4-bye", "3-1 4-5 2-bye", "1-4 2-3 5-bye", "4-2 5-1 3-bye"}},
	} {
		if RoundRobinRounds(tc.n) != len(tc.want) {
			t.Errorf("RoundRobinRounds(%d) = %d, want %d", tc.n, RoundRobinRounds(tc.n), len(tc.want))
		}
		for r, want := range tc.want {
			got, err := PairRoundRobin(seeds(tc.n), r+1)
			if err != nil {
				t.Fatal(err)
			}
			if boards(got) != want {
				t.Errorf("%d players, round %d: got %s, want %s", tc.n, r+1, boards(got), want)
			}
			for _, p := range got {
				if p.Bye() && p.Result != FirstWins {
					t.Errorf("%d players, round %d: bye %+v is not FirstWins", tc.n, r+1, p)
				}
			}
		}
	}
}

func TestRoundRobinErrors(t *testing.T) {
	for _, tc := range []struct {
		players []string
		round   int
		code    string
	}{
		{[]string{"a"}, 1, CodeTooFewPlayers},
		{nil, 1, CodeTooFewPlayers},
		{[]string{"a", "b"}, 0, CodeBadRound},
		{[]string{"a", "b"}, 2, CodeBadRound},
		{[]string{"a", "b", "c"}, 4, CodeBadRound},
		{[]string{"a", "a"}, 1, CodeBadEntry},
		{[]string{"a", ""}, 1, CodeBadEntry},
	} {
		_, err := PairRoundRobin(tc.players, tc.round)
		if code(err) != tc.code {
			t.Errorf("PairRoundRobin(%q, %d) = %v, want code %s", tc.players, tc.round, err, tc.code)
		}
	}
}

// code is err's Code, or "" when err is not an *Error.
func code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestRoundRobinWithdrawn(t *testing.T) {
	entries := []Entry{{Player: "1"}, {Player: "2", Withdrawn: true}, {Player: "3"}, {Player: "4"}, {Player: "5", Withdrawn: true}}
	got, err := PairRoundRobinEntries(entries, 1)
	if err != nil {
		t.Fatal(err)
	}
	// The table's round 1 is 2-5 3-4 1-bye: 2 and 5 are gone.
	if boards(got) != "3-4 1-bye" {
		t.Errorf("got %s, want 3-4 1-bye", boards(got))
	}
	got, _ = PairRoundRobinEntries(entries, 2)
	// 5-3 1-2 4-bye: 3 and 1 have no game.
	if boards(got) != "4-bye" {
		t.Errorf("got %s, want 4-bye", boards(got))
	}
}

func TestRoundRobinRounds(t *testing.T) {
	for n, want := range map[int]int{0: 0, 1: 0, 2: 1, 3: 3, 4: 3, 5: 5, 10: 9} {
		if got := RoundRobinRounds(n); got != want {
			t.Errorf("RoundRobinRounds(%d) = %d, want %d", n, got, want)
		}
	}
}
