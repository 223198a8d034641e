package analysis

import (
	"testing"

	"github.com/magneton-games/magneton/server/wire"
)

func TestJudge(t *testing.T) {
	ev := func(cp, mate int, best string) wire.ReviewEval {
		return wire.ReviewEval{CP: cp, Mate: mate, Best: best}
	}
	for _, tc := range []struct {
		name        string
		before, aft wire.ReviewEval
		side        int
		move        string
		class       string
	}{
		{"the engine's move is never marked", ev(300, 0, "a1"), ev(-300, 0, ""), 0, "a1", ""},
		{"even to even", ev(0, 0, "a1"), ev(-20, 0, ""), 0, "b2", ""},
		{"an inaccuracy", ev(0, 0, "a1"), ev(-120, 0, ""), 0, "b2", "inaccuracy"},
		{"a mistake", ev(0, 0, "a1"), ev(-240, 0, ""), 0, "b2", "mistake"},
		{"a blunder", ev(0, 0, "a1"), ev(-500, 0, ""), 0, "b2", "blunder"},
		{"a won game thrown away", ev(0, 3, "a1"), ev(0, 0, ""), 0, "b2", "blunder"},
		{"the second side's view", ev(0, 0, "a1"), ev(500, 0, ""), 1, "b2", "blunder"},
		{"a gain is no mistake", ev(0, 0, "a1"), ev(-500, 0, ""), 1, "b2", ""},
		{"into a lost end", wire.ReviewEval{CP: 50, Best: "a1"}, wire.ReviewEval{Result: "0-1"}, 0, "b2", "blunder"},
		{"a proven win thrown away", wire.ReviewEval{CP: 50, Best: "a1", Proven: &wire.Proven{Winner: 1, Moves: 2}}, wire.ReviewEval{CP: 60}, 1, "b2", "blunder"},
		{"a proven win kept", wire.ReviewEval{CP: 50, Best: "a1", Proven: &wire.Proven{Winner: 0, Moves: 2}}, wire.ReviewEval{Proven: &wire.Proven{Winner: 0, Moves: 1}}, 0, "b2", ""},
		{"a proven win ended", wire.ReviewEval{Best: "a1", Proven: &wire.Proven{Winner: 0, Moves: 1}}, wire.ReviewEval{Result: "1-0"}, 0, "b2", ""},
	} {
		moves, _ := Judge([]string{tc.move}, []int{tc.side}, []wire.ReviewEval{tc.before, tc.aft})
		if len(moves) != 1 || moves[0].Class != tc.class {
			t.Errorf("%s: %+v, want class %q", tc.name, moves, tc.class)
		}
	}
}
