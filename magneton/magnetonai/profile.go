package magnetonai

import (
	"context"
	"fmt"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
	"github.com/magneton-games/magneton/magneton/simpleab"
	"github.com/magneton-games/magneton/prove"
)

// Profile is Magneton's computer players.
//
// Between players who both search, Magneton is so drawish that node
// budgets hardly separate them; its levels 2 to 7 differ instead by how
// often they make a mistake, of the kind a person makes: a plausible move
// that does not throw the game in one. The chances were set by matches
// between neighbouring levels, and level 1's temperature is higher than
// the mistakes' (ai.MistakeTemp): at that, levels 1 to 4 spanned too
// little strength for three steps of 100 Elo. docs/strength.md gives the
// measured differences.
var Profile = ai.MustProfile(ai.GameProfile[magneton.Position, magneton.Move]{
	Spec: magneton.Spec,
	Kit: func(rules game.Rules, weights []int) *ai.Kit[magneton.Position, magneton.Move] {
		w := Weights
		copy(w[:], weights)
		mr, _ := rules.(magneton.Rules)
		return Kit(w, mr)
	},
	FeatureNames: FeatureNames[:],
	Weights:      Weights[:],
	Features: func(p magneton.Position) []int {
		f := Features(p)
		return f[:]
	},
	Levels: [6]ai.Level{
		{Nodes: 1, Mistakes: 0.8},
		{Nodes: 1, Mistakes: 0.4},
		{Nodes: 1},
		{Mistakes: 0.5},
		{Mistakes: 0.33},
		{Mistakes: 0.2},
	},
	LevelOneTemp:     150,
	Strongest:        ai.AlphaBeta,
	StrongestWeights: Level8Weights[:],
	// Wins by threats of up to nine plies, 10,000 nodes a search: a few
	// milliseconds a move (docs/strength.md).
	Threats: ai.ThreatSearch{Plies: 9, Nodes: 10000},
	// 800, then the steps of docs/strength.md's ladder (the two 200-game
	// runs of a step averaged; level 8 over 7 the 100-game run): +200,
	// +155, +152, +173, +151, +115, +246.
	LevelRatings: [8]int{800, 1000, 1155, 1307, 1480, 1631, 1746, 1992},
	Baselines: []ai.Baseline{{
		Name:    "simple-ab",
		Summary: "an independent plain engine: iterative-deepening PVS with a table, killers and history, on open windows of four, mobility and wins in one",
		New:     newSimpleAB,
	}},
})

// Solver is Magneton's proof-number solver (magneton solve, and the
// endgame prover of the computer players), on the kit of Profile.
var Solver = prove.For[magneton.Position, magneton.Move](Profile)

// newSimpleAB makes the baseline simple-ab (package simpleab): an engine
// written apart from package ai's searches, so that level 8 is measured
// against play that does not share its blind spots. Its mobility count
// knows only the default movement rules, so it refuses the others.
func newSimpleAB(rules game.Rules, cfg ai.Config) (ai.Player, error) {
	if mr, _ := rules.(magneton.Rules); mr.Weak || mr.OneSided {
		return nil, fmt.Errorf("player simple-ab: only for the default movement rules (force=strong, movement=any-magnet)")
	}
	eng := simpleab.New(cfg.HashMB)
	search := func(ctx context.Context, p magneton.Position, hist []uint64, b ai.Budget) (magneton.Move, ai.Info) {
		r := eng.Search(ctx, p, hist, b.Hard, b.Depth)
		return r.Move, ai.Info{Depth: r.Depth, Score: r.Score, Nodes: r.Nodes}
	}
	return ai.NewSearchPlayer("simple-ab", search, eng.Clear), nil
}
