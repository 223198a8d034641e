package ai

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
)

// mateCase is a position where the side to move forces a win in exactly n
// moves. The positions were found by TestFindMagnetonMates and each is
// checked by the exhaustive winIn before use.
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
func checkMates[P game.Position[P, M], M comparable](t *testing.T, kit *Kit[P, M], parse func(string) (P, error), cases []mateCase, useMCTS bool) {
	t.Helper()
	for _, c := range cases {
		p, err := parse(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		if !winIn(kit, p, c.n) || (c.n > 1 && winIn(kit, p, c.n-1)) {
			t.Fatalf("%s: not a win in exactly %d", c.pos, c.n)
		}
		var res SearchResult[M]
		if useMCTS {
			res, err = NewMCTS(kit, 1, 1).Search(context.Background(), p, Budget{Hard: 5 * time.Second}, nil)
		} else {
			res, err = NewEngine(kit, 8, 1).Search(context.Background(), p, nil, Budget{Depth: 2*c.n + 1}, nil)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !useMCTS && res.Info.Mate != c.n {
			t.Errorf("%s: alpha-beta reports mate %d (score %d), want %d", c.pos, res.Info.Mate, res.Info.Score, c.n)
		}
		if useMCTS && res.Info.Mate <= 0 {
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

func parseMagneton(s string) (magneton.Position, error) { return magneton.Rules{}.Parse(s) }

func TestAlphaBetaMagnetonMates(t *testing.T) {
	checkMates(t, magnetonKit, parseMagneton, magnetonMates, false)
}

func TestMCTSMagnetonMates(t *testing.T) {
	checkMates(t, magnetonKit, parseMagneton, magnetonMates, true)
}

// TestPlayersLegal plays short games between the players and checks that
// every move is legal (game.Game.Play checks it).
func TestPlayersLegal(t *testing.T) {
	rules := magneton.Rules{}
	names := []string{"random", "greedy", "level:1", "level:3", "alphabeta", "mcts"}
	for i, a := range names {
		b := names[(i+1)%len(names)]
		pa, err := NewPlayerConfig(a, rules, Config{Seed: int64(i + 1), HashMB: 4})
		if err != nil {
			t.Fatal(err)
		}
		pb, err := NewPlayerConfig(b, rules, Config{Seed: int64(i + 2), HashMB: 4, Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		g := game.NewGame(rules.Start())
		for ply := 0; ply < 60; ply++ {
			if r, _ := g.Result(); r.Over() {
				break
			}
			pl := [2]Player{pa, pb}[g.Position().Side()]
			m, err := pl.Move(context.Background(), g, Limits{MoveTime: 5 * time.Millisecond})
			if err != nil {
				t.Fatalf("%s: %v", pl.Name(), err)
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("%s played an illegal move: %v", pl.Name(), err)
			}
		}
		if _, err := pa.Move(context.Background(), game.NewGame(rules.Start()), Limits{Nodes: 100}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGreedyTakesWinAndAvoidsLoss checks the greedy baseline's definition.
func TestGreedyTakesWin(t *testing.T) {
	p, _ := parseMagneton(magnetonMates[0].pos)
	rng := rand.New(rand.NewPCG(1, 1))
	for range 20 {
		if m := greedyMove(magnetonKit, p, rng); m.String() != "b3" {
			t.Fatalf("greedy played %s, not the win b3", m)
		}
	}
}

func TestNewPlayerErrors(t *testing.T) {
	for _, name := range []string{"level:0", "level:9", "nobody", "boardspace-d5", "ugi:"} {
		if _, err := NewPlayer(name, magneton.Rules{}); err == nil {
			t.Errorf("NewPlayer(%q) gave no error", name)
		}
	}
}
