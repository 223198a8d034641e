package game

import "math/rand/v2"

// Playout plays uniformly random legal moves from p until the game ends or
// maxPlies moves have been played, and returns the result (Ongoing when the
// cap was reached) and the number of plies played. Repetition is not judged:
// a playout keeps no history, and the cap ends endless games.
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

// FastPlayouter is implemented by a position type with a playout loop
// of its own, faster than Playout's (one position changed in place, say),
// which plays the same game as Playout for the same draws from rng.
// FastPlayout returns false when it does not handle the position, and
// Playout is used. State.Playouts uses it; each game's tests compare the
// two.
type FastPlayouter interface {
	FastPlayout(rng *rand.Rand, maxPlies int) (r Result, plies int, ok bool)
}

// BenchCase is one position of a game's fixed benchmark suite: perft to the
// given depth from the position.
type BenchCase struct {
	Phase    string // the part of the game it measures, such as "drop" or "move"
	Position string
	Depth    int
}
