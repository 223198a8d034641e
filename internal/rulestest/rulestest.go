// Package rulestest holds what the rules packages' own tests share: a
// generator of rule settings for property tests and the benchmark of
// playing moves. The conformance suite over every registered game is
// package gametest; this one sits below the games, so that their
// internal tests can import it.
package rulestest

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	"github.com/magneton-games/magneton/game"
)

// Rules draws any combination of the game's rule options.
func Rules[R game.Rules](t *rapid.T, sp *game.Spec) R {
	draw := func(o game.Option) string { return rapid.SampledFrom(o.Values).Draw(t, o.Name) }
	return sp.New(sp.Choose(draw)).(R)
}

// BenchPlay times Play from p, over its legal moves in turn.
func BenchPlay[P game.Position[P, M], M comparable](b *testing.B, p P) {
	moves := p.AppendMoves(nil)
	if len(moves) == 0 {
		b.Fatalf("%s has no legal move", p)
	}
	b.ReportAllocs()
	var sink P
	i := 0
	for b.Loop() {
		sink = p.Play(moves[i])
		i++
		if i == len(moves) {
			i = 0
		}
	}
	_ = sink
}

// CheckFastPerft checks a position's own perft (game.FastPerfter) at
// depth against game.PerftByPlay: it counts exactly when handled says it
// handles the position's rules, and then agrees.
func CheckFastPerft[P interface {
	game.Position[P, M]
	game.FastPerfter
}, M comparable](t *rapid.T, p P, depth int, handled bool) {
	n, ok := p.FastPerft(depth)
	if ok != handled {
		t.Fatalf("%s: FastPerft counts: %v, handles the rules: %v", p, ok, handled)
	}
	if !ok {
		return
	}
	if want := game.PerftByPlay(p, depth); n != want {
		t.Fatalf("%s depth %d: FastPerft %d, by play %d", p, depth, n, want)
	}
}

// CheckFastPlayout plays games random games from p with its own
// FastPlayout and with game.PlayoutRepeating, one after the other from
// two generators of the same seed (so that the two also draw as many
// numbers), at most 400, 250 or 100 plies in turn, under the repetition
// limit reps, and checks that each ends with the same result after the
// same number of plies. It returns how many were drawn.
func CheckFastPlayout[P interface {
	game.Position[P, M]
	game.FastPlayouter
}, M comparable](t testing.TB, p P, reps, games int) (draws int) {
	t.Helper()
	fast, slow := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(1, 2))
	buf, hist := make([]M, 0, 256), make([]uint64, 0, 401)
	h := game.NewRepetitions(reps, 100) // Start makes room for the longer games
	for i := range games {
		maxPlies := 400 - i%3*150
		res, plies, ok := p.FastPlayout(fast, maxPlies, h)
		wantRes, wantPlies := game.PlayoutRepeating(p, slow, maxPlies, reps, buf, hist)
		if !ok || res != wantRes || plies != wantPlies {
			t.Fatalf("%s, repetitions %d, game %d: FastPlayout %v after %d plies (%v), PlayoutRepeating %v after %d", p, reps, i, res, plies, ok, wantRes, wantPlies)
		}
		if res == game.Draw {
			draws++
		}
	}
	return draws
}

// RankSource is a rand.Source that returns X, set by Rank to the number
// whose Lemire draw below n (rand.Rand.IntN's, and the games' own draws)
// is r, with the low half of the product far from the rejection zone: a
// test can make a game's random draw take every rank in turn.
type RankSource struct{ X uint64 }

// Uint64 returns X.
func (s *RankSource) Uint64() uint64 { return s.X }

// Rank sets X to (r + 1/2) * 2^64 / n: X*n is r*2^64 plus about 2^63.
func (s *RankSource) Rank(r, n uint64) { s.X, _ = bits.Div64(r, 1<<63, n) }
