package ai_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
)

// threatCases are Magneton positions where the side to move wins by
// threats in exactly n moves: the first three are among the search tests'
// mates, the wins in four were found by ForcedResult on random games.
var threatCases = []mateCase{
	{"W6W/1B6/WW6/BB5B/1W5W/B1B2BBB/W3WW1W/B1BW1WB1 b 0 0", 2},
	{"2BWBBW1/W2WB3/1B6/8/3W4/2BWB3/BW1WBB2/1WB1WWWB w 0 0", 3},
	{"1WB5/8/BWW3B1/WBW5/BWW5/B6B/BWBWB3/BWBW3W w 0 0", 3},
	{"W7/1B3BBB/WWW2WWW/6BB/6WW/6BB/5BBW/1B2WBW1 w 0 0", 4},
	{"WB2BW2/WWBB4/B1BWB1BW/2B1BWB1/5B2/7W/6W1/1WW1W3 b 0 0", 4},
}

// TestThreatWin checks the threat-space search on crafted positions: it
// finds each win at its exact length (none within a shorter horizon), and
// after its move the opponent is lost by force one move sooner.
func TestThreatWin(t *testing.T) {
	ctx := context.Background()
	for _, c := range threatCases {
		p, err := magneton.Rules{}.Parse(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, _, ok := ai.ThreatWin(ctx, magnetonKit, p, nil, 2*c.n-2, 0); ok {
			t.Errorf("%s: a win by threats within %d plies, want none", c.pos, 2*c.n-2)
		}
		m, n, _, ok := ai.ThreatWin(ctx, magnetonKit, p, nil, 2*c.n-1, 0)
		if !ok || n != c.n {
			t.Errorf("%s: threatWin = %v, %d, %v; want a win in %d", c.pos, m, n, ok, c.n)
			continue
		}
		child := game.Adapt[magneton.Position, magneton.Move](p.Play(m), magneton.Rules{})
		if got, _ := profileOf(magneton.Rules{}).ForcedResult(ctx, child, 2*c.n-2, 0); got != -(c.n - 1) {
			t.Errorf("%s: after %s the opponent's forced result is %d, want %d", c.pos, m, got, -(c.n - 1))
		}
	}
}

// TestThreatDefence checks the defence on a position from a game level 8
// lost to simple-ab: the plain search at depth 4 plays e3-d2, after which
// Black wins by threats in three moves (e4-f4 h1-h2 g3-f4 a1-a2 f4-f8);
// threatLoss sees that, and level 8 with its threat search plays another
// move at the same depth.
func TestThreatDefence(t *testing.T) {
	const pos = "1W6/W5BB/BWB3WW/B6B/4B1WB/B3W2B/4BB2/W1WWW2W w 0 0"
	ctx := context.Background()
	p, err := magneton.Rules{}.Parse(pos)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ai.NewEngine(magnetonKit, 1, 1).Search(ctx, p, nil, ai.Budget{Depth: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.FormatMove(res.Move); got != "e3-d2" {
		t.Fatalf("the plain depth-4 search plays %s, want e3-d2 (the case no longer shows the miss)", got)
	}
	if !ai.ThreatLoss(ctx, magnetonKit, p, res.Move, nil, 9, 0) {
		t.Fatalf("threatLoss(e3-d2) = false, want Black's win by threats")
	}
	s, err := magneton.Rules{}.ParsePosition(pos)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := profileOf(magneton.Rules{}).NewPlayer("level:8", magneton.Rules{}, ai.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	mv, err := pl.Move(ctx, game.NewGame(s), ai.Limits{Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := p.ParseMove(mv)
	if mv == "e3-d2" || ai.ThreatLoss(ctx, magnetonKit, p, m, nil, 9, 0) {
		t.Errorf("level 8 plays %s, which loses by threats", mv)
	}
}

// TestThreatDefenceOutOfTime checks the defence when the move's time is
// gone after the first check: in a time-odds match at 25 ms a move,
// level 8 (Black) dropped d3, the one-ply search's best (+1.15), after
// which White wins in two (f5, then f3 whatever Black drops); threatLoss
// saw it, but with no time left the refuted move stood. Now a one-ply
// search names another move, which is checked in turn. At 1 ms a move
// the main search never gets past its first plies, so this is the case
// on any machine.
func TestThreatDefenceOutOfTime(t *testing.T) {
	ctx := context.Background()
	g := game.NewGame(magneton.Rules{}.Start())
	for _, m := range strings.Fields("h3 e3 c1 b1 c2 b2 c3 e5 c4 g6 h2 h7 b4 d4 h4 b5 g4 h5 f4") {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	p, _ := game.Unwrap[magneton.Position, magneton.Move](g.Position())
	res, err := ai.NewEngine(magnetonKit, 1, 1).Search(ctx, p, nil, ai.Budget{Depth: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.FormatMove(res.Move); got != "d3" {
		t.Fatalf("the one-ply search plays %s, want d3 (the case no longer shows the miss)", got)
	}
	if !ai.ThreatLoss(ctx, magnetonKit, p, res.Move, nil, 9, 10_000) {
		t.Fatalf("threatLoss(d3) = false, want White's win in two")
	}
	pl, err := profileOf(magneton.Rules{}).NewPlayer("level:8", magneton.Rules{}, ai.Config{Seed: 1, HashMB: 1})
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		mv, err := pl.Move(ctx, g, ai.Limits{MoveTime: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		m, _ := p.ParseMove(mv)
		if mv == "d3" || ai.ThreatLoss(ctx, magnetonKit, p, m, nil, 9, 10_000) {
			t.Errorf("level 8 at 1 ms a move plays %s, which loses by threats", mv)
		}
	}
}

// TestExclude checks that the search never chooses an excluded root
// move, even a winning one's neighbour, and still finds the best of the
// others.
func TestExclude(t *testing.T) {
	p, err := magneton.Rules{}.Parse("8/8/3WB3/3W4/3W4/2W1B3/8/8 w 8 10")
	if err != nil {
		t.Fatal(err)
	}
	e := ai.NewEngine(magnetonKit, 1, 1)
	all := p.AppendMoves(nil)
	win, _ := p.ParseMove("b3")
	e.Exclude = []magneton.Move{win}
	for _, d := range []int{1, 3} {
		res, err := e.Search(context.Background(), p, nil, ai.Budget{Depth: d}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Move == win {
			t.Errorf("depth %d: the excluded b3 was chosen", d)
		}
	}
	// Every move but one excluded: that one is played.
	e.Exclude = append([]magneton.Move(nil), all[1:]...)
	res, _ := e.Search(context.Background(), p, nil, ai.Budget{Depth: 2}, nil)
	if res.Move != all[0] {
		t.Errorf("all but %s excluded: played %s", all[0], res.Move)
	}
}
