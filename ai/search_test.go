package ai_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
	"github.com/magneton-games/magneton/tumbling"
)

// mateCase is a position where the side to move forces a win in exactly n
// moves. The positions were found by searching random games of each game
// to depth 4 and keeping those with a mate the exhaustive winIn confirmed;
// the Magneton ones are checked by winIn again before use.
type mateCase struct {
	pos string
	n   int
}

var magnetonMates = []mateCase{
	// The rules' example: b3 pushes c3 to d3, making d3-d6 by magnetism.
	{"8/8/3WB3/3W4/3W4/2W1B3/8/8 w 8 10", 1},
	{"6W1/7B/5W1W/B3B3/WB1WB1B1/B1BW1WBW/W1W2BBW/1B5W w 0 0", 1},
	{"W6W/1B6/WW6/BB5B/1W5W/B1B2BBB/W3WW1W/B1BW1WB1 b 0 0", 2},
	{"W2B3B/2WB2WW/B2B4/B1W5/B3W2B/WB2W3/W1WBW3/B1WB4 w 0 0", 2},
	{"W2B1WB1/B6W/WB1BBB2/BBWBW3/B5BW/W7/W6W/2W1W3 b 0 0", 3},
	{"2BWBBW1/W2WB3/1B6/8/3W4/2BWB3/BW1WBB2/1WB1WWWB w 0 0", 3},
}

// checkMates runs a search on each case and checks the move wins and the
// reported distance.
//
// The exhaustive checks of wins in three are skipped for Tumbling Down
// (deep false), whose branching factor makes them slow; winIn confirmed
// them when they were found. MCTS must prove wins in one and
// two; for wins in three it must play a winning move (Magneton only: in
// Tumbling Down it needs a few seconds).
func checkMates[P game.Position[P, M], M comparable](t *testing.T, kit *ai.Kit[P, M], parse func(string) (P, error), cases []mateCase, useMCTS, deep bool) {
	t.Helper()
	for _, c := range cases {
		exhaustive := deep || c.n < 3
		p, err := parse(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		if exhaustive && (!winIn(kit, p, c.n) || (c.n > 1 && winIn(kit, p, c.n-1))) {
			t.Fatalf("%s: not a win in exactly %d", c.pos, c.n)
		}
		var res ai.SearchResult[M]
		if useMCTS {
			if c.n == 3 && !deep {
				continue // too slow for the default test run
			}
			// An iteration budget, not a time: a loaded machine gives MCTS
			// fewer iterations a second (the hardest case here needs about
			// 200,000), and a time budget failed under load. MCTS stops
			// once it has proven the result.
			res, err = ai.NewMCTS(kit, 1, 1).Search(context.Background(), p, ai.Budget{Nodes: 2_000_000, Hard: time.Minute}, nil)
		} else {
			res, err = ai.NewEngine(kit, 8, 1).Search(context.Background(), p, nil, ai.Budget{Depth: 2*c.n + 1}, nil)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !useMCTS && res.Info.Mate != c.n {
			t.Errorf("%s: alpha-beta reports mate %d (score %d), want %d", c.pos, res.Info.Mate, res.Info.Score, c.n)
		}
		if useMCTS && res.Info.Mate <= 0 && c.n < 3 {
			t.Errorf("%s: MCTS did not prove the win (score %d, %d iterations)", c.pos, res.Info.Score, res.Info.Nodes)
		}
		// The move played must keep a win in n-1 (or win at once).
		q := p.Play(res.Move)
		if r, ok := kit.Decided(q); ok {
			if r != game.WinFor(p.Side()) {
				t.Errorf("%s: %s loses", c.pos, p.FormatMove(res.Move))
			}
			continue
		}
		if c.n == 1 {
			t.Errorf("%s: %s does not win at once", c.pos, p.FormatMove(res.Move))
			continue
		}
		if !exhaustive {
			// The engine, searching deeper, must still see the win.
			after, _ := ai.NewEngine(kit, 8, 1).Search(context.Background(), q, nil, ai.Budget{Depth: 2 * c.n}, nil)
			if m := after.Info.Mate; m >= 0 || -m > c.n-1 {
				t.Errorf("%s: after %s the engine sees mate %d for the opponent, want -%d", c.pos, p.FormatMove(res.Move), m, c.n-1)
			}
			continue
		}
		for _, r := range q.AppendMoves(nil) {
			g := q.Play(r)
			if _, ok := kit.Decided(g); ok {
				continue
			}
			if !winIn(kit, g, c.n-1) {
				t.Errorf("%s: after %s %s the win is gone", c.pos, p.FormatMove(res.Move), q.FormatMove(r))
			}
		}
	}
}

var tumblingMates = []mateCase{
	{"1,bbbbb,1,bb,bb,3/bb,1,b,bb,4/bbb,2,b,1,b,2/1,r,r,1,rr,2,r/bb,bb,3,br,1,rrrr/bb,2,brr,r,r,rrrrr,b/b,2,r,1,rr,rr,1/3,rrr,3,rr b", 1},
	{"bbbbbb,b,2,b,b,2/bbbbb,2,b,2,b,1/bbb,1,bb,1,b,1,b,r/5,b,rb,rrr/b,1,b,b,4/2,b,1,r,r,2/5,rr,1,rrrrrrrr/2,r,2,rrr,1,rrrrrrrr r", 1},
	{"bbbbbb,bbb,b,bbbb,4/1,bb,bbb,bbb,b,3/4,b,br,2/bbb,b,4,r,1/6,rrr,rrrr/3,r,1,rr,2/1,r,1,r,1,r,r,rrr/4,rr,r,rrrr,rrr r", 2},
	{"bbbbbb,7/1,bb,b,2,b,b,1/bbbb,1,bb,bbbr,1,r,2/b,bbb,rb,b,1,r,2/b,b,b,3,rr,r/1,r,1,rrr,r,1,r,1/2,r,1,r,r,r,1/2,r,r,rrrr,2,rrrrrr r", 2},
	{"bbb,bbbb,bb,1,b,3/bb,bbbb,bbb,b,4/bbb,bb,bb,5/1,b,1,r,3,r/b,3,r,1,r,rr/4,r,2,rrr/3,r,r,rrr,rrr,rrr/3,r,2,rrr,rrrr r", 3},
	{"bbbbb,4,b,2/bbbbbbbr,bb,r,4,b/2,bb,1,br,3/bbbb,3,r,r,1,r/1,b,b,b,1,r,2/3,rbb,1,r,rr,rrrr/1,r,r,rb,1,rr,rr,1/3,r,1,r,r,rrrr b", 3},
}

func parseTumbling(s string) (tumbling.Position, error) { return tumbling.Rules{}.Parse(s) }

func TestAlphaBetaTumblingMates(t *testing.T) {
	checkMates(t, tumblingKit, parseTumbling, tumblingMates, false, false)
}

func TestMCTSTumblingMates(t *testing.T) {
	checkMates(t, tumblingKit, parseTumbling, tumblingMates, true, false)
}

func parseMagneton(s string) (magneton.Position, error) { return magneton.Rules{}.Parse(s) }

func TestAlphaBetaMagnetonMates(t *testing.T) {
	checkMates(t, magnetonKit, parseMagneton, magnetonMates, false, true)
}

func TestMCTSMagnetonMates(t *testing.T) {
	checkMates(t, magnetonKit, parseMagneton, magnetonMates, true, true)
}

// TestPlayersLegal plays short games between the players and checks that
// every move is legal (game.Game.Play checks it).
func TestPlayersLegal(t *testing.T) {
	t.Run("magneton", func(t *testing.T) {
		testPlayersLegal(t, magneton.Rules{}, []string{"random", "greedy", "level:1", "level:3", "alphabeta", "mcts"})
	})
	t.Run("tumbling", func(t *testing.T) {
		testPlayersLegal(t, tumbling.Rules{}, []string{"random", "greedy", "level:1", "boardspace-d5", "level:4", "alphabeta", "mcts"})
	})
}

func testPlayersLegal(t *testing.T, rules game.Rules, names []string) {
	for i, a := range names {
		b := names[(i+1)%len(names)]
		pa, err := newPlayer(a, rules, ai.Config{Seed: int64(i + 1), HashMB: 4})
		if err != nil {
			t.Fatal(err)
		}
		pb, err := newPlayer(b, rules, ai.Config{Seed: int64(i + 2), HashMB: 4, Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		g := game.NewGame(rules.Start())
		for ply := 0; ply < 40; ply++ {
			if r, _ := g.Result(); r.Over() {
				break
			}
			pl := [2]ai.Player{pa, pb}[g.Position().Side()]
			// The fixed-depth baseline ignores the time; the context stops it.
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			m, err := pl.Move(ctx, g, ai.Limits{MoveTime: 5 * time.Millisecond})
			cancel()
			if err != nil {
				t.Fatalf("%s: %v", pl.Name(), err)
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("%s played an illegal move: %v", pl.Name(), err)
			}
		}
		if _, err := pa.Move(context.Background(), game.NewGame(rules.Start()), ai.Limits{Nodes: 100}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGreedyTakesWin checks the greedy baseline's definition: it takes a
// win in one whatever its random choices (twenty moves of one player,
// which draws anew each move).
func TestGreedyTakesWin(t *testing.T) {
	p, _ := parseMagneton(magnetonMates[0].pos)
	pl, err := newPlayer("greedy", magneton.Rules{}, ai.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	g := game.NewGame(game.Adapt[magneton.Position, magneton.Move](p, magneton.Rules{}))
	for range 20 {
		if m, err := pl.Move(context.Background(), g, ai.Limits{}); err != nil || m != "b3" {
			t.Fatalf("greedy played %s (%v), not the win b3", m, err)
		}
	}
}

// TestLevelsTakeWinInOne checks that no level misses a win in one, whether
// it searches or makes one of its beginner's moves (the seeds of a few
// games are tried so that both happen).
func TestLevelsTakeWinInOne(t *testing.T) {
	p, _ := parseMagneton(magnetonMates[0].pos)
	for lv := 1; lv <= 8; lv++ {
		for seed := range int64(8) {
			pl, err := newPlayer(fmt.Sprintf("level:%d", lv), magneton.Rules{}, ai.Config{Seed: seed + 1, HashMB: 1})
			if err != nil {
				t.Fatal(err)
			}
			g := game.NewGame(game.Adapt[magneton.Position, magneton.Move](p, magneton.Rules{}))
			m, err := pl.Move(context.Background(), g, ai.Limits{Nodes: 2000})
			if err != nil {
				t.Fatal(err)
			}
			if m != "b3" {
				t.Fatalf("level %d (seed %d) played %s, not the win b3", lv, seed+1, m)
			}
		}
	}
}

// TestSearchStopsOnCancel checks that a search without limits returns a
// legal move soon after its context is cancelled.
func TestSearchStopsOnCancel(t *testing.T) {
	for _, name := range []string{"alphabeta", "mcts"} {
		pl, err := newPlayer(name, magneton.Rules{}, ai.Config{})
		if err != nil {
			t.Fatal(err)
		}
		g := game.NewGame(magneton.Rules{}.Start())
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		start := time.Now()
		m, err := pl.Move(ctx, g, ai.Limits{Depth: 100})
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s took %v to stop", name, d)
		}
		if err := g.Play(m); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
