package tumbling

import (
	"math/rand/v2"

	"github.com/magneton-games/magneton/game"
)

// DefaultPlayoutPlies is the cap Playout uses when given no positive cap.
const DefaultPlayoutPlies = 400

// maxMoves bounds the legal moves of any position: 29 stacks topped by the
// mover with 8 steps and 8 tumbles each. Playout's move list lives on the
// stack with this room, so it never allocates.
const maxMoves = DisksPerSide * 16

// Playout plays uniformly random legal moves from p until the game ends or
// maxPlies moves have been played (DefaultPlayoutPlies when maxPlies <= 0),
// and returns the result (game.Ongoing when the cap was reached) and the
// number of plies played. Repetition is not judged: a playout keeps no
// history, and the cap ends endless games. It does not allocate.
func Playout(p Position, rng *rand.Rand, maxPlies int) (game.Result, int) {
	if maxPlies <= 0 {
		maxPlies = DefaultPlayoutPlies
	}
	var buf [maxMoves]Move
	for ply := 0; ply < maxPlies; ply++ {
		moves := p.AppendMoves(buf[:0])
		if len(moves) == 0 {
			r, _ := p.Outcome()
			return r, ply
		}
		p = p.Play(moves[rng.IntN(len(moves))])
	}
	r, _ := p.Outcome()
	return r, maxPlies
}

// RandomMove returns a legal move drawn uniformly at random, and false when
// there is none. It lists the moves into buf and picks one; pass a buffer
// with room for maxMoves so that it does not allocate.
func (p Position) RandomMove(rng *rand.Rand, buf []Move) (Move, bool) {
	moves := p.AppendMoves(buf[:0])
	if len(moves) == 0 {
		return NoMove, false
	}
	return moves[rng.IntN(len(moves))], true
}
