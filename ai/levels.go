package ai

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/magneton-games/magneton/game"
)

// abLevel caps an alpha-beta player below full strength.
type abLevel struct {
	nodes int64
	depth int
	// mistakes is the chance, each move, that the player does not search
	// but picks as the beginner does (level 1): never missing a win in one
	// nor allowing one, otherwise a plausible move by a one-ply look.
	mistakes float64
}

// mctsLevel caps an MCTS player below full strength.
type mctsLevel struct {
	iterations int64
}

// abPlayer plays with the alpha-beta Engine.
type abPlayer[P game.Position[P, M], M comparable] struct {
	name string
	eng  *Engine[P, M]
	lv   abLevel
	kit  *Kit[P, M]
	rng  *rand.Rand // draws the mistakes
	// fixed: the player searches to its depth whatever the time (the
	// fixed-depth baseline); only a cancelled context stops it.
	fixed bool
}

func newABPlayer[P game.Position[P, M], M comparable](name string, kit *Kit[P, M], cfg Config, lv abLevel) *abPlayer[P, M] {
	return &abPlayer[P, M]{name: name, eng: NewEngine(kit, cfg.HashMB, cfg.Threads), lv: lv, kit: kit,
		rng: rand.New(rand.NewPCG(uint64(cfg.Seed), 0xab1e))}
}

func (a *abPlayer[P, M]) Name() string { return a.name }

func (a *abPlayer[P, M]) NewGame() { a.eng.Clear() }

func (a *abPlayer[P, M]) Think(ctx context.Context, g *game.Game, lim Limits, info func(Info)) (Info, error) {
	p, hist, err := unwrapGame[P, M](g)
	if err != nil {
		return Info{}, err
	}
	if a.lv.mistakes > 0 && a.rng.Float64() < a.lv.mistakes {
		mv := p.FormatMove(beginnerMove(a.kit, p, a.rng, beginnerTemp))
		return Info{BestMove: mv, PV: []string{mv}}, nil
	}
	b := lim.Budget(p.Side(), DefaultMoveTime)
	if a.fixed {
		b = Budget{}
	}
	if a.lv.nodes > 0 && (b.Nodes == 0 || b.Nodes > a.lv.nodes) {
		b.Nodes = a.lv.nodes
	}
	if a.lv.depth > 0 && (b.Depth == 0 || b.Depth > a.lv.depth) {
		b.Depth = a.lv.depth
	}
	res, err := a.eng.Search(ctx, p, hist, b, info)
	if err != nil {
		return Info{}, err
	}
	return res.Info, nil
}

func (a *abPlayer[P, M]) Move(ctx context.Context, g *game.Game, lim Limits) (string, error) {
	in, err := a.Think(ctx, g, lim, nil)
	return in.BestMove, err
}

// mctsPlayer plays with MCTS.
type mctsPlayer[P game.Position[P, M], M comparable] struct {
	name string
	s    *MCTS[P, M]
	lv   mctsLevel
}

func newMCTSPlayer[P game.Position[P, M], M comparable](name string, kit *Kit[P, M], cfg Config, lv mctsLevel) *mctsPlayer[P, M] {
	return &mctsPlayer[P, M]{name: name, s: NewMCTS(kit, cfg.Threads, uint64(cfg.Seed)), lv: lv}
}

func (m *mctsPlayer[P, M]) Name() string { return m.name }

func (m *mctsPlayer[P, M]) NewGame() { m.s.NewGame() }

func (m *mctsPlayer[P, M]) Think(ctx context.Context, g *game.Game, lim Limits, info func(Info)) (Info, error) {
	p, _, err := unwrapGame[P, M](g)
	if err != nil {
		return Info{}, err
	}
	b := lim.Budget(p.Side(), DefaultMoveTime)
	if m.lv.iterations > 0 && (b.Nodes == 0 || b.Nodes > m.lv.iterations) {
		b.Nodes = m.lv.iterations
	}
	res, err := m.s.Search(ctx, p, b, info)
	if err != nil {
		return Info{}, err
	}
	return res.Info, nil
}

func (m *mctsPlayer[P, M]) Move(ctx context.Context, g *game.Game, lim Limits) (string, error) {
	in, err := m.Think(ctx, g, lim, nil)
	return in.BestMove, err
}

// Algorithm names the search of a game's strongest player.
type Algorithm string

// The searches.
const (
	AlphaBeta Algorithm = "alphabeta"
	MCTSAlgo  Algorithm = "mcts"
)

// defaultAlgorithm is the search of level 8 per game, chosen by the
// head-to-head matches in docs/strength.md.
var defaultAlgorithm = map[string]Algorithm{
	"magneton":      AlphaBeta,
	"tumbling-down": AlphaBeta,
}

// levels holds, per game, the alpha-beta levels 2 to 7 (index 0 is level
// 2): a node budget (1: depth 1 only, as a budget never cuts depth 1; 0: no
// cap but the move time) and the chance, each move, of a beginner's move
// instead of a search. docs/strength.md gives the measured differences.
//
// Tumbling Down's levels 3 to 7 search two and a half to five times as
// many nodes as the level below (the ratios that gave steps of about the
// same size: a budget counts in whole plies more or less), and level 2
// searches one ply with 40% mistakes. Between players who both search,
// Magneton is so drawish that such budgets hardly separate them; its
// levels differ instead by how often they make a mistake, of the kind a
// person makes: a plausible move that does not throw the game in one. The
// chances were set by matches between neighbouring levels.
var levels = map[string][6]abLevel{
	"magneton": {
		{nodes: 1, mistakes: 0.8},
		{nodes: 1, mistakes: 0.4},
		{nodes: 1},
		{mistakes: 0.5},
		{mistakes: 0.33},
		{mistakes: 0.2},
	},
	"tumbling-down": {
		{nodes: 1, mistakes: 0.4}, {nodes: 500}, {nodes: 2400}, {nodes: 6000}, {nodes: 18000}, {nodes: 36000},
	},
}

// beginnerTemp is the softmax temperature, in evaluation units, of the
// beginner's moves that levels 2 to 7 play as mistakes.
const beginnerTemp = 60

// levelOneTemp is level 1's own temperature per game. Magneton's is
// higher: at 60, levels 1 to 4 spanned too little strength for three
// steps of 100 Elo (docs/strength.md).
var levelOneTemp = map[string]float64{"magneton": 150, "tumbling-down": beginnerTemp}

// LevelNames names the levels 1 to 8 (index 0 is level 1), for menus.
var LevelNames = [8]string{"beginner", "novice", "casual", "intermediate", "club", "advanced", "expert", "max"}

// newLevelPlayer makes the player of a level.
func newLevelPlayer[P game.Position[P, M], M comparable](lv int, rules game.Rules, kit *Kit[P, M], cfg Config, rng *rand.Rand) Player {
	name := fmt.Sprintf("level %d", lv)
	switch {
	case lv <= 1:
		temp := levelOneTemp[rules.Spec().Name]
		return &movePlayer[P, M]{name: name, choose: func(p P, _ []uint64) M {
			return beginnerMove(kit, p, rng, temp)
		}}
	case lv < 8:
		return newABPlayer(name, kit, cfg, levels[rules.Spec().Name][lv-2])
	}
	if defaultAlgorithm[rules.Spec().Name] == MCTSAlgo {
		return newMCTSPlayer(name, kit, cfg, mctsLevel{})
	}
	return newABPlayer(name, kit, cfg, abLevel{})
}
