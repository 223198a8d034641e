package tumbling

import (
	"math/bits"
	"sync/atomic"
)

// The specialised perft (FastPerft) plays on a board of its own under the
// default rules: Play copies a Position of over 400 bytes and keeps its
// Kings, hash and slots for tall stacks up to date on every move, where a
// perft needs none of that. The board here holds each stack's colours in
// one word (58 disks always fit in 64 bits), changes the few squares a
// move touches in place and puts them back afterwards, and finds the
// Kings once a node instead of after every move. At the last ply each move
// is still played in full, into a list of the changed squares, and its
// result judged, but nothing is written back.

// fastBoard is a position for FastPerft.
type fastBoard struct {
	col    [64]uint64 // bit i: the colour of the i-th disk from the bottom, 1 = red
	height [64]uint8
	occ    uint64    // squares with a stack
	red    uint64    // squares whose top disk is red
	pure   [2]uint64 // squares whose stack is only black / only red
	side   uint8
}

// boardChange is a move played on a fastBoard: the new stacks of the
// squares it touches (the origin first) and the bitboards after it. A
// tumble touches at most eight squares: its origin and seven landings.
type boardChange struct {
	n      int
	sq     [8]uint8
	height [8]uint8
	col    [8]uint64
	occ    uint64
	red    uint64
	pure   [2]uint64
}

// validDirs[s] has bit d set when a step from s in direction d stays on
// the board.
var validDirs [64]uint8

func init() {
	for s := range 64 {
		for d := range 8 {
			if reach[s][d] > 0 {
				validDirs[s] |= 1 << d
			}
		}
	}
}

// perftSink collects a checksum of every leaf FastPerft plays, so that the
// compiler keeps each leaf's play (a result nobody reads could be dropped).
var perftSink atomic.Uint64

// FastPerft counts perft as game.Perft does, on a fastBoard, under the
// default capture, own-king, no-king and moves rules (no-moves and
// repetition do not change perft); it declines (false) other rules.
func (p Position) FastPerft(depth int) (uint64, bool) {
	if p.flags&^flagNoMovesDraw != 0 {
		return 0, false
	}
	if depth <= 0 {
		return 1, true
	}
	if p.winner != 0 {
		return 0, true
	}
	var b fastBoard
	for s := range Square(64) {
		h := p.height[s]
		if h == 0 {
			continue
		}
		m := p.stack(s)
		b.height[s], b.col[s] = h, m
		b.occ |= 1 << s
		b.red |= (m >> (h - 1) & 1) << s
	}
	b.pure = p.pure
	b.side = uint8(p.side)
	var chk uint64
	n := b.perft(depth, &chk)
	perftSink.Add(chk)
	return n, true
}

// kingsOf returns the tallest stacks among the squares of pure.
func (b *fastBoard) kingsOf(pure uint64) uint64 {
	var best uint8
	var kings uint64
	for ; pure != 0; pure &= pure - 1 {
		s := bits.TrailingZeros64(pure)
		switch h := b.height[s&63]; {
		case h > best:
			best, kings = h, 1<<s
		case h == best:
			kings |= 1 << s
		}
	}
	return kings
}

// perft counts the leaves depth plies below b (depth >= 1), adding a
// checksum of the leaves to chk.
func (b *fastBoard) perft(depth int, chk *uint64) uint64 {
	us := b.side & 1
	ek, ok := b.kingsOf(b.pure[us^1]), b.kingsOf(b.pure[us])
	own := b.occ &^ b.red
	if us != 0 {
		own = b.red
	}
	var c boardChange
	var n, sum uint64
	for ; own != 0; own &= own - 1 {
		s := uint(bits.TrailingZeros64(own)) & 63
		tall := b.height[s] > 1
		for v := uint(validDirs[s]); v != 0; v &= v - 1 {
			d := uint(bits.TrailingZeros(v)) & 7
			end := b.step(s, d, ek, &c)
			// The last ply folds each move into the checksum; above it,
			// a move that does not end the game is made and unmade.
			if depth == 1 {
				sum += c.checksum(end)
			} else if !end {
				n += b.descend(&c, depth-1, chk)
			}
			if !tall {
				continue
			}
			end = b.tumble(s, d, ek, ok, &c)
			if depth == 1 {
				sum += c.checksum(end)
			} else if !end {
				n += b.descend(&c, depth-1, chk)
			}
		}
		if depth == 1 {
			n += uint64(moveCount[s]) << b2u(tall)
		}
	}
	*chk += sum
	return n
}

// descend makes the move c on b, counts the leaves depth plies below,
// and unmakes it.
func (b *fastBoard) descend(c *boardChange, depth int, chk *uint64) uint64 {
	var saved boardChange
	b.apply(c, &saved)
	n := b.perft(depth, chk)
	b.apply(&saved, c)
	return n
}

// b2u is 1 for true and 0 for false.
func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// apply writes the change c into b and the squares and bitboards it
// replaces into old, so that applying old undoes it. The side to move
// flips either way.
func (b *fastBoard) apply(c, old *boardChange) {
	old.n = c.n
	for i := range c.n & 15 {
		i &= 7
		s := c.sq[i] & 63
		old.sq[i], old.height[i], old.col[i] = s, b.height[s], b.col[s]
		b.height[s], b.col[s] = c.height[i], c.col[i]
	}
	old.occ, old.red, old.pure = b.occ, b.red, b.pure
	b.occ, b.red, b.pure = c.occ, c.red, c.pure
	b.side ^= 1
}

// checksum folds a played leaf into a number (see perftSink): the
// bitboards after it and the last square's new stack, where the moved
// disks end.
func (c *boardChange) checksum(end bool) uint64 {
	last := uint(c.n-1) & 7
	x := c.pure[0] ^ c.pure[1]*3 ^ c.red*5 ^ c.occ*7 ^ (c.col[last]<<6 | uint64(c.height[last]))
	if end {
		x++
	}
	return x
}

// step plays the step of the top disk of s in direction d into c, and
// reports whether it ends the game: the disk lands on an enemy King (of
// the squares ek), or a side is left without a single-colour stack. (A
// step cannot cover the mover's own King: its disk is the mover's.)
func (b *fastBoard) step(s, d uint, ek uint64, c *boardChange) bool {
	us := uint64(b.side & 1)
	t := uint(int(s)+int(offset[d])) & 63
	hs := b.height[s] - 1
	cs := b.col[s] & (1<<hs - 1)
	ht := b.height[t]
	c.n = 2
	c.sq[0], c.height[0], c.col[0] = uint8(s), hs, cs
	c.sq[1], c.height[1], c.col[1] = uint8(t), ht+1, b.col[t]|us<<(ht&63)
	sb, tb := uint64(1)<<s, uint64(1)<<t
	// The origin keeps hs disks: its top is the one below the disk that
	// left, and it may have become single-coloured.
	var occS, redS, pbS, prS uint64
	if hs != 0 {
		occS = sb
		redS = (cs >> ((hs - 1) & 63) & 1) << s
		if cs == 0 {
			pbS = sb
		}
		if cs == 1<<hs-1 {
			prS = sb
		}
	}
	c.occ = b.occ&^sb | occS | tb
	c.red = b.red&^(sb|tb) | redS | us<<t
	// The landing square is the mover's alone if it was empty or already so.
	var mineT uint64
	if ht == 0 || b.pure[us]&tb != 0 {
		mineT = tb
	}
	c.pure[0] = b.pure[0]&^(sb|tb) | pbS
	c.pure[1] = b.pure[1]&^(sb|tb) | prS
	c.pure[us] |= mineT
	return ek&tb != 0 || c.pure[0] == 0 || c.pure[1] == 0
}

// tumble plays the tumble of the stack on s (two disks or more) in
// direction d into c, and reports whether it ends the game: a disk of the
// mover lands on an enemy King (of ek), an enemy disk lands on one of the
// mover's Kings (of ok), or a side is left without a single-colour stack.
func (b *fastBoard) tumble(s, d uint, ek, ok uint64, c *boardChange) bool {
	us := uint64(b.side & 1)
	hs := b.height[s]
	cs := b.col[s]
	k := min(hs, reach[s][d])
	step := int(offset[d])
	c.sq[0], c.height[0], c.col[0] = uint8(s), 0, 0
	touched := uint64(1) << s
	var occ, red, pb, pr, mineOn, theirsOn uint64
	t := int(s)
	// Every square but the last takes one disk, which becomes its top.
	for i := uint8(1); i < k; i++ {
		t += step
		sq := uint(t) & 63
		disk := cs >> ((i - 1) & 63) & 1
		ht := b.height[sq]
		j := i & 7
		c.sq[j], c.height[j], c.col[j] = uint8(sq), ht+1, b.col[sq]|disk<<(ht&63)
		tb := uint64(1) << sq
		touched |= tb
		occ |= tb
		red |= disk << sq
		// One disk on a stack: single-coloured only if the stack was empty
		// or already of the disk's colour alone.
		if ht == 0 || b.pure[disk]&tb != 0 {
			if disk == 0 {
				pb |= tb
			} else {
				pr |= tb
			}
		}
		if disk == us {
			mineOn |= tb
		} else {
			theirsOn |= tb
		}
	}
	// The last square takes the rest, whose top is the mover's.
	t += step
	sq := uint(t) & 63
	nr := hs - k + 1
	rest := cs >> ((k - 1) & 63)
	ht := b.height[sq]
	j := k & 7
	col := b.col[sq] | rest<<(ht&63)
	h := ht + nr
	c.sq[j], c.height[j], c.col[j] = uint8(sq), h, col
	c.n = int(k) + 1
	tb := uint64(1) << sq
	touched |= tb
	occ |= tb
	red |= us << sq
	if col == 0 {
		pb |= tb
	}
	if col == 1<<(h&63)-1 {
		pr |= tb
	}
	mineOn |= tb
	// The rest holds an enemy disk unless it is all the mover's colour.
	enemy := rest
	if us != 0 {
		enemy = ^rest & (1<<(nr&63) - 1)
	}
	if enemy != 0 {
		theirsOn |= tb
	}
	c.occ = b.occ&^touched | occ
	c.red = b.red&^touched | red
	c.pure[0] = b.pure[0]&^touched | pb
	c.pure[1] = b.pure[1]&^touched | pr
	return mineOn&ek != 0 || theirsOn&ok != 0 || c.pure[0] == 0 || c.pure[1] == 0
}
