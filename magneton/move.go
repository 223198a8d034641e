package magneton

import (
	"math/bits"

	"github.com/magneton-games/magneton/game"
)

// Move is a drop or a move of a stone on the board. It packs the
// destination in bits 0-5, the origin in bits 6-11 and, for a drop, bit 12.
// The zero value is no move.
type Move uint16

const dropBit Move = 1 << 12

// NoMove is the zero Move, which no position has among its legal moves.
const NoMove Move = 0

// Drop returns the move that drops a stone on sq.
func Drop(sq Square) Move { return dropBit | Move(sq) }

// Slide returns the move of the stone on from to to.
func Slide(from, to Square) Move { return Move(from)<<6 | Move(to) }

// IsDrop reports whether m drops a stone from the hand.
func (m Move) IsDrop() bool { return m&dropBit != 0 }

// To returns the square the stone is dropped on or moves to.
func (m Move) To() Square { return Square(m & 63) }

// From returns the square a moving stone leaves; for a drop it is
// meaningless.
func (m Move) From() Square { return Square(m >> 6 & 63) }

// String writes the move in the project's notation: "d4" or "d4-a1".
func (m Move) String() string {
	if m.IsDrop() {
		return m.To().String()
	}
	if m == NoMove {
		return "(none)"
	}
	return m.From().String() + "-" + m.To().String()
}

// AppendMoves appends the legal moves to buf: drops on every empty square
// while the side to move has stones in hand, otherwise every move of one of
// its stones along a magnetic line. They come sorted as text. A finished
// game has no moves.
func (p Position) AppendMoves(buf []Move) []Move {
	if p.winner != 0 {
		return buf
	}
	us := p.side
	occ := p.stones[0] | p.stones[1]
	if p.hand[us] > 0 {
		for b := ^occ; b != 0; b &= b - 1 {
			buf = append(buf, dropBit|Move(bits.TrailingZeros64(b)))
		}
		return buf
	}
	for own := p.stones[us]; own != 0; own &= own - 1 {
		from := Square(bits.TrailingZeros64(own))
		for dests := p.destinations(from, occ); dests != 0; dests &= dests - 1 {
			buf = append(buf, Move(from)<<6|Move(bits.TrailingZeros64(dests)))
		}
	}
	return buf
}

// hasMove reports whether the side to move has a legal move, without
// listing them.
func (p Position) hasMove() bool {
	if p.winner != 0 {
		return false
	}
	occ := p.stones[0] | p.stones[1]
	if p.hand[p.side] > 0 {
		return occ != ^uint64(0)
	}
	for own := p.stones[p.side]; own != 0; own &= own - 1 {
		if p.destinations(Square(bits.TrailingZeros64(own)), occ) != 0 {
			return true
		}
	}
	return false
}

// destinations returns the squares the stone on from can move to: for each
// direction, the nearest stone there either attracts it (other colour: it
// slides toward that stone until adjacent) or repels it (same colour: it
// slides the other way as far as it can). A set of squares merges the same
// destination reached two ways.
func (p Position) destinations(from Square, occ uint64) uint64 {
	mine := p.stones[p.side]
	var dests uint64
	for d := range 8 {
		q := nearest(d, from, occ)
		if q == NoSquare {
			continue
		}
		back := d ^ 4
		if p.flags&flagOneSided != 0 && rays[back][from]&occ != 0 {
			// The designer's reading: a line moves the stone only when its
			// other side is empty to the edge.
			continue
		}
		var to Square
		if mine>>q&1 == 0 { // attracted toward q
			if p.flags&flagWeak != 0 {
				to = from + step[d]
			} else {
				to = q - step[d]
			}
			if to == q {
				continue // already adjacent
			}
		} else { // repelled away from q
			if p.flags&flagWeak != 0 {
				if rays[back][from] == 0 || occ>>(from+step[back])&1 != 0 {
					continue
				}
				to = from + step[back]
			} else {
				to = slideEnd(back, from, occ)
			}
		}
		if to != from {
			dests |= 1 << to
		}
	}
	return dests
}

// Play returns the position after move m, which must be legal: the stone is
// dropped or moved, its magnetic effect attracts the nearest stone of the
// other colour and repels the nearest of its own along each of the eight
// lines, and a line of four that includes a stone moved by the effect wins.
func (p Position) Play(m Move) Position {
	us, them := p.side, p.side^1
	to := m.To()
	if m.IsDrop() {
		p.stones[us] |= 1 << to
		p.hash ^= zobristStone[us][to] ^ zobristHand[us][p.hand[us]] ^ zobristHand[us][p.hand[us]-1]
		p.hand[us]--
	} else {
		from := m.From()
		p.stones[us] ^= 1<<from | 1<<to
		p.hash ^= zobristStone[us][from] ^ zobristStone[us][to]
	}

	// The magnetic effect. Rays from one square share no square, so the
	// eight effects are independent and the board before them serves all.
	occ := p.stones[0] | p.stones[1]
	weak := p.flags&flagWeak != 0
	var movedOurs, movedTheirs uint64
	for d := range 8 {
		q := nearest(d, to, occ)
		if q == NoSquare {
			continue
		}
		if p.stones[us]>>q&1 != 0 {
			var dest Square
			if weak {
				if rays[d][q] == 0 || occ>>(q+step[d])&1 != 0 {
					continue
				}
				dest = q + step[d]
			} else {
				dest = slideEnd(d, q, occ)
				if dest == q {
					continue
				}
			}
			p.stones[us] ^= 1<<q | 1<<dest
			p.hash ^= zobristStone[us][q] ^ zobristStone[us][dest]
			movedOurs |= 1 << dest
		} else {
			dest := to + step[d]
			if dest == q {
				continue
			}
			if weak {
				dest = q - step[d]
			}
			p.stones[them] ^= 1<<q | 1<<dest
			p.hash ^= zobristStone[them][q] ^ zobristStone[them][dest]
			movedTheirs |= 1 << dest
		}
	}

	if movedOurs != 0 && lines(p.stones[us])&movedOurs != 0 {
		p.winner = 1 + uint8(us)
	} else if movedTheirs != 0 && p.flags&flagOwnerWins != 0 && lines(p.stones[them])&movedTheirs != 0 {
		p.winner = 1 + uint8(them)
	}
	p.side = them
	p.hash ^= zobristBlack
	return p
}

// Compile-time check that Position fits the game-neutral interface.
var _ game.Position[Position, Move] = Position{}
