package tumbling

import "math/rand/v2"

// maxMoves bounds the legal moves of any position: 29 stacks topped by the
// mover with 8 steps and 8 tumbles each. A move list with this room never
// grows.
const maxMoves = DisksPerSide * 16

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
