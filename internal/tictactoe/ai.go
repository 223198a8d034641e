package tictactoe

import (
	"math/bits"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/prove"
)

// Game is the game's registration: register it with games.Register.
var Game = &games.Game{Spec: Spec, AI: Profile, Solver: prove.For[Position, Move](Profile)}

// features counts, side to move minus opponent, the lines holding two of
// one's stones and none of the other's, those holding one, and the centre.
func features(p Position) []int {
	us, them := p.side, p.side.Other()
	count := func(own, other uint16) (two, one int) {
		for _, l := range lines {
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
	u2, u1 := count(p.stones[us], p.stones[them])
	t2, t1 := count(p.stones[them], p.stones[us])
	centre := int(p.stones[us]>>4&1) - int(p.stones[them]>>4&1)
	return []int{u2 - t2, u1 - t1, centre}
}

var weights = []int{40, 5, 10}

// Profile is the game's computer players: levels 2 to 7 look 1 to 6 plies
// ahead, the lower ones with mistakes.
var Profile = ai.MustProfile(ai.GameProfile[Position, Move]{
	Spec: Spec,
	Kit: func(_ game.Rules, w []int) *ai.Kit[Position, Move] {
		if w == nil {
			w = weights
		}
		return &ai.Kit[Position, Move]{
			Game: Spec.Name,
			Eval: func(p Position) int {
				s := 0
				for i, f := range features(p) {
					s += w[i] * f
				}
				if p.misere {
					s = -s
				}
				return s
			},
			MoveKey:  func(m Move) uint16 { return uint16(m) },
			MoveKeys: 9,
			Decided: func(p Position) (game.Result, bool) {
				r, _ := p.Outcome()
				return r, r.Over()
			},
		}
	},
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
