package tumblingai

import (
	"math/bits"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/prove"
	"github.com/magneton-games/magneton/tumbling"
)

// Profile is Tumbling Down's computer players.
//
// Levels 3 to 7 search two and a half to five times as many nodes as the
// level below (the ratios that gave steps of about the same size: a
// budget counts in whole plies more or less), and level 2 searches one ply
// with 40% mistakes. docs/strength.md gives the measured differences.
var Profile = ai.MustProfile(ai.GameProfile[tumbling.Position, tumbling.Move]{
	Spec: tumbling.Spec,
	Kit: func(_ game.Rules, weights []int) *ai.Kit[tumbling.Position, tumbling.Move] {
		if weights == nil {
			return defaultKit
		}
		var w [NumFeatures]int
		copy(w[:], weights)
		return Kit(w)
	},
	FeatureNames: FeatureNames[:],
	Weights:      Weights[:],
	Features: func(p tumbling.Position) []int {
		f := Features(p)
		return f[:]
	},
	Levels: [6]ai.Level{
		{Nodes: 1, Mistakes: 0.4}, {Nodes: 500}, {Nodes: 2400}, {Nodes: 6000}, {Nodes: 18000}, {Nodes: 36000},
	},
	LevelOneTemp: ai.MistakeTemp,
	Strongest:    ai.AlphaBeta,
	// 800, then the steps of docs/strength.md's ladder on the current
	// evaluation (commit e511129): +200, +131, +177, +164, +153, +115,
	// +135.
	LevelRatings: [8]int{800, 1000, 1131, 1308, 1472, 1625, 1740, 1875},
	Baselines: []ai.Baseline{{
		Name:    "boardspace-d5",
		Summary: "Boardspace's best bot: a depth-5 alpha-beta on 2 x stacks controlled + 1 x pure stacks",
		New:     newBoardspaceD5,
	}},
})

// Solver is Tumbling Down's proof-number solver (magneton solve, and the
// endgame prover of the computer players), on the kit of Profile.
var Solver = prove.For[tumbling.Position, tumbling.Move](Profile)

// boardspaceKit is the evaluation of Boardspace's best Tumbling Down bot:
// 2 x stacks controlled + 1 x single-colour stacks, side to move minus
// opponent.
var boardspaceKit = &ai.Kit[tumbling.Position, tumbling.Move]{
	Game: tumbling.Spec.Name,
	Eval: func(p tumbling.Position) int {
		us, them := p.Side(), p.Side().Other()
		tops := bits.OnesCount64(p.Tops(us)) - bits.OnesCount64(p.Tops(them))
		return 100 * (2*tops + bits.OnesCount64(p.Pure(us)) - bits.OnesCount64(p.Pure(them)))
	},
	MoveKey:  func(m tumbling.Move) uint16 { return uint16(m) & 0x3ff },
	MoveKeys: 1 << 10,
	Decided:  decided,
}

// newBoardspaceD5 makes the baseline boardspace-d5: a plain alpha-beta to
// depth 5 whatever the time (boardspaceEngine), on Boardspace's
// evaluation.
func newBoardspaceD5(_ game.Rules, cfg ai.Config) (ai.Player, error) {
	return ai.FixedDepth("boardspace-d5", boardspaceEngine(cfg.HashMB, cfg.Threads), 5), nil
}

// boardspaceEngine is the search of boardspace-d5: alpha-beta on
// Boardspace's evaluation with no quiescence, reductions or contempt, as
// Boardspace's bot searches.
func boardspaceEngine(hashMB, threads int) *ai.Engine[tumbling.Position, tumbling.Move] {
	eng := ai.NewEngine(boardspaceKit, hashMB, threads)
	eng.NoQuiescence = true
	eng.NoReductions = true
	eng.Contempt = 0
	return eng
}
