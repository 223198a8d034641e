package tumblingai

import (
	"context"
	"math"
	"math/bits"
	"testing"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/tumbling"
)

func parseTumbling(s string) (tumbling.Position, error) { return tumbling.Rules{}.Parse(s) }

// plainBoardspaceEval is the boardspace-d5 evaluation written out again,
// as simply as possible: 2 x stacks controlled + 1 x single-colour stacks,
// side to move minus opponent, in hundredths.
func plainBoardspaceEval(p tumbling.Position) int {
	score := 0
	for sq := range 64 {
		h, mask := p.Stack(tumbling.Square(sq))
		if h == 0 {
			continue
		}
		owner := game.Side(mask >> (h - 1) & 1)
		v := 2
		if bits.OnesCount64(mask) == 0 || bits.OnesCount64(mask) == h {
			v++
		}
		if owner == p.Side() {
			score += v
		} else {
			score -= v
		}
	}
	return 100 * score
}

// plainScore scores a finished game for the side to move at ply as the
// engine does: ai.Mate minus the plies to a win, the negation for a loss,
// 0 for a draw.
func plainScore(r game.Result, side game.Side, ply int) int {
	w, ok := r.Winner()
	switch {
	case !ok:
		return 0
	case w == side:
		return ai.Mate - ply
	}
	return -(ai.Mate - ply)
}

// plainMinimax is a full-width negamax without pruning, table or move
// ordering, scoring as the engine does: a decided game ai.Mate minus the
// plies to it, a repetition of a position on the path a draw (0).
func plainMinimax(p tumbling.Position, depth, ply int, path []uint64) int {
	if r, ok := decided(p); ok {
		return plainScore(r, p.Side(), ply)
	}
	for i := len(path) - 2; ply > 0 && i >= 0; i -= 2 {
		if path[i] == p.Hash() {
			return 0
		}
	}
	if r, _ := p.Outcome(); r.Over() {
		return plainScore(r, p.Side(), ply)
	}
	if depth == 0 {
		return plainBoardspaceEval(p)
	}
	best := math.MinInt
	path = append(path, p.Hash())
	for _, m := range p.AppendMoves(nil) {
		best = max(best, -plainMinimax(p.Play(m), depth-1, ply+1, path))
	}
	return best
}

// exactCases are positions of random games in which no move gave the
// opponent a win in one, chosen with few enough moves (51 to 59) for a
// plain minimax in a test; the side to move cannot win in one. The start
// (about 150 moves) is searched less deep.
var exactCases = []struct {
	pos   string
	depth int
}{
	{"bbbbbbbbbbbbbbbb,b,bbb,4,r/1,b,b,b,1,b,r,1/6,r,1/brbrr,r,r,rbr,br,r,br,1/1,r,6/1,r,1,r,r,r,1,r/3,rr,1,rrrr,2/r,4,rrr,2 b", 3},
	{"4,b,3/bbbbbbb,4,b,2/bbb,1,r,1,r,rr,2/bbbr,r,b,br,4/2,rr,r,1,rbrr,2/3,rr,r,1,b,1/bbbrb,5,br,rbrr/2,r,1,bbbrbr,2,rrrrr b", 3},
	{"b,1,rrrb,1,bb,3/1,bb,5,r/b,bb,b,5/7,rbbrr/bbbbb,bbb,6/2,rbb,b,1,b,1,rrbrrrbr/8/2,rr,r,bbbrrr,2,rrrrrrrrr r", 3},
	{"1,b,b,2,r,r,brrrrrrb/b,rb,1,b,b,1,rb,1/3,b,1,b,1,r/bb,r,1,b,4/r,4,b,1,rbrrr/5,b,1,rr/brbrb,7/bbbbbb,2,rrrrrrrbbb,3,r r", 3},
	{"start", 2},
}

// TestBoardspaceExact checks that the boardspace-d5 engine, with all its
// speed-ups (table, move ordering, principal variation search), returns the
// value of a plain minimax at the same depth: its definition is the depth
// and the evaluation, and the speed-ups must not change the value.
func TestBoardspaceExact(t *testing.T) {
	if got, want := boardspaceKit.Eval(tumbling.Rules{}.StartPosition()), plainBoardspaceEval(tumbling.Rules{}.StartPosition()); got != want {
		t.Fatalf("start: eval %d, plain %d", got, want)
	}
	for _, c := range exactCases {
		p := tumbling.Rules{}.StartPosition()
		if c.pos != "start" {
			var err error
			if p, err = parseTumbling(c.pos); err != nil {
				t.Fatal(err)
			}
		}
		depth := c.depth
		if testing.Short() {
			depth = min(depth, 2)
		}
		if got, want := boardspaceKit.Eval(p), plainBoardspaceEval(p); got != want {
			t.Fatalf("%s: eval %d, plain %d", p, got, want)
		}
		// The engine of the player boardspace-d5, as Profile makes it
		// with a 4 MB table and one thread, at the test's depth.
		res, err := boardspaceEngine(4, 1).Search(context.Background(), p, nil, ai.Budget{Depth: depth}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := plainMinimax(p, depth, 0, nil); res.Info.Score != want {
			t.Errorf("%s: depth %d: engine %d, plain minimax %d", p, depth, res.Info.Score, want)
		}
		// The move it chose must have that value too.
		if got, want := -plainMinimax(p.Play(res.Move), depth-1, 1, []uint64{p.Hash()}), res.Info.Score; got != want {
			t.Errorf("%s: its move %s scores %d, not %d", p, p.FormatMove(res.Move), got, want)
		}
	}
}

// BenchmarkBoardspaceD5 times boardspace-d5's depth-5 search of the start
// and of a middle-game position (a fresh table each time).
func BenchmarkBoardspaceD5(b *testing.B) {
	for _, bc := range []struct{ name, pos string }{
		{"start", tumbling.Rules{}.StartText()},
		{"middle", "bbb,bbbb,bb,1,b,3/bb,bbbb,bbb,b,4/bbb,bb,bb,5/1,b,1,r,3,r/b,3,r,1,r,rr/4,r,2,rrr/3,r,r,rrr,rrr,rrr/3,r,2,rrr,rrrr r"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p, err := parseTumbling(bc.pos)
			if err != nil {
				b.Fatal(err)
			}
			var nodes int64
			for b.Loop() {
				res, _ := boardspaceEngine(64, 1).Search(context.Background(), p, nil, ai.Budget{Depth: 5}, nil)
				nodes = res.Info.Nodes
			}
			b.ReportMetric(float64(nodes), "nodes")
		})
	}
}

// TestBoardspaceD5Player checks that the player boardspace-d5 is
// boardspaceEngine searching to depth 5 whatever the move's limits say: a
// millisecond and depth 2 change neither its depth, nor its move, score
// and nodes.
func TestBoardspaceD5Player(t *testing.T) {
	p, err := parseTumbling(exactCases[0].pos)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := Profile.NewPlayer("boardspace-d5", tumbling.Rules{}, ai.Config{HashMB: 4})
	if err != nil {
		t.Fatal(err)
	}
	g := game.NewGame(game.Adapt[tumbling.Position, tumbling.Move](p, tumbling.Rules{}))
	got, err := pl.(ai.Thinker).Think(context.Background(), g, ai.Limits{MoveTime: time.Millisecond, Depth: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := boardspaceEngine(4, 1).Search(context.Background(), p, nil, ai.Budget{Depth: 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Depth != 5 || got.BestMove != p.FormatMove(want.Move) || got.Score != want.Info.Score || got.Nodes != want.Info.Nodes {
		t.Errorf("boardspace-d5: depth %d %s score %d (%d nodes), want depth 5 %s score %d (%d nodes)",
			got.Depth, got.BestMove, got.Score, got.Nodes, p.FormatMove(want.Move), want.Info.Score, want.Info.Nodes)
	}
}
