package magneton

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/internal/rulestest"
)

// Sparse move-phase positions, where about a third of random games are
// drawn by repetition (found by playing random positions of two to six
// stones a side), and one that ends its drop phase in two plies.
var repetitionPositions = []string{
	"3W2BW/2W2B2/W7/8/4B3/1B1WB3/3B4/W7 w 0 0",
	"WW6/BB6/1W1W1W2/5B2/B7/6B1/8/8 w 0 0",
	"WW6/BB6/1W1W1W2/5B2/B7/8/8/8 w 0 1",
}

// TestFastPlayout checks that FastPlayout plays the game
// game.PlayoutRepeating plays for the same draws (rulestest.CheckFastPlayout),
// with the repetition rule and without, from the start, the bench suite's
// positions and positions where repetition is common; and that draws by
// repetition do occur there.
func TestFastPlayout(t *testing.T) {
	positions := []string{"start"}
	for _, c := range benchSuite {
		positions = append(positions, c.Position)
	}
	for i, text := range append(positions, repetitionPositions...) {
		p := mustParseRules(t, Rules{}, text)
		if draws := rulestest.CheckFastPlayout(t, p, 0, 300); draws > 0 {
			t.Errorf("%s: %d draws without the repetition rule", text, draws)
		}
		if draws := rulestest.CheckFastPlayout(t, p, 3, 300); i >= len(positions) && draws < 30 {
			t.Errorf("%s: %d draws by repetition in 300 games", text, draws)
		}
	}
	if _, _, ok := mustParseRules(t, Rules{Weak: true}, "start").FastPlayout(rand.New(rand.NewPCG(1, 2)), 400, game.NewRepetitions(3, 400)); ok {
		t.Error("FastPlayout should leave force=weak to PlayoutRepeating")
	}
}

func mustParseRules(tb testing.TB, r Rules, text string) Position {
	tb.Helper()
	if text == "start" {
		return r.StartPosition()
	}
	p, err := r.Parse(text)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// TestRandomMoveUniform draws many moves in positions of both phases and
// checks that every legal move comes up about as often (a chi-squared
// test at a level that a correct draw fails about once in ten thousand
// runs), and that each drawn move is legal.
func TestRandomMoveUniform(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, text := range append([]string{"start", benchDrop, benchMove}, repetitionPositions...) {
		p := mustParseRules(t, Rules{}, text)
		moves := p.AppendMoves(nil)
		count := map[Move]int{}
		for _, m := range moves {
			count[m] = 0
		}
		per := 2000
		for range per * len(moves) {
			m, ok := p.RandomMove(rng, nil)
			if _, legal := count[m]; !ok || !legal {
				t.Fatalf("%s: RandomMove gave %v (%v), not a legal move", text, m, ok)
			}
			count[m]++
		}
		chi2 := 0.0
		for _, n := range count {
			d := float64(n - per)
			chi2 += d * d / float64(per)
		}
		// For k degrees of freedom chi2 has mean k and variance 2k;
		// k + 8 sqrt(2k) is far in the tail for these k (16 to 63).
		k := float64(len(moves) - 1)
		if limit := k + 8*math.Sqrt(2*k); chi2 > limit {
			t.Errorf("%s: chi-squared %.1f over %d moves, above %.1f", text, chi2, len(moves), limit)
		}
	}
}

// TestPlayoutsDoNotAllocate checks that a playout allocates nothing once
// its Repetitions is made, and that State.Playouts allocates three times a
// call, whatever the number of games: the position as a FastPlayouter, the
// Repetitions and its list.
func TestPlayoutsDoNotAllocate(t *testing.T) {
	p := Rules{}.StartPosition()
	rng := rand.New(rand.NewPCG(1, 2))
	h := game.NewRepetitions(3, 400)
	if n := testing.AllocsPerRun(100, func() { p.FastPlayout(rng, 400, h) }); n != 0 {
		t.Errorf("FastPlayout: %v allocations a game", n)
	}
	st := Rules{}.Start()
	if n := testing.AllocsPerRun(10, func() { st.Playouts(rng, 100, 400) }); n > 3 {
		t.Errorf("Playouts of 100 games: %v allocations", n)
	}
}
