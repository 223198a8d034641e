package tumbling

import (
	"math/bits"

	"github.com/magneton-games/magneton/game"
)

// Colours of the disks and the sides that own them. Black is the first
// player of the original rules.
const (
	Black = game.First
	Red   = game.Second
)

// DisksPerSide is how many disks each player has.
const DisksPerSide = 29

// MaxHeight is the tallest a stack can be: every disk of both players.
const MaxHeight = 2 * DisksPerSide

// flags holds the rule options a position needs to generate and play moves.
type flags uint8

const (
	flagOwnKingIgnored flags = 1 << iota // own-king=ignored
	flagNoKingIgnored                    // no-king=ignored
	flagNoMovesDraw                      // no-moves=draw
	flagTumbleOnly                       // moves=tumble-only
	flagPBEM                             // capture=pbem
	flagBoardspace                       // capture=boardspace
)

// lowDisks is how many disks of a stack the low colour mask holds; the
// colours of taller stacks go on in a few spare slots. Few stacks ever grow
// that tall, and keeping 64 bits per square instead would more than double
// the size of a Position, which Play copies every move.
const lowDisks = 16

// maxTall is how many stacks can be taller than lowDisks at once: each
// holds at least 17 of the 58 disks.
const maxTall = MaxHeight / (lowDisks + 1)

// Position is a Tumbling Down position: every stack, the side to move, and
// whether the last move ended the game. It is a value (copy-make): Play
// returns a new Position and leaves the old one intact. The zero value is
// not a valid position; use Rules.StartPosition or Rules.Parse.
//
// A stack is its height and a colour mask whose bit i is the colour of the
// i-th disk from the bottom (0 black, 1 red). The bitboards of tops,
// single-colour stacks and Kings are kept up to date by Play so that move
// generation and the capture test do not look at the stacks at all.
type Position struct {
	low    [64]uint16 // colours of the bottom lowDisks disks of each stack, 1 = red
	height [64]uint8  // disks in each stack
	tops   [2]uint64  // squares whose top disk is black / red: the stacks each side may move
	pure   [2]uint64  // squares holding a stack made only of black / only of red disks
	kings  [2]uint64  // each side's Kings: its tallest pure stacks
	hash   uint64
	tallHi [maxTall]uint64 // colours of the disks above lowDisks of the tall stacks
	tallSq [maxTall]uint8  // 1 + the square of each tall stack, 0 for a free slot
	kingH  [2]uint8        // height of each side's Kings, 0 when it has none
	side   game.Side
	winner uint8 // 0 while nobody has won, else 1 + the winning side
	ending uint8 // why the game ended when winner is set: an index of endings
	flags  flags
}

// lowBits returns a mask of the n lowest bits, n <= 63.
func lowBits(n uint8) uint64 { return 1<<n - 1 }

// stack returns the colour mask of the stack on s.
func (p *Position) stack(s Square) uint64 {
	m := uint64(p.low[s])
	if p.height[s] > lowDisks {
		for i, t := range p.tallSq {
			if t == uint8(s)+1 {
				m |= p.tallHi[i] << lowDisks
			}
		}
	}
	return m
}

// put sets the stack on s and its bits in the tops and pure bitboards.
// Play uses it where it cannot tell the new top and purity more cheaply:
// the tumble's origin and the square that takes the rest of the pile.
func (p *Position) put(s Square, h uint8, m uint64) {
	if h > lowDisks || p.height[s] > lowDisks {
		p.putTall(s, h, m)
	}
	p.height[s] = h
	p.low[s] = uint16(m)
	bit := uint64(1) << s
	occ := bit
	if h == 0 {
		occ = 0
	}
	red := (m >> (h - 1) & 1) << s // a shift by 255 for h = 0 gives 0
	p.tops[Black] = p.tops[Black]&^bit | occ&^red
	p.tops[Red] = p.tops[Red]&^bit | red
	var pb, pr uint64
	if m == 0 {
		pb = occ
	}
	if m == lowBits(h) {
		pr = occ
	}
	p.pure[Black] = p.pure[Black]&^bit | pb
	p.pure[Red] = p.pure[Red]&^bit | pr
}

// putTall keeps the slot of a stack that is or was taller than lowDisks.
// Slots are cleared when freed so that equal boards compare equal more
// often; callers free a square's slot (by shrinking it) before another
// stack grows, so a slot is always free when needed.
func (p *Position) putTall(s Square, h uint8, m uint64) {
	key := uint8(s) + 1
	for i, t := range p.tallSq {
		if t == key {
			if h > lowDisks {
				p.tallHi[i] = m >> lowDisks
			} else {
				p.tallSq[i], p.tallHi[i] = 0, 0
			}
			return
		}
	}
	if h <= lowDisks {
		return
	}
	for i, t := range p.tallSq {
		if t == 0 {
			p.tallSq[i], p.tallHi[i] = key, m>>lowDisks
			return
		}
	}
	panic("tumbling: more tall stacks than disks allow")
}

// Side returns the side to move.
func (p Position) Side() game.Side { return p.side }

// Height returns the number of disks on a square.
func (p Position) Height(sq Square) int { return int(p.height[sq]) }

// Heights returns the number of disks on every square (index: the square).
// It and Pure have pointer receivers, unlike the other accessors, because
// evaluations call them at every leaf of a search: a value receiver would
// copy the whole position (over 400 bytes) on each call.
func (p *Position) Heights() [64]uint8 { return p.height }

// Pure returns the bitboard of the stacks made only of a side's disks.
func (p *Position) Pure(s game.Side) uint64 { return p.pure[s&1] }

// Stack returns the colours of the disks on a square from the bottom up:
// bit i of the mask is the colour of the i-th disk (0 Black, 1 Red), and
// height says how many bits count.
func (p Position) Stack(sq Square) (height int, mask uint64) {
	return int(p.height[sq]), p.stack(sq)
}

// Tops returns the bitboard of the stacks a side owns (its disk on top):
// bit i is square i, file-major (a1=0, a2=1, b1=8).
func (p Position) Tops(s game.Side) uint64 { return p.tops[s] }

// Kings returns the bitboard of a side's Kings, its tallest stacks made only
// of its own disks, and their height (0 and no squares when it has none).
func (p Position) Kings(s game.Side) (squares uint64, height int) {
	return p.kings[s], int(p.kingH[s])
}

// Disks returns how many disks of a colour are on the board.
func (p Position) Disks(c game.Side) int {
	n := 0
	for b := p.tops[0] | p.tops[1]; b != 0; b &= b - 1 {
		s := bits.TrailingZeros64(b)
		red := bits.OnesCount64(p.stack(Square(s)))
		if c == Red {
			n += red
		} else {
			n += int(p.height[s]) - red
		}
	}
	return n
}

// Hash returns the Zobrist hash of the stacks and the side to move: exactly
// what the repetition rule compares.
func (p Position) Hash() uint64 { return p.hash }

// Winner returns the side that won by the last move (or, for a parsed
// position, the side whose opponent has no King), if any.
func (p Position) Winner() (game.Side, bool) {
	if p.winner == 0 {
		return 0, false
	}
	return game.Side(p.winner - 1), true
}

// Outcome returns the result the position decides by itself: a win or loss
// made by the last move (a King captured, the mover's own King covered, a
// side left without a King), or the side to move having no legal move (a
// loss by default, a draw under no-moves=draw).
func (p Position) Outcome() (game.Result, *game.Ending) {
	if w, ok := p.Winner(); ok {
		return game.WinFor(w), endings[p.ending]
	}
	if p.tops[p.side] == 0 {
		if p.flags&flagNoMovesDraw != 0 {
			return game.Draw, game.NoMoves
		}
		return game.LossFor(p.side), game.NoMoves
	}
	return game.Ongoing, nil
}

// Zobrist keys: one per square, position in the stack (0 = bottom) and
// colour, XORed together for every disk on the board, and one for Red to
// move. A whole stack's key is then the XOR of its disks' keys, so moving
// the top disk or toppling a stack changes the hash by the keys of the
// disks that moved. The keys come from a fixed SplitMix64 stream so hashes
// are the same in every run and build.
var (
	zobristDisk [64][MaxHeight][2]uint64
	zobristRed  uint64
)

func init() {
	next := game.ZobristKeys(0x54554d424c494e47) // "TUMBLING"
	for s := range zobristDisk {
		for i := range zobristDisk[s] {
			for c := range 2 {
				zobristDisk[s][i][c] = next()
			}
		}
	}
	zobristRed = next()
}

// diskKeys returns the XOR of the keys of n disks with colours colours
// (bit j = disk j) placed on sq from position start up.
func diskKeys(sq Square, start, n uint8, colours uint64) uint64 {
	var h uint64
	keys := &zobristDisk[sq]
	for j := uint8(0); j < n; j++ {
		h ^= keys[start+j][colours>>j&1]
	}
	return h
}

// computeHash hashes a position from scratch; Play keeps the hash up to date
// incrementally and the tests check the two agree.
func (p *Position) computeHash() uint64 {
	var h uint64
	for s := range 64 {
		h ^= diskKeys(Square(s), 0, p.height[s], p.stack(Square(s)))
	}
	if p.side == Red {
		h ^= zobristRed
	}
	return h
}

// updateKings brings each side's Kings up to date after the stacks on the
// squares in changed (and only those) changed. An unchanged pure stack is
// no taller than the old Kings, so the new Kings are the unchanged old
// ones and the tallest changed pure stacks, whichever are taller, unless
// every old King changed and nothing reaches the old height: only then
// are the side's pure stacks scanned.
func (p *Position) updateKings(changed uint64) {
	for c := range 2 {
		old := p.kings[c]
		cand := changed & p.pure[c]
		if (old|cand)&changed == 0 {
			continue
		}
		kings := old &^ changed
		var best uint8
		if kings != 0 {
			best = p.kingH[c]
		}
		for b := cand; b != 0; b &= b - 1 {
			s := bits.TrailingZeros64(b)
			switch h := p.height[s]; {
			case h > best:
				kings, best = 1<<s, h
			case h == best:
				kings |= 1 << s
			}
		}
		if best < p.kingH[c] {
			p.scanKings(game.Side(c))
			continue
		}
		p.kings[c], p.kingH[c] = kings, best
	}
}

// scanKings finds a side's Kings among all its pure stacks: the tallest
// height first, then the stacks of that height, which keeps the loops free
// of hard-to-predict branches.
func (p *Position) scanKings(c game.Side) {
	var best uint8
	for b := p.pure[c]; b != 0; b &= b - 1 {
		best = max(best, p.height[bits.TrailingZeros64(b)])
	}
	var kings uint64
	for b := p.pure[c]; b != 0; b &= b - 1 {
		s := bits.TrailingZeros64(b)
		var bit uint64
		if p.height[s] == best {
			bit = 1
		}
		kings |= bit << s
	}
	p.kings[c], p.kingH[c] = kings, best
}

// judgeKings sets the winner when a side has no King, under the default
// no-king rule. The mover (the side not to move) is judged last, so that a
// move that leaves both sides without a King wins for the mover, as a move
// capturing a King does even when it also covers the mover's own.
func (p *Position) judgeKings() {
	if p.flags&flagNoKingIgnored != 0 || p.winner != 0 {
		return
	}
	mover := p.side.Other()
	switch {
	case p.pure[p.side] == 0:
		p.winner, p.ending = 1+uint8(mover), endNoKing
	case p.pure[mover] == 0:
		p.winner, p.ending = 1+uint8(p.side), endNoKing
	}
}
