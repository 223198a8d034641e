package prove

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
)

// graphGame is a game played on a small directed graph, for testing the
// solver where the exhaustive answer is cheap: a position is a vertex and
// the side to move, a move follows an edge, and a vertex without edges
// ends the game with its result. Its cycles are what makes the
// graph-history interaction real: a position reached again is a draw.
type graphGame struct {
	edges   [][]int
	results []game.Result
}

type graphPos struct {
	g    *graphGame
	v    int
	side game.Side
}

func (p graphPos) Side() game.Side { return p.side }
func (p graphPos) AppendMoves(buf []int) []int {
	for i := range p.g.edges[p.v] {
		buf = append(buf, i)
	}
	return buf
}
func (p graphPos) Play(m int) graphPos { return graphPos{p.g, p.g.edges[p.v][m], p.side.Other()} }
func (p graphPos) Outcome() (game.Result, *game.Ending) {
	if len(p.g.edges[p.v]) == 0 {
		return p.g.results[p.v], game.NoMoves
	}
	return game.Ongoing, nil
}
func (p graphPos) Hash() uint64 {
	z := uint64(p.v*2+int(p.side)+1) * 0x9e3779b97f4a7c15
	return z ^ z>>29
}
func (p graphPos) String() string { return fmt.Sprintf("v%d %d", p.v, p.side) }
func (p graphPos) ParseMove(text string) (int, error) {
	m, err := strconv.Atoi(text)
	if err != nil || m < 0 || m >= len(p.g.edges[p.v]) {
		return 0, fmt.Errorf("no move %q", text)
	}
	return m, nil
}
func (p graphPos) FormatMove(m int) string { return fmt.Sprint(m) }
func (p graphPos) RandomMove(rng *rand.Rand, _ []int) (int, bool) {
	n := len(p.g.edges[p.v])
	return rng.IntN(max(n, 1)), n > 0
}

// graphRules are the rules of a graph game, for the certificates.
type graphRules struct{ g *graphGame }

var graphSpec = &game.Spec{Name: "graph", Title: "Graph", SideNames: [2]string{"First", "Second"}, SideLetters: [2]string{"f", "s"}}

func (r graphRules) Spec() *game.Spec        { return graphSpec }
func (r graphRules) Settings() game.Settings { return game.Settings{} }
func (r graphRules) Start() game.State {
	return game.Adapt[graphPos, int](graphPos{r.g, 0, game.First}, r)
}
func (r graphRules) RepetitionLimit() int { return 1 }
func (r graphRules) ParsePosition(text string) (game.State, error) {
	var v, side int
	if _, err := fmt.Sscanf(text, "v%d %d", &v, &side); err != nil || v < 0 || v >= len(r.g.edges) || side < 0 || side > 1 {
		return nil, fmt.Errorf("no position %q", text)
	}
	return game.Adapt[graphPos, int](graphPos{r.g, v, game.Side(side)}, r), nil
}

var graphKit = &ai.Kit[graphPos, int]{
	Game: "graph",
	Decided: func(p graphPos) (game.Result, bool) {
		r, _ := p.Outcome()
		return r, r.Over()
	},
}

// randomGraph draws a graph of n vertices, each a terminal of a random
// result or with one to three edges, many of them back to earlier
// vertices.
func randomGraph(rng *rand.Rand, n int) *graphGame {
	g := &graphGame{edges: make([][]int, n), results: make([]game.Result, n)}
	for v := range n {
		if v > 0 && rng.IntN(4) == 0 {
			g.results[v] = []game.Result{game.FirstWins, game.SecondWins, game.Draw}[rng.IntN(3)]
			continue
		}
		for range 1 + rng.IntN(3) {
			g.edges[v] = append(g.edges[v], rng.IntN(n))
		}
	}
	return g
}

// bruteWins is the exhaustive answer: whether attacker wins from p by
// force when a position seen before on the line is a draw.
func bruteWins(p graphPos, attacker game.Side, line map[graphPos]bool) bool {
	if r, _ := p.Outcome(); r.Over() {
		return r == game.WinFor(attacker)
	}
	if line[p] {
		return false
	}
	line[p] = true
	defer delete(line, p)
	for m := range p.g.edges[p.v] {
		w := bruteWins(p.Play(m), attacker, line)
		if w == (p.side == attacker) {
			return w
		}
	}
	return p.side != attacker
}

// TestGraphsAgreeWithBruteForce: on many small random graphs with cycles
// the solver's answer, with a large table and with a tiny one that keeps
// overwriting, is the exhaustive search's, from every vertex for both
// attackers. Storing a disproof that relied on a repetition above the
// node fails it (the graph-history interaction). Each proof's
// certificate verifies, and so does each disproof's (the defender's
// proof that it does not lose, its cycles draws by repetition).
func TestGraphsAgreeWithBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 1))
	checked := [3]int{}
	for range 400 {
		g := randomGraph(rng, 3+rng.IntN(9))
		for _, mib := range []int{1, 0} {
			s := New(graphKit, mib)
			for v := range g.edges {
				if len(g.edges[v]) == 0 {
					continue
				}
				for _, side := range []game.Side{game.First, game.Second} {
					p := graphPos{g, v, side}
					for _, attacker := range []game.Side{game.First, game.Second} {
						want := bruteWins(p, attacker, map[graphPos]bool{})
						got, _ := s.Prove(context.Background(), p, attacker)
						if got == Unknown || (got == Proven) != want {
							t.Fatalf("graph %v results %v, vertex %d, %d to move, attacker %d: solver %s, exhaustive search wins=%v", g.edges, g.results, v, side, attacker, got, want)
						}
						checked[got]++
						rules := graphRules{g}
						var c *Certificate
						var err error
						if got == Proven {
							c, err = s.Certificate(context.Background(), p, attacker, rules)
						} else {
							c, err = s.Holds(context.Background(), p, attacker, rules)
						}
						if err == nil {
							_, err = Verify(c, rules)
						}
						if err != nil {
							t.Fatalf("graph %v results %v, vertex %d, %d to move, attacker %d, %s: the certificate: %v", g.edges, g.results, v, side, attacker, got, err)
						}
					}
				}
			}
		}
	}
	if checked[Proven] < 100 || checked[Disproven] < 100 {
		t.Errorf("too few of each answer: %v", checked)
	}
}
