package game

import (
	"math/bits"
	"math/rand/v2"
)

// Playout plays uniformly random legal moves from p until the game ends or
// maxPlies moves have been played, and returns the result (Ongoing when the
// cap was reached) and the number of plies played. Repetition is not judged:
// a playout keeps no history, and the cap ends endless games. The
// computer players' playouts use it; PlayoutRepeating also applies the
// repetition rule.
//
// buf is scratch space for move lists; pass one with room for a position's
// moves (256 is plenty for both games) so that playouts do not allocate.
func Playout[P Position[P, M], M comparable](p P, rng *rand.Rand, maxPlies int, buf []M) (Result, int) {
	for ply := 0; ply < maxPlies; ply++ {
		m, ok := p.RandomMove(rng, buf)
		if !ok {
			r, _ := p.Outcome()
			return r, ply
		}
		p = p.Play(m)
	}
	r, _ := p.Outcome()
	return r, maxPlies
}

// PlayoutRepeating is Playout under the repetition rule as well: the game
// is drawn when a position occurs for the repetitions-th time (0: never),
// judged as Game judges it, after the position's own outcome (a win, or no
// legal move) and counting p itself. It makes the same draws from rng as
// Playout, so with repetitions 0 it plays the same game.
//
// It is the definition a game's FastPlayout is checked against, not a fast
// path: every ply asks Outcome and counts the position's hash among all
// before it. hist is scratch space for the hashes, reused when it has room
// for maxPlies+1 of them.
func PlayoutRepeating[P Position[P, M], M comparable](p P, rng *rand.Rand, maxPlies, repetitions int, buf []M, hist []uint64) (Result, int) {
	hist = hist[:0]
	for ply := 0; ; ply++ {
		if r, _ := p.Outcome(); r.Over() {
			return r, ply
		}
		if repetitions > 0 {
			h := p.Hash()
			hist = append(hist, h)
			n := 0
			for _, x := range hist {
				if x == h {
					n++
				}
			}
			if n >= repetitions {
				return Draw, ply
			}
		}
		if ply == maxPlies {
			return Ongoing, ply
		}
		m, _ := p.RandomMove(rng, buf) // there is one: the outcome is Ongoing
		p = p.Play(m)
	}
}

// FastPlayouter is implemented by a position type with a playout loop
// of its own, faster than PlayoutRepeating's (one position changed in
// place, say), which plays the same game as PlayoutRepeating for the
// same draws from rng under the repetition limit of h (nil: no
// repetition rule; h is scratch space the caller keeps from game to
// game, and FastPlayout starts it over). FastPlayout returns false when
// it does not handle the position, and PlayoutRepeating is used.
// State.Playouts uses it; each game's tests compare the two.
type FastPlayouter interface {
	FastPlayout(rng *rand.Rand, maxPlies int, h *Repetitions) (r Result, plies int, ok bool)
}

// BenchCase is one position of a game's fixed benchmark suite: perft to the
// given depth from the position.
type BenchCase struct {
	Phase    string // the part of the game it measures, such as "drop" or "move"
	Position string
	Depth    int
}

// Repetitions counts the positions of a random game, for a game's own
// playout loop (FastPlayout) to apply the repetition rule: a position is
// two words the game chooses, which tell the positions apart exactly
// (say its bitboards), or its hash, as Game compares them. The positions
// are added in the order of the plies, so that those with the same side
// to move are every other one; a game may leave out positions that cannot
// repeat, as long as the ones it adds are of consecutive plies.
//
// slots counts the positions added by a 12-bit hash (two multiplies),
// stopping at 128: a position can have occurred limit-1 times before only
// if its slot has counted as many, so the list is searched only then, for
// a third occurrence about never. (A filter of seen hashes, as the C
// engines keep, also searched for every second occurrence: about a
// quarter of Tumbling Down's plies.) Only the slots are cleared for each
// game, which is why a Repetitions is kept from game to game.
type Repetitions struct {
	slots [4096]uint8
	limit int
	n     int
	pos   [][2]uint64
}

// NewRepetitions returns the counts for games of at most maxPlies plies
// under the repetition limit limit (2 to 128), or nil for limit 0, the
// rule off. It panics for other limits.
func NewRepetitions(limit, maxPlies int) *Repetitions {
	if limit == 0 {
		return nil
	}
	if limit < 2 || limit > 128 {
		panic("game: a repetition limit of 2 to 128 is counted")
	}
	return &Repetitions{limit: limit, pos: make([][2]uint64, maxPlies+1)}
}

// Start makes h ready for a game of at most maxPlies plies.
func (h *Repetitions) Start(maxPlies int) {
	h.slots = [4096]uint8{}
	h.n = 0
	if maxPlies >= len(h.pos) {
		h.pos = make([][2]uint64, maxPlies+1)
	}
}

// Add records the position (a, b) of the next ply and reports whether it
// may have occurred as many times as the limit says, this time included;
// only then need Repeated be asked. Add is cheap enough to be inlined in a
// playout loop, where a call would also spill and reload the loop's
// values.
func (h *Repetitions) Add(a, b uint64) bool {
	x := (a*0x9e3779b97f4a7c15 ^ b*0xc2b2ae3d27d4eb4f) >> 52 & 4095
	c := h.slots[x]
	h.slots[x] = c + 1 - c>>7
	h.pos[h.n] = [2]uint64{a, b}
	h.n++
	return int(c) >= h.limit-1
}

// Repeated reports whether the last position added has occurred as many
// times as the limit says, counting those with the same side to move.
func (h *Repetitions) Repeated() bool {
	n, last := 0, h.pos[h.n-1]
	for j := h.n - 1; j >= 0; j -= 2 {
		if h.pos[j] == last {
			n++
		}
	}
	return n >= h.limit
}

// Redraw is the rejection step of Lemire's method for a number drawn
// uniformly below n, as rand.Rand.IntN draws: a game's own draw takes
// hi, lo = bits.Mul64(rng.Uint64(), n) and, only when lo < n (about
// never), calls Redraw, which returns the number (hi, or a new draw's).
// The rare step is a call of its own so that the common one stays small
// and without a branch on the number.
func Redraw(rng *rand.Rand, n, hi, lo uint64) uint64 {
	thresh := -n % n
	for lo < thresh {
		hi, lo = bits.Mul64(rng.Uint64(), n)
	}
	return hi
}
