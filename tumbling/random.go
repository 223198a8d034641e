package tumbling

import (
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
// stays on the board) and finds the drawn one without a branch on the
// draw (randomMove). buf is not needed.
func (p Position) RandomMove(rng *rand.Rand, buf []Move) (Move, bool) {
	return p.randomMove(rng)
}

// randomMove is RandomMove without copying the position.
//
// The moves are counted in six groups: the stacks the mover owns on the
// corners, the edges and inside, each with 3, 5 or 8 moves (its steps, or
// its tumbles for a taller stack under tumble-only), then its stacks of
// two or more disks on the same three, each with as many tumbles more
// (unless tumble-only). The drawn rank picks the group by its prefix
// sums, the stack and its move by a division by the group's moves a
// stack (a multiply), and the stack among the group's by selectBit, all
// with masks: a loop over the stacks, as this once was, mispredicted its
// exit and its tests about three times a ply of random playouts.
func (p *Position) randomMove(rng *rand.Rand) (Move, bool) {
	if p.winner != 0 {
		return NoMove, false
	}
	own := p.tops[p.side&1]
	tall := p.tall()
	tumbleOnly := uint64(p.flags&flagTumbleOnly) / uint64(flagTumbleOnly)
	extra := own & tall & (tumbleOnly - 1)
	groups := [6]uint64{own & corners, own & edges, own & interior, extra & corners, extra & edges, extra & interior}
	var pre [6]uint64
	n := uint64(0)
	for g, set := range groups {
		pre[g] = n
		n += groupMoves[g] * uint64(bits.OnesCount64(set))
	}
	if n == 0 {
		return NoMove, false
	}
	r, lo := bits.Mul64(rng.Uint64(), n)
	if lo < n {
		r = game.Redraw(rng, n, r, lo)
	}
	g := above(r, pre[1]) + above(r, pre[2]) + above(r, pre[3]) + above(r, pre[4]) + above(r, pre[5])
	r -= pre[g]
	// r < 29*8, where r*inverse>>16 is r divided by the group's moves.
	i := r * groupInverse[g] >> 16
	j := r - i*groupMoves[g]
	s := selectBit(groups[g], i)
	tumble := above(g, 3) | tall>>s&tumbleOnly
	m, t := stepMoves[s][j&7], tumbleMoves[s][j&7]
	return m ^ (m^t)&-Move(tumble), true
}

// groupMoves are the moves a stack of each of randomMove's groups has, and
// groupInverse 2^16 over them, rounded up.
var (
	groupMoves   = [6]uint64{3, 5, 8, 3, 5, 8}
	groupInverse = [6]uint64{21846, 13108, 8192, 21846, 13108, 8192}
)

// above is 1 when r >= sum, else 0, without a branch.
func above(r, sum uint64) uint64 { return (sum - r - 1) >> 63 }

// selectBit returns the square of the i-th lowest set bit of b (i counts
// from 0, below the number of bits set), without a branch: the bytes'
// counts of set bits (SWAR) added up by a multiply say which byte holds
// it, and a table the bit within the byte.
func selectBit(b, i uint64) uint {
	x := b - b>>1&0x5555555555555555
	x = x&0x3333333333333333 + x>>2&0x3333333333333333
	x = (x + x>>4) & 0x0f0f0f0f0f0f0f0f
	cum := x * 0x0101010101010101 // byte k: the bits set in bytes 0 to k
	// The top bit of byte k is set when cum's byte k is above i (no byte
	// borrows: each is below 65).
	over := (cum | 0x8080808080808080 - (i+1)*0x0101010101010101) & 0x8080808080808080
	k := uint(bits.TrailingZeros64(over)) & 56
	before := cum << 8 >> k & 0xff
	return k + uint(selectInByte[b>>k&0xff][(i-before)&7])
}

// selectInByte[b][i] is the index of the i-th lowest set bit of b.
var selectInByte [256][8]uint8

func init() {
	for b := range 256 {
		i := 0
		for j := range 8 {
			if b>>j&1 != 0 {
				selectInByte[b][i] = uint8(j)
				i++
			}
		}
	}
}

// The squares by how many neighbours they have: a stack there has as many
// steps, and as many tumbles.
const (
	corners  uint64 = 0x8100000000000081
	edges    uint64 = 0xff818181818181ff &^ corners
	interior uint64 = ^(edges | corners)
)

// tall returns the squares holding two disks or more. Eight heights fit a
// word, and a height h <= 58 plus 126 sets its byte's top bit exactly when
// h >= 2, without carrying into the next byte; the top bits are then
// gathered a byte to a file, as rankBits gathers a rank.
func (p *Position) tall() uint64 {
	var t uint64
	for f := range 8 {
		w := p.heightWord(f)
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
