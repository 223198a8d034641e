package magneton

import (
	"strings"
	"testing"
)

// The worked examples of the source texts (seeds 000, 001 and 002), each
// written out as positions in the project's notation.

func TestSeedDropOnD4(t *testing.T) {
	// White drops on d4 among d7 B, g7 W, b6 W, f6 B, d5 W, c2 W, f2 B,
	// g1 B, g3 B: b6 goes to a7, d5 to d6, f6 to e5 and f2 to e3; the
	// others are not the nearest stone on their line, or on no line.
	p := mustParse(t, "8/3B2W1/1W3B2/3W4/8/6B1/2W2B2/6B1 w 8 7")
	m, err := p.ParseMove("d4")
	if err != nil {
		t.Fatal(err)
	}
	q := p.Play(m)
	const want = "8/W2B2W1/3W4/4B3/3W4/4B1B1/2W5/6B1 b 7 7"
	if got := q.String(); got != want {
		t.Errorf("after d4: got %s, want %s", got, want)
	}
	if _, won := q.Winner(); won {
		t.Error("d4 should not win")
	}
}

func TestSeedFigure4Moves(t *testing.T) {
	// Figure 4 of the Italian text: the white stone on d4 can go to a1
	// (pushed by g7), d1 (pushed by d6) and c4 (pulled by b4) and nowhere
	// else; on the a7-g1 diagonal a7 pushes and e3 pulls, but e3 is
	// adjacent, so nothing moves there.
	p := mustParse(t, "8/W1BB2W1/3W4/8/1B1W4/4B1B1/2W5/6B1 w 0 0")
	var fromD4 []string
	for _, m := range sortedMoves(p) {
		if strings.HasPrefix(m, "d4-") {
			fromD4 = append(fromD4, m)
		}
	}
	if got := strings.Join(fromD4, " "); got != "d4-a1 d4-c4 d4-d1" {
		t.Errorf("moves of d4: got %s, want d4-a1 d4-c4 d4-d1", got)
	}
	for _, tc := range []struct {
		move, after, effect string
	}{
		{"d4-a1", "W6W/2BB4/3W4/8/1B6/4B1B1/2W5/WB6 b 0 0", "a7 to a8, g7 to h8, g1 pulled to b1"},
		{"d4-d1", "8/W1BB2W1/3W4/8/WB6/4B1B1/8/3WB3 b 0 0", "c2 to a4, g1 pulled to e1"},
		{"d4-c4", "8/W2B2W1/3W4/2B5/1BW5/4B1B1/8/2W3B1 b 0 0", "c2 to c1, c7 pulled to c5"},
	} {
		m, err := p.ParseMove(tc.move)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Play(m).String(); got != tc.after {
			t.Errorf("%s (%s): got %s, want %s", tc.move, tc.effect, got, tc.after)
		}
	}
}

func TestSeedFigure9OnlyTheEffectWins(t *testing.T) {
	// White d6, d5, d4, c3 against Black e6, e3. Dropping on b3 pushes c3
	// to d3 and completes d3-d6 by the magnetic effect: a win. Dropping on
	// d3 or moving c3-d3 makes the same line directly: no win.
	for _, tc := range []struct {
		pos, move string
		wins      bool
	}{
		{"8/8/3WB3/3W4/3W4/2W1B3/8/8 w 1 1", "b3", true},
		{"8/8/3WB3/3W4/3W4/2W1B3/8/8 w 1 1", "d3", false},
		{"8/8/3WB3/3W4/3W4/2W1B3/8/8 w 0 0", "c3-d3", false},
	} {
		p := mustParse(t, tc.pos)
		m, err := p.ParseMove(tc.move)
		if err != nil {
			t.Fatalf("%s: %v", tc.move, err)
		}
		q := p.Play(m)
		if w, won := q.Winner(); won != tc.wins || (won && w != White) {
			t.Errorf("%s: won %v (winner %v), want %v; position %s", tc.move, won, w, tc.wins, q)
		}
		if c, ok := q.At(SquareAt(3, 2)); !ok || c != White {
			t.Errorf("%s: expected a white stone on d3, got %s", tc.move, q)
		}
	}
}

func TestRuleOptions(t *testing.T) {
	for _, tc := range []struct {
		name, pos, move string
		rules           Rules
		after           string
		winner          string // "w", "b" or ""
	}{
		{
			// White drops on c1 and pulls Black's c8 all the way to c2.
			name: "strong force pulls until adjacent", pos: "2B5/8/8/8/8/8/8/8 w 1 1",
			move: "c1", rules: Rules{}, after: "8/8/8/8/8/8/2B5/2W5 b 0 1",
		},
		{
			name: "weak force pulls one square", pos: "2B5/8/8/8/8/8/8/8 w 1 1",
			move: "c1", rules: Rules{Weak: true}, after: "8/2B5/8/8/8/8/8/2W5 b 0 1",
		},
		{
			// White drops on b2 and pulls Black's g2 to c2, under Black's
			// c3-c5: a black line of four made by White's effect.
			name: "owner-wins gives the opponent its line", pos: "8/8/8/2B5/2B5/2B5/6B1/8 w 1 0",
			move: "b2", rules: Rules{OwnerWins: true}, after: "8/8/8/2B5/2B5/2B5/1WB5/8 b 0 0", winner: "b",
		},
		{
			name: "mover-only does not", pos: "8/8/8/2B5/2B5/2B5/6B1/8 w 1 0",
			move: "b2", rules: Rules{}, after: "8/8/8/2B5/2B5/2B5/1WB5/8 b 0 0",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := tc.rules.Parse(tc.pos)
			if err != nil {
				t.Fatal(err)
			}
			m, err := p.ParseMove(tc.move)
			if err != nil {
				t.Fatal(err)
			}
			q := p.Play(m)
			if got := q.String(); got != tc.after {
				t.Errorf("got %s, want %s", got, tc.after)
			}
			got := ""
			if w, ok := q.Winner(); ok {
				got = Spec.SideLetters[w]
			}
			if got != tc.winner {
				t.Errorf("winner %q, want %q", got, tc.winner)
			}
		})
	}
}

func TestOneSidedMovement(t *testing.T) {
	// d4 between a black stone on d7 and a white one on d1: by default d7
	// pulls it up to d6 and d1 pushes it there too (one move). One-sided
	// forbids any move along the file, which holds stones on both sides.
	// On the rank only h4 pulls it, the other side is empty: allowed by
	// both. d1 is pushed by d4 toward the edge it stands on: no move.
	for _, tc := range []struct {
		rules Rules
		want  string
	}{
		{Rules{}, "d4-d6 d4-g4"},
		{Rules{OneSided: true}, "d4-g4"},
	} {
		p, err := tc.rules.Parse("8/3B4/8/8/3W3B/8/8/3W4 w 0 0")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range sortedMoves(p) {
			if strings.HasPrefix(m, "d4") || strings.HasPrefix(m, "d1") {
				got = append(got, m)
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%+v: got %v, want %s", tc.rules, got, tc.want)
		}
	}
}
