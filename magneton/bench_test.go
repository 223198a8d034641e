package magneton

import (
	"math/rand/v2"
	"testing"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/internal/rulestest"
)

func mustParse(tb testing.TB, text string) Position {
	tb.Helper()
	p, err := Rules{}.Parse(text)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

const (
	benchDrop = "8/3B2W1/1W3B2/3W4/8/6B1/2W2B2/6B1 w 8 7"
	benchMove = "2W1B2B/W6W/BB1W4/W3B3/B6B/WW5W/1BWBB3/BWW1BW2 b 0 0"
)

func BenchmarkAppendMoves(b *testing.B) {
	for _, bc := range []struct{ name, pos string }{{"drop", benchDrop}, {"move", benchMove}} {
		b.Run(bc.name, func(b *testing.B) {
			p := mustParse(b, bc.pos)
			buf := make([]Move, 0, 256)
			b.ReportAllocs()
			for b.Loop() {
				buf = p.AppendMoves(buf[:0])
			}
		})
	}
}

func BenchmarkPlay(b *testing.B) {
	for _, bc := range []struct{ name, pos string }{{"drop", benchDrop}, {"move", benchMove}} {
		b.Run(bc.name, func(b *testing.B) { rulestest.BenchPlay(b, mustParse(b, bc.pos)) })
	}
}

func BenchmarkPerft(b *testing.B) {
	for _, bc := range []struct {
		name, pos string
		depth     int
	}{{"drop", benchDrop, 3}, {"move", benchMove, 4}} {
		b.Run(bc.name, func(b *testing.B) {
			p := mustParse(b, bc.pos)
			b.ReportAllocs()
			var leaves uint64
			for b.Loop() {
				leaves += game.Perft(p, bc.depth)
			}
			b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
		})
	}
}

func BenchmarkPlayout(b *testing.B) {
	p := Rules{}.StartPosition()
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]Move, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		game.Playout(p, rng, 400, buf)
	}
}
