package tumbling

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"

	"github.com/magneton-games/magneton/game"
)

// maxMoves bounds the legal moves of any position: 29 stacks topped by the
// mover with 8 steps and 8 tumbles each. A move list with this room never
// grows.
const maxMoves = DisksPerSide * 16

// RandomMove returns a legal move drawn uniformly at random, and false when
// there is none. It does not list the moves: it counts them (each stack
// the mover owns has its steps, its tumbles or both, one a direction that
// stays on the board), draws a number below the count and finds the move
// of that rank in AppendMoves' order, so it draws what picking from the
// list would. buf is not needed.
func (p Position) RandomMove(rng *rand.Rand, buf []Move) (Move, bool) {
	return p.randomMove(rng)
}

// randomMove is RandomMove without copying the position.
func (p *Position) randomMove(rng *rand.Rand) (Move, bool) {
	if p.winner != 0 {
		return NoMove, false
	}
	own := p.tops[p.side&1]
	// steps is 1 when a stack of two or more may step as well as tumble:
	// such a stack then has twice as many moves as directions.
	steps := 1
	if p.flags&flagTumbleOnly != 0 {
		steps = 0
	}
	tall := p.tall()
	n := movesFrom(own) + movesFrom(own&tall&-uint64(steps))
	if n == 0 {
		return NoMove, false
	}
	r := rng.IntN(n)
	for b := own; ; b &= b - 1 {
		s := bits.TrailingZeros64(b) & 63
		c := int(moveCount[s])
		tall := p.height[s] > 1
		k := c << (steps & int(b2u(tall)))
		if r >= k {
			r -= k
			continue
		}
		// A stack's steps come before its tumbles; a lone disk only steps,
		// and under tumble-only a taller stack only tumbles.
		if r < c && (!tall || steps == 1) {
			return stepMoves[s][r&7], true
		}
		return tumbleMoves[s][r%c&7], true
	}
}

// The squares by how many neighbours they have: a stack there has as many
// steps, and as many tumbles.
const (
	corners  uint64 = 0x8100000000000081
	edges    uint64 = 0xff818181818181ff &^ corners
	interior uint64 = ^(edges | corners)
)

// movesFrom returns the number of directions that stay on the board from
// the squares of b, added up: moveCount of each, by three popcounts.
func movesFrom(b uint64) int {
	return 8*bits.OnesCount64(b&interior) + 5*bits.OnesCount64(b&edges) + 3*bits.OnesCount64(b&corners)
}

// tall returns the squares holding two disks or more. Eight heights fit a
// word, and a height h <= 58 plus 126 sets its byte's top bit exactly when
// h >= 2, without carrying into the next byte; the top bits are then
// gathered a byte to a file, as rankBits gathers a rank.
func (p *Position) tall() uint64 {
	var t uint64
	for f := range 8 {
		w := binary.LittleEndian.Uint64(p.height[8*f:])
		top := (w + 0x7e7e7e7e7e7e7e7e) & 0x8080808080808080
		t |= (top >> 7 * 0x0102040810204080 >> 56) << (8 * f)
	}
	return t
}

// playout is game.PlayoutRepeating on p in place. Each ply judges the
// position in the same order: a win or loss made by the last move, no
// legal move, the repetition (compared by hash, as Game compares them),
// the cap; then it draws the move.
func (p *Position) playout(rng *rand.Rand, maxPlies int, h *game.Repetitions) (game.Result, int) {
	ply := 0
	for ; ; ply++ {
		if p.winner != 0 || p.tops[p.side&1] == 0 {
			break
		}
		if h != nil && h.Add(p.hash, 0) && h.Repeated() {
			return game.Draw, ply
		}
		if ply == maxPlies {
			break
		}
		m, _ := p.randomMove(rng) // there is one: the game goes on
		p.play(m)
	}
	r, _ := p.Outcome()
	return r, ply
}

// FastPlayout plays a random game as game.PlayoutRepeating does, with the
// same draws from rng and so the same game, but on one position changed
// in place (Play copies over 400 bytes a move), under the repetition rule
// of h (nil for none). It handles every rule option.
func (p Position) FastPlayout(rng *rand.Rand, maxPlies int, h *game.Repetitions) (game.Result, int, bool) {
	if h != nil {
		h.Start(maxPlies)
	}
	r, plies := p.playout(rng, maxPlies, h)
	return r, plies, true
}
