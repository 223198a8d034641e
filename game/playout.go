package game

import "math/rand/v2"

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
// same draws from rng and the same repetition limit (0: no repetition
// rule). FastPlayout returns false when it does not handle the position,
// and PlayoutRepeating is used. State.Playouts uses it; each game's tests
// compare the two.
type FastPlayouter interface {
	FastPlayout(rng *rand.Rand, maxPlies, repetitions int) (r Result, plies int, ok bool)
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
// repeat, as long as the ones it adds are of consecutive plies. The zero
// value is ready for a game of up to RepetitionsPlies plies; it is kept
// whole on the playout's stack, where a buffer for longer games would go
// to the heap. A FastPlayout leaves longer games to PlayoutRepeating.
//
// slots counts the positions added by a 12-bit hash (two multiplies),
// stopping at 128: a position can have occurred limit-1 times before only
// if its slot has counted as many, so the list is searched only then, for
// a third occurrence about never. (A filter of seen hashes, as the C
// engines keep, also searched for every second occurrence: about a
// quarter of Tumbling Down's plies.)
type Repetitions struct {
	slots [4096]uint8
	n     int
	pos   [RepetitionsPlies + 1][2]uint64
}

// RepetitionsPlies is the longest game a Repetitions counts the positions
// of: the playouts of magneton bench.
const RepetitionsPlies = 400

// PlayoutRepetitions returns the Repetitions for a FastPlayout of at most
// maxPlies plies under the repetition limit repetitions: nil for none
// (repetitions 0), and ok false for the games a FastPlayout leaves to
// PlayoutRepeating (repetitions 1 or above 128, and longer games than
// RepetitionsPlies under the rule). Inlined, its Repetitions stays on the
// caller's stack.
func PlayoutRepetitions(maxPlies, repetitions int) (h *Repetitions, ok bool) {
	if repetitions == 1 || repetitions > 128 || repetitions > 0 && maxPlies > RepetitionsPlies {
		return nil, false
	}
	if repetitions > 0 {
		h = new(Repetitions)
	}
	return h, true
}

// Repeated records the position (a, b) of the next ply and reports
// whether it has now occurred limit times (2 <= limit <= 128), this time
// included.
func (h *Repetitions) Repeated(a, b uint64, limit int) bool {
	h.pos[h.n] = [2]uint64{a, b}
	h.n++
	x := (a*0x9e3779b97f4a7c15 ^ b*0xc2b2ae3d27d4eb4f) >> 52
	c := h.slots[x&4095]
	h.slots[x&4095] = c + 1 - c>>7
	return int(c) >= limit-1 && h.count() >= limit
}

// count returns the occurrences of the last position added among those
// with the same side to move, itself included.
func (h *Repetitions) count() int {
	n, last := 0, h.pos[h.n-1]
	for j := h.n - 1; j >= 0; j -= 2 {
		if h.pos[j] == last {
			n++
		}
	}
	return n
}
