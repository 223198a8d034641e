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
// moves. It allocates only when buf is too small for the moves.
func (p Position) AppendMoves(buf []Move) []Move {
	if p.winner != 0 {
		return buf
	}
	steps := p.flags&flagTumbleOnly == 0
	n := len(buf)
	buf = buf[:cap(buf)]
	// Each square's moves are copied as a whole array of eight, which is
	// one wide store, and the length then advances by the real count; so
	// a square needs room for 16 moves, whatever it has.
	for own := p.tops[p.side]; own != 0; own &= own - 1 {
		if len(buf)-n < 16 {
			return p.appendMovesSlow(buf[:n], own)
		}
		s := bits.TrailingZeros64(own)
		c := int(moveCount[s])
		if p.height[s] == 1 {
			*(*[8]Move)(buf[n:]) = stepMoves[s]
			n += c
			continue
		}
		if steps {
			*(*[8]Move)(buf[n:]) = stepMoves[s]
			n += c
		}
		*(*[8]Move)(buf[n:]) = tumbleMoves[s]
		n += c
	}
	return buf[:n]
}

// appendMovesSlow is AppendMoves for the stacks in own, once the buffer
// may need to grow.
func (p Position) appendMovesSlow(buf []Move, own uint64) []Move {
	steps := p.flags&flagTumbleOnly == 0
	for ; own != 0; own &= own - 1 {
		s := bits.TrailingZeros64(own)
		c := moveCount[s]
		if steps || p.height[s] == 1 {
			buf = append(buf, stepMoves[s][:c]...)
		}
		if p.height[s] > 1 {
			buf = append(buf, tumbleMoves[s][:c]...)
		}
	}
	return buf
}

// Play returns the position after move m, which must be legal. The mover
// wins when one of their disks lands on an enemy King (as the Kings stood
// before the move); otherwise they lose when an enemy disk lands on one of
// their own Kings (own-king=loses); otherwise a side left with no
// single-colour stack loses (no-king=loses). Under capture=pbem a landing
// captures only when the King's square ends as one run of the victim's
// colour under one run of the capturer's; under capture=boardspace only
// when the King is mixed now and its owner's tallest single-colour stack
// did not grow in the move.
func (p Position) Play(m Move) (next Position) {
	// The new position is built in the result itself: a named result
	// assigned whole first is neither zeroed on entry nor copied on
	// return.
	next = p
	next.play(m)
	return next
}

// play is Play in place: p becomes the position after m. Random
// playouts play this way, without copying the position on every move.
func (p *Position) play(m Move) {
	us, them := p.side, p.side^1
	var captured, lost bool
	if !m.IsTumble() {
		captured = p.step(m)
	} else {
		captured, lost = p.tumble(m)
	}
	p.side = them
	p.hash ^= zobristRed
	switch {
	case captured:
		p.winner, p.ending = 1+uint8(us), endKingCaptured
	case lost:
		p.winner, p.ending = 1+uint8(them), endOwnKing
	default:
		p.judgeKings()
	}
}

// step plays the step m for Play: the mover's top disk leaves its stack
// for the next square. Steps are half of all moves, so it updates the
// bitboards from what it knows about the two squares rather than by put.
// It brings the Kings up to date and returns whether the disk landed on an
// enemy King (as the Kings stood before the move); the turn and the result
// are left to Play. One disk of the mover's captures under every capture
// rule.
func (p *Position) step(m Move) (captured bool) {
	us, them := p.side, p.side^1
	from, to := m.From(), m.To()
	fb, tb := uint64(1)<<from, uint64(1)<<to
	h := p.height[from] - 1
	mk := p.stack(from) &^ (1 << h)
	if h >= lowDisks {
		p.putTall(from, h, mk)
	}
	p.height[from] = h
	p.low[from] = uint16(mk)
	p.tops[us] &^= fb
	if h == 0 {
		p.pure[us] &^= fb
	} else {
		p.tops[mk>>(h-1)&1] |= fb
		// Uncovering a disk can make a mixed stack single-coloured; a
		// stack that was ours alone stays so.
		if p.pure[us]&fb == 0 {
			switch mk {
			case 0:
				p.pure[Black] |= fb
			case lowBits(h):
				p.pure[Red] |= fb
			}
		}
	}
	th := p.height[to]
	if th >= lowDisks {
		p.putTall(to, th+1, p.stack(to)|uint64(us)<<th)
	} else {
		p.low[to] |= uint16(us) << th
	}
	p.dropDisk(to, tb, th, us)
	p.hash ^= zobristDisk[from][h][us] ^ zobristDisk[to][th][us]
	// One disk of ours on a pure enemy stack is always one run under one
	// run, so capture=pbem needs no test here; nor does capture=boardspace,
	// as a step cannot make the victim taller.
	captured = p.kings[them]&tb != 0
	p.updateKings(fb | tb)
	return captured
}

// tumble plays the tumble m for Play: the stack leaves its square and its
// disks, bottom first, land one a square in m's direction, the last square
// (at the stack's height or the board's edge) taking the rest. It returns
// whether a disk of the mover landed on an enemy King (captured) and
// whether an enemy disk landed on one of the mover's own (lost), judged by
// the Kings as they stood before the move, and brings the Kings up to
// date; the turn and the result are left to Play.
func (p *Position) tumble(m Move) (captured, lost bool) {
	us, them := p.side, p.side^1
	from, d := m.From(), m.Direction()
	h := p.height[from]
	mk := p.stack(from)
	p.hash ^= diskKeys(from, 0, h, mk)
	p.put(from, 0, 0)
	changed := uint64(1) << from
	k := min(h, reach[from][d])
	ownKing := p.flags&flagOwnKingIgnored == 0
	step := offset[d]
	to := from
	// Every square but the last gets one disk: its colour decides the new
	// top, and a single disk on a King is always one run on one run, which
	// capture=pbem accepts.
	for i := uint8(0); i+1 < k; i++ {
		to += step
		tb := uint64(1) << to
		c := game.Side(mk >> i & 1)
		th := p.height[to]
		if th >= lowDisks {
			p.putTall(to, th+1, p.stack(to)|uint64(c)<<th)
		} else {
			p.low[to] |= uint16(c) << th
		}
		p.dropDisk(to, tb, th, c)
		p.hash ^= zobristDisk[to][th][c]
		changed |= tb
		if c == us {
			captured = captured || p.kings[them]&tb != 0
		} else {
			lost = lost || ownKing && p.kings[us]&tb != 0
		}
	}
	// The rest of the stack piles on the last square.
	to += step
	n := h - (k - 1)
	low := lowBits(n)
	colours := mk >> (k - 1) & low
	th := p.height[to]
	p.put(to, th+n, p.stack(to)|colours<<th)
	p.hash ^= diskKeys(to, th, n, colours)
	changed |= 1 << to
	oursFlip := uint64(us) - 1 // turns colour bits into "is ours" bits: all ones for Black
	pbem := p.flags&flagPBEM != 0
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
	if p.flags&flagBoardspace != 0 {
		// Judged again by the Kings after the move as well.
		kings, h := p.kings, p.kingH
		p.updateKings(changed)
		landed := changed &^ (1 << from)
		lost = ownKing && p.kingFell(kings[us], h[us], us, landed)
		return p.kingFell(kings[them], h[them], them, landed), lost
	}
	p.updateKings(changed)
	return captured, lost
}

// kingFell reports, for capture=boardspace, whether side c, whose Kings
// were on the squares kings at height h before the move, lost one in the
// move that made p by dropping disks on the squares in landed: a square
// that held one of c's Kings took a disk and holds no King now, and c's
// tallest single-colour stack did not grow. A King that only grew taller,
// or that lost its crown to a taller stack the move made, has not fallen.
func (p *Position) kingFell(kings uint64, h uint8, c game.Side, landed uint64) bool {
	return kings&landed&^p.kings[c] != 0 && p.kingH[c] <= h
}

// dropDisk brings the height and the bitboards up to date for one disk of
// colour c landing on to (bit tb), whose stack had th disks: the stack is
// now c's, and no longer pure for the other colour; the caller has put the
// disk's colour in the stack. A step and every square but the last of a
// tumble drop one disk. The stack and the hash are left to the caller:
// with the stack the helper would be too big to be inlined (its call for
// each disk made Play 7% slower), and a step puts the keys of both its
// squares in the hash at once.
func (p *Position) dropDisk(to Square, tb uint64, th uint8, c game.Side) {
	p.height[to] = th + 1
	p.tops[c^1] &^= tb
	p.tops[c] |= tb
	p.pure[c^1] &^= tb
	if th == 0 {
		p.pure[c] |= tb
	}
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

// Pass returns the position with the other side to move and the stacks
// unchanged. It is no legal move in Tumbling Down: searches use it to ask
// what the opponent could do if it moved twice (null-move pruning).
func (p Position) Pass() Position {
	p.side = p.side.Other()
	p.hash ^= zobristRed
	return p
}
