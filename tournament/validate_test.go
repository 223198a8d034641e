package tournament

import "testing"

func TestValidate(t *testing.T) {
	four := []Entry{{Player: "a"}, {Player: "b"}, {Player: "c"}, {Player: "d", JoinedRound: 2}}
	g := func(round int, first, second string, r Result) Pairing {
		return Pairing{Round: round, First: first, Second: second, Result: r}
	}
	for _, tc := range []struct {
		name    string
		format  Format
		entries []Entry
		played  []Pairing
		code    string
	}{
		{"empty", Swiss, nil, nil, ""},
		{"fine", Swiss, four, []Pairing{g(1, "a", "b", Draw), g(1, "c", "", FirstWins), g(2, "c", "a", Pending), g(2, "d", "b", Pending)}, ""},
		{"format", "knockout", four, nil, CodeBadFormat},
		{"empty id", Swiss, []Entry{{Player: ""}}, nil, CodeBadEntry},
		{"entered twice", Arena, []Entry{{Player: "a"}, {Player: "a"}}, nil, CodeBadEntry},
		{"unknown first", Swiss, four, []Pairing{g(1, "x", "a", Draw)}, CodeUnknownPlayer},
		{"unknown second", Swiss, four, []Pairing{g(1, "a", "x", Draw)}, CodeUnknownPlayer},
		{"self", Swiss, four, []Pairing{g(1, "a", "a", Draw)}, CodeBadPairing},
		{"result", Swiss, four, []Pairing{g(1, "a", "b", 7)}, CodeBadPairing},
		{"round 0", Swiss, four, []Pairing{g(0, "a", "b", Draw)}, CodeBadPairing},
		{"arena round", Arena, four, []Pairing{g(1, "a", "b", Draw)}, CodeBadPairing},
		{"arena bye", Arena, four, []Pairing{g(0, "a", "", FirstWins)}, CodeBadPairing},
		{"pending bye", Swiss, four, []Pairing{g(1, "a", "", Pending)}, CodeBadPairing},
		{"before joining", Swiss, four, []Pairing{g(1, "a", "d", Draw)}, CodeBadPairing},
		{"before joining first", Swiss, four, []Pairing{g(1, "d", "a", Draw)}, CodeBadPairing},
		{"two byes a round", Swiss, four, []Pairing{g(1, "a", "", FirstWins), g(1, "b", "", FirstWins)}, CodeBadPairing},
		{"twice in a round", Swiss, four, []Pairing{g(1, "a", "b", Draw), g(1, "c", "a", Draw)}, CodeTwiceInRound},
		{"twice in a round by bye", Swiss, four, []Pairing{g(1, "a", "b", Draw), g(1, "b", "", FirstWins)}, CodeTwiceInRound},
		{"two arena games at once", Arena, four, []Pairing{g(0, "a", "b", Pending), g(0, "c", "a", Pending)}, CodeTwiceInRound},
		{"arena rematch", Arena, four, []Pairing{g(0, "a", "b", Draw), g(0, "b", "a", Pending)}, ""},
		{"rematch", Swiss, four, []Pairing{g(1, "a", "b", Draw), g(2, "b", "a", Draw)}, CodeRematch},
		{"rematch out of order", Swiss, four, []Pairing{g(3, "a", "b", Draw), g(2, "d", "c", Draw), g(2, "b", "a", Draw)}, CodeRematch},
		{"round robin", RoundRobin, four[:3], []Pairing{g(1, "b", "c", Draw), g(1, "a", "", FirstWins), g(2, "a", "b", SecondWins)}, ""},
		{"round robin colours", RoundRobin, four[:3], []Pairing{g(1, "c", "b", Draw)}, CodeNotInTable},
		{"round robin bye", RoundRobin, four[:3], []Pairing{g(1, "b", "", FirstWins)}, CodeNotInTable},
		{"round robin round", RoundRobin, four[:3], []Pairing{g(4, "b", "c", Draw)}, CodeBadRound},
		{"round robin second bye", RoundRobin, []Entry{{Player: "a"}, {Player: "b"}}, []Pairing{g(1, "a", "b", Draw)}, ""},
	} {
		err := Validate(tc.format, tc.entries, tc.played)
		if code(err) != tc.code {
			t.Errorf("%s: got %v, want code %q", tc.name, err, tc.code)
		}
		if err != nil && code(err) == "" {
			t.Errorf("%s: %v is not an *Error", tc.name, err)
		}
	}
}
