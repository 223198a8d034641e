// Package rulestest holds what the rules packages' own tests share: a
// generator of rule settings for property tests and the benchmark of
// playing moves. The conformance suite over every registered game is
// package gametest; this one sits below the games, so that their
// internal tests can import it.
package rulestest

import (
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
