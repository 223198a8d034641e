package ai

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/magneton-games/magneton/game"
)

var errNoMove = errors.New("no legal move: the game is over")

// Config holds the engine settings of a player that searches.
type Config struct {
	Threads int   // search threads (Lazy SMP for alpha-beta, root parallel MCTS); default 1
	HashMB  int   // transposition table size in megabytes; default 16 (each alpha-beta player has its own)
	Seed    int64 // seed of the random choices of the weaker players and baselines; 0 picks one
	// Weights, if not nil, replace the evaluation weights of the game,
	// one a feature in the order of its Profile's Evaluation().Names;
	// the tuning tool uses it.
	Weights []int
	// Prover, if not nil, is the proof search the strongest level uses
	// in the endgame (see EndgameNodes); games.NewPlayer gives each
	// player its game's own. The player must be its only user.
	Prover Prover
	// Book, if not nil, holds positions proven ahead of time (package
	// book): the strongest level plays its moves there at once, the
	// winner's proof or the loser's longest resistance, and reports
	// them as proven. games.NewPlayer gives level 8 the committed
	// certificates' book. It may be shared by several players.
	Book Book
}

// Book answers positions whose result a proof settled ahead of time.
type Book interface {
	// Lookup returns what is proven about s, the current position of a
	// game whose earlier positions have the hashes hist, and whether the
	// book knows it. The Proof's Move is the side to move's move.
	Lookup(s game.State, hist []uint64) (Proof, bool)
}

// Thinker is a Player that reports the progress of its search: the UGI
// engine and the analyze command use it.
type Thinker interface {
	Player
	// Think searches g's current position within lim, calling info as it
	// deepens, and returns the final report, whose BestMove is the move.
	Think(ctx context.Context, g *game.Game, lim Limits, info func(Info)) (Info, error)
	// NewGame forgets what the player learned in an earlier game.
	NewGame()
}

// DefaultMoveTime is the thinking time of a player given no limits.
const DefaultMoveTime = time.Second

// ParseLevel reads "level:N" (or "N") and checks 1 <= N <= 8.
func ParseLevel(name string) (int, bool) {
	s, _ := strings.CutPrefix(name, "level:")
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 8 {
		return 0, false
	}
	return n, true
}

// unwrapGame returns g's current position as the concrete type and the
// hashes of the positions before it.
func unwrapGame[P game.Position[P, M], M comparable](g *game.Game) (P, []uint64, error) {
	var zero P
	if r, why := g.Result(); r.Over() {
		return zero, nil, fmt.Errorf("%w (%s, %s)", errNoMove, r, why)
	}
	p, ok := game.Unwrap[P, M](g.Position())
	if !ok {
		return zero, nil, fmt.Errorf("the player was made for another game than %s", g.Rules().Spec().Title)
	}
	states := g.States()
	hist := make([]uint64, len(states)-1)
	for i, s := range states[:len(states)-1] {
		hist[i] = s.Hash()
	}
	return p, hist, nil
}

// movePlayer is a player that chooses without searching.
type movePlayer[P game.Position[P, M], M comparable] struct {
	name   string
	choose func(p P, hist []uint64) M
}

func (mp *movePlayer[P, M]) Name() string { return mp.name }

func (mp *movePlayer[P, M]) Move(ctx context.Context, g *game.Game, _ Limits) (string, error) {
	p, hist, err := unwrapGame[P, M](g)
	if err != nil {
		return "", err
	}
	if len(p.AppendMoves(nil)) == 0 {
		return "", errNoMove
	}
	return p.FormatMove(mp.choose(p, hist)), nil
}

// winsAtOnce reports whether playing m in p wins for the mover.
func winsAtOnce[P game.Position[P, M], M comparable](kit *Kit[P, M], p P, m M) (P, bool) {
	c := p.Play(m)
	if r, ok := kit.Decided(c); ok {
		w, won := r.Winner()
		return c, won && w == p.Side()
	}
	return c, false
}

// safeMoves sorts p's moves into an immediate win (if any) and the moves
// that leave the opponent no win in one and do not lose at once.
func safeMoves[P game.Position[P, M], M comparable](kit *Kit[P, M], p P) (win M, hasWin bool, safe, all []M) {
	all = p.AppendMoves(nil)
	buf := make([]M, 0, 256)
	for _, m := range all {
		c, won := winsAtOnce(kit, p, m)
		if won {
			return m, true, nil, all
		}
		if _, over := kit.Decided(c); over {
			continue // a move that loses at once
		}
		ok := true
		buf = c.AppendMoves(buf[:0])
		if len(buf) == 0 {
			if r, _ := c.Outcome(); r == game.WinFor(c.Side()) {
				ok = false
			}
		}
		for _, r := range buf {
			if _, w := winsAtOnce(kit, c, r); w {
				ok = false
				break
			}
		}
		if ok {
			safe = append(safe, m)
		}
	}
	return win, false, safe, all
}

// greedyMove is the greedy baseline's choice.
func greedyMove[P game.Position[P, M], M comparable](kit *Kit[P, M], p P, rng *rand.Rand) M {
	win, ok, safe, all := safeMoves(kit, p)
	switch {
	case ok:
		return win
	case len(safe) > 0:
		return safe[rng.IntN(len(safe))]
	}
	return all[rng.IntN(len(all))]
}

// beginnerMove is level 1: it takes a win in one, never plays a move that
// gives the opponent a win in one when another move does not, and among
// the safe moves picks at random, preferring those its evaluation likes
// (a softmax with a high temperature), so it makes the mistakes of someone
// who sees only one move ahead.
func beginnerMove[P game.Position[P, M], M comparable](kit *Kit[P, M], p P, rng *rand.Rand, temp float64) M {
	win, ok, safe, all := safeMoves(kit, p)
	if ok {
		return win
	}
	if len(safe) == 0 {
		return all[rng.IntN(len(all))]
	}
	weights := make([]float64, len(safe))
	best := math.Inf(-1)
	for i, m := range safe {
		weights[i] = float64(-kit.Eval(p.Play(m))) / temp
		best = math.Max(best, weights[i])
	}
	total := 0.0
	for i := range weights {
		weights[i] = math.Exp(weights[i] - best)
		total += weights[i]
	}
	x := rng.Float64() * total
	for i, wt := range weights {
		x -= wt
		if x <= 0 {
			return safe[i]
		}
	}
	return safe[len(safe)-1]
}
