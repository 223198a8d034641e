package tumbling

import (
	"math/bits"

	"github.com/magneton-games/magneton/game"
)

// Move is a step or a tumble. It packs the origin square in bits 0-5, the
// direction in bits 6-8 and, for a tumble, bit 9. A move of a one-disk
// stack is always stored as a step, since toppling one disk and stepping it
// are the same move. The zero value (a step from a1 off the board) is no
// move.
type Move uint16

const tumbleBit Move = 1 << 9

// NoMove is the zero Move, which no position has among its legal moves.
const NoMove Move = 0

func newMove(from Square, d Direction, tumble bool) Move {
	m := Move(from) | Move(d)<<6
	if tumble {
		m |= tumbleBit
	}
	return m
}

// Step returns the move of the top disk of the stack on from one square in
// direction d.
func Step(from Square, d Direction) Move { return newMove(from, d, false) }

// Tumble returns the move that topples the stack on from in direction d.
func Tumble(from Square, d Direction) Move { return newMove(from, d, true) }

// From returns the square of the stack that moves.
func (m Move) From() Square { return Square(m & 63) }

// Direction returns the direction of the step or tumble.
func (m Move) Direction() Direction { return Direction(m >> 6 & 7) }

// IsTumble reports whether the move topples a whole stack.
func (m Move) IsTumble() bool { return m&tumbleBit != 0 }

// To returns the square next to the origin in the move's direction: where a
// step puts its disk and where a tumble drops its bottom disk.
func (m Move) To() Square { return m.From() + offset[m.Direction()] }

// String writes the move in the project's notation: "e5-f6" for a step,
// "e5>f6" for a tumble toward f6.
func (m Move) String() string {
	if m == NoMove {
		return "(none)"
	}
	sep := byte('-')
	if m.IsTumble() {
		sep = '>'
	}
	from, to := m.From(), m.To()
	return string([]byte{'a' + byte(from.File()), '1' + byte(from.Rank()), sep, 'a' + byte(to.File()), '1' + byte(to.Rank())})
}

// AppendMoves appends the legal moves to buf: for each stack the side to
// move owns, in square order, its steps and then its tumbles, each in
// direction order. That is the sorted order of the moves as text. A
// one-disk stack only steps (its tumble is the same move); under
// moves=tumble-only a taller stack only tumbles. A finished game has no
// moves.
func (p Position) AppendMoves(buf []Move) []Move {
	if p.winner != 0 {
		return buf
	}
	steps := p.flags&flagTumbleOnly == 0
	for own := p.tops[p.side]; own != 0; own &= own - 1 {
		s := bits.TrailingZeros64(own)
		n := moveCount[s]
		if p.height[s] == 1 {
			buf = append(buf, stepMoves[s][:n]...)
			continue
		}
		if steps {
			buf = append(buf, stepMoves[s][:n]...)
		}
		buf = append(buf, tumbleMoves[s][:n]...)
	}
	return buf
}

// Play returns the position after move m, which must be legal. The mover
// wins when one of their disks lands on an enemy King (as the Kings stood
// before the move); otherwise they lose when an enemy disk lands on one of
// their own Kings (own-king=loses); otherwise a side left with no
// single-colour stack loses (no-king=loses). Under capture=pbem a landing
// captures only when the King's square ends as one run of the victim's
// colour under one run of the capturer's.
func (p Position) Play(m Move) Position {
	us := p.side
	them := us ^ 1
	from := m.From()
	d := m.Direction()
	h := p.height[from]
	mk := p.mask[from]
	changed := uint64(1) << from
	captured, lost := false, false

	if !m.IsTumble() {
		// The top disk (ours) leaves from and lands on to.
		to := from + offset[d]
		h--
		p.height[from] = h
		p.mask[from] = mk &^ (1 << h)
		th := p.height[to]
		p.mask[to] |= uint64(us) << th
		p.height[to] = th + 1
		p.hash ^= zobristDisk[from][h][us] ^ zobristDisk[to][th][us]
		changed |= 1 << to
		// One disk of ours on a pure enemy stack is always one run under
		// one run, so capture=pbem needs no test here.
		captured = p.kings[them]>>to&1 != 0
	} else {
		p.hash ^= diskKeys(from, 0, h, mk)
		p.height[from] = 0
		p.mask[from] = 0
		k := reach[from][d]
		if h < k {
			k = h
		}
		// oursFlip turns colour bits into "is ours" bits.
		oursFlip := uint64(us) - 1 // all ones for Black, zero for Red
		pbem := p.flags&flagPBEM != 0
		ownKing := p.flags&flagOwnKingIgnored == 0
		to := from
		for i := uint8(0); i < k; i++ {
			to += offset[d]
			n := uint8(1)
			if i == k-1 {
				n = h - i // the rest of the stack piles on the last square
			}
			low := lowBits(n)
			colours := mk >> i & low
			th := p.height[to]
			p.mask[to] |= colours << th
			p.height[to] = th + n
			p.hash ^= diskKeys(to, th, n, colours)
			changed |= 1 << to
			if p.kings[them]>>to&1 != 0 {
				if ours := (colours ^ oursFlip) & low; ours != 0 && (!pbem || topRun(ours, n)) {
					captured = true
				}
			}
			if ownKing && p.kings[us]>>to&1 != 0 {
				if theirs := (colours ^ ^oursFlip) & low; theirs != 0 && (!pbem || topRun(theirs, n)) {
					lost = true
				}
			}
		}
	}

	p.refresh(changed)
	p.updateKings(changed)
	p.side = them
	p.hash ^= zobristRed
	switch {
	case captured:
		p.winner, p.reason = 1+uint8(us), game.KingCaptured
	case lost:
		p.winner, p.reason = 1+uint8(them), game.OwnKing
	default:
		p.judgeKings()
	}
	return p
}

// topRun reports whether the n disks marked in x (those of the capturer)
// are exactly the top ones of n disks dropped on a King: then the King's
// square holds one run of the victim's colour under one run of the
// capturer's.
func topRun(x uint64, n uint8) bool {
	return x+(x&-x) == 1<<n
}

// Compile-time check that Position fits the game-neutral interface.
var _ game.Position[Position, Move] = Position{}
