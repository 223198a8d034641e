package ai

import (
	"context"
	"maps"
	"testing"

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
		if _, _, _, ok := threatWin(ctx, magnetonKit, p, nil, 2*c.n-2, 0); ok {
			t.Errorf("%s: a win by threats within %d plies, want none", c.pos, 2*c.n-2)
		}
		m, n, _, ok := threatWin(ctx, magnetonKit, p, nil, 2*c.n-1, 0)
		if !ok || n != c.n {
			t.Errorf("%s: threatWin = %v, %d, %v; want a win in %d", c.pos, m, n, ok, c.n)
			continue
		}
		child := game.Adapt[magneton.Position, magneton.Move](p.Play(m), magneton.Rules{})
		if got, _ := forcedResult(ctx, magnetonKit, child, 2*c.n-2, 0); got != -(c.n - 1) {
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
	res, err := NewEngine(magnetonKit, 1, 1).Search(ctx, p, nil, Budget{Depth: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.FormatMove(res.Move); got != "e3-d2" {
		t.Fatalf("the plain depth-4 search plays %s, want e3-d2 (the case no longer shows the miss)", got)
	}
	if !threatLoss(ctx, magnetonKit, p, res.Move, nil, 9, 0) {
		t.Fatalf("threatLoss(e3-d2) = false, want Black's win by threats")
	}
	s, err := magneton.Rules{}.ParsePosition(pos)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := profileOf(magneton.Rules{}).NewPlayer("level:8", magneton.Rules{}, Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	mv, err := pl.Move(ctx, game.NewGame(s), Limits{Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := p.ParseMove(mv)
	if mv == "e3-d2" || threatLoss(ctx, magnetonKit, p, m, nil, 9, 0) {
		t.Errorf("level 8 plays %s, which loses by threats", mv)
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
	e := NewEngine(magnetonKit, 1, 1)
	all := p.AppendMoves(nil)
	win, _ := p.ParseMove("b3")
	e.Exclude = []magneton.Move{win}
	for _, d := range []int{1, 3} {
		res, err := e.Search(context.Background(), p, nil, Budget{Depth: d}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Move == win {
			t.Errorf("depth %d: the excluded b3 was chosen", d)
		}
	}
	// Every move but one excluded: that one is played.
	e.Exclude = append([]magneton.Move(nil), all[1:]...)
	res, _ := e.Search(context.Background(), p, nil, Budget{Depth: 2}, nil)
	if res.Move != all[0] {
		t.Errorf("all but %s excluded: played %s", all[0], res.Move)
	}
}

// TestTrapBonuses compares trapBonuses with a count made the slow way,
// through the public proof search on every move and reply: a move that
// the opponent answers with a win by threats gets nothing, and each reply
// after which the side to move wins by threats in two moves or more (not
// in one) is a trap. The positions are from level 8's games against
// simple-ab, where several moves set traps.
func TestTrapBonuses(t *testing.T) {
	ctx := context.Background()
	const plies = 5
	var seen [4]int // moves with traps, over the positions
	for _, pos := range []string{
		"BW5B/W2W2WB/BWBB4/W7/BW6/8/BWW1W3/BWBB1BW1 w 0 0",
		"1WB1BB1B/3WW1W1/B2W4/8/1WB5/B1B5/1WWWB3/1WBBWBW1 w 0 0",
	} {
		p, err := magneton.Rules{}.Parse(pos)
		if err != nil {
			t.Fatal(err)
		}
		state := func(q magneton.Position) game.State {
			return game.Adapt[magneton.Position, magneton.Move](q, magneton.Rules{})
		}
		// want[k]: the traps of at least k moves, for k = 2 and 3.
		want := [4]map[magneton.Move]int{2: {}, 3: {}}
		for _, m := range p.AppendMoves(nil) {
			c := p.Play(m)
			if _, over := magnetonKit.Decided(c); over {
				continue
			}
			if n, _ := MagnetonProfile.ForcedResult(ctx, state(c), plies, 0); n > 0 {
				continue
			}
			for _, r := range c.AppendMoves(nil) {
				d := c.Play(r)
				if _, over := magnetonKit.Decided(d); over {
					continue
				}
				n, _ := MagnetonProfile.ForcedResult(ctx, state(d), plies, 0)
				for k := 2; k <= 3; k++ {
					if n >= k {
						want[k][m]++
					}
				}
			}
		}
		for k := 2; k <= 3; k++ {
			seen[k] += len(want[k])
			if got := trapBonuses(ctx, magnetonKit, p, nil, plies, k, 0, 1, 1000); !maps.Equal(got, want[k]) {
				t.Errorf("%s, traps of %d moves or more: trapBonuses = %v, want %v", pos, k, got, want[k])
			}
		}
		capped := trapBonuses(ctx, magnetonKit, p, nil, plies, 2, 0, 7, 1)
		for m := range want[2] {
			if capped[m] != 7 {
				t.Errorf("%s: with one trap at most and 7 a trap, %v gets %d, want 7", pos, p.FormatMove(m), capped[m])
			}
		}
	}
	if seen[2] == 0 || seen[3] == 0 {
		t.Errorf("moves with traps of two moves or more: %d, of three or more: %d; the cases check nothing where there are none", seen[2], seen[3])
	}
}

// TestRootBonus checks the search's root bonuses: a large bonus makes the
// search choose its move, and the score includes it; but no bonus
// outweighs a win the search sees.
func TestRootBonus(t *testing.T) {
	ctx := context.Background()
	p, err := magneton.Rules{}.Parse("BW5B/W2W2WB/BWBB4/W7/BW6/8/BWW1W3/BWBB1BW1 w 0 0")
	if err != nil {
		t.Fatal(err)
	}
	eng := NewEngine(magnetonKit, 8, 1)
	plain, err := eng.Search(ctx, p, nil, Budget{Depth: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var other magneton.Move
	for _, m := range p.AppendMoves(nil) {
		if m != plain.Move {
			other = m
			break
		}
	}
	eng.Clear()
	eng.RootBonus = map[magneton.Move]int{other: 5000}
	res, err := eng.Search(ctx, p, nil, Budget{Depth: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Move != other || res.Info.Score < 5000-2000 {
		t.Errorf("with a bonus of 5000 on %s: move %s, score %d; want %s and the bonus in the score", p.FormatMove(other), p.FormatMove(res.Move), res.Info.Score, p.FormatMove(other))
	}

	// The first threat case wins in two moves; a bonus on any other move
	// does not change that.
	w, err := magneton.Rules{}.Parse(threatCases[0].pos)
	if err != nil {
		t.Fatal(err)
	}
	eng = NewEngine(magnetonKit, 8, 1)
	win, err := eng.Search(ctx, w, nil, Budget{Depth: 3}, nil)
	if err != nil || win.Info.Mate != 2 {
		t.Fatalf("the threat case: %+v, %v; want a win in 2", win.Info, err)
	}
	eng.Clear()
	eng.RootBonus = map[magneton.Move]int{}
	for _, m := range w.AppendMoves(nil) {
		if m != win.Move {
			eng.RootBonus[m] = 5000
		}
	}
	res, err = eng.Search(ctx, w, nil, Budget{Depth: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Info.Mate != 2 {
		t.Errorf("with bonuses on every other move: %s, mate %d, score %d; want the win in 2", w.FormatMove(res.Move), res.Info.Mate, res.Info.Score)
	}
}
