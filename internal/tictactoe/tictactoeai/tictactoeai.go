// Package tictactoeai is the computer players of the toy game of package
// tictactoe: its evaluation and search kit, its ai.Profile and its
// proof-number solver, which a registration of the game
// (games.Game{Spec: tictactoe.Spec, AI: Profile, Solver: Solver}) holds.
package tictactoeai

import (
	"math/bits"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/internal/tictactoe"
	"github.com/magneton-games/magneton/prove"
)

// features counts, side to move minus opponent, the lines holding two of
// one's stones and none of the other's, those holding one, and the centre.
func features(p tictactoe.Position) []int {
	us, them := p.Side(), p.Side().Other()
	count := func(own, other uint16) (two, one int) {
		for _, l := range tictactoe.Lines {
			if other&l == 0 {
				switch bits.OnesCount16(own & l) {
				case 2:
					two++
				case 1:
					one++
				}
			}
		}
		return two, one
	}
	u2, u1 := count(p.Stones(us), p.Stones(them))
	t2, t1 := count(p.Stones(them), p.Stones(us))
	centre := int(p.Stones(us)>>4&1) - int(p.Stones(them)>>4&1)
	return []int{u2 - t2, u1 - t1, centre}
}

var weights = []int{40, 5, 10}

// kit is the search kit with the weights w (nil for the default ones).
// Under misère rules a line of one's own is a danger, not a chance: the
// evaluation changes sign.
func kit(_ game.Rules, w []int) *ai.Kit[tictactoe.Position, tictactoe.Move] {
	if w == nil {
		w = weights
	}
	return &ai.Kit[tictactoe.Position, tictactoe.Move]{
		Game: tictactoe.Spec.Name,
		Eval: func(p tictactoe.Position) int {
			s := 0
			for i, f := range features(p) {
				s += w[i] * f
			}
			if p.Misere() {
				s = -s
			}
			return s
		},
		MoveKey:  func(m tictactoe.Move) uint16 { return uint16(m) },
		MoveKeys: 9,
		Decided: func(p tictactoe.Position) (game.Result, bool) {
			r, _ := p.Outcome()
			return r, r.Over()
		},
	}
}

// Profile is the game's computer players: levels 2 to 7 look 1 to 6 plies
// ahead, the lower ones with mistakes.
var Profile = ai.MustProfile(ai.GameProfile[tictactoe.Position, tictactoe.Move]{
	Spec:         tictactoe.Spec,
	Kit:          kit,
	FeatureNames: []string{"twos", "ones", "centre"},
	Weights:      weights,
	Features:     features,
	Levels: [6]ai.Level{
		{Depth: 1, Mistakes: 0.6}, {Depth: 1, Mistakes: 0.3}, {Depth: 2}, {Depth: 3}, {Depth: 4}, {Depth: 6},
	},
	LevelOneTemp: 40,
	Strongest:    ai.AlphaBeta,
	// Not measured: a toy's levels, evenly spaced.
	LevelRatings: [8]int{800, 900, 1000, 1100, 1200, 1300, 1400, 1500},
})

// Solver is the game's proof-number solver, on the kit of Profile.
var Solver = prove.For[tictactoe.Position, tictactoe.Move](Profile)
