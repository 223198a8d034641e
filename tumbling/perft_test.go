package tumbling

import (
	"math/rand/v2"
	"testing"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/internal/rulestest"
	"pgregory.net/rapid"
)

// TestPropertyFastPerft checks FastPerft against perft by AppendMoves and
// Play on random positions (scattered tall and mixed stacks, and games
// played on from them) under random rules: the counts agree wherever it
// counts, and it declines exactly the rules it does not handle.
func TestPropertyFastPerft(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rulestest.Rules[Rules](t, Spec)
		if rapid.Bool().Draw(t, "standard") {
			// Mostly the rules FastPerft handles, the others unchanged.
			r.Capture, r.TumbleOnly, r.OwnKingIgnored, r.NoKingIgnored = CaptureAny, false, false, false
		}
		p := genPosition(t, r)
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "moves"), 1))
		for range rapid.IntRange(0, 60).Draw(t, "plies") {
			m, ok := p.RandomMove(rng, make([]Move, 0, maxMoves))
			if !ok {
				break
			}
			p = p.Play(m)
		}
		depth := rapid.IntRange(0, 3).Draw(t, "depth")
		if len(p.AppendMoves(nil)) > 30 {
			depth = min(depth, 2) // a second at most
		}
		rulestest.CheckFastPerft(t, p, depth, r.Capture == CaptureAny && !r.TumbleOnly && !r.OwnKingIgnored && !r.NoKingIgnored)
	})
}

// TestFastPerftDeep compares the two perfts two plies deep on the bench
// positions, where tumbles of tall stacks reach the board's edge.
func TestFastPerftDeep(t *testing.T) {
	for _, c := range benchSuite {
		p, err := Rules{}.Parse(c.Position)
		if err != nil {
			t.Fatal(err)
		}
		n, ok := p.FastPerft(2)
		if want := game.PerftByPlay(p, 2); !ok || n != want {
			t.Errorf("%s: FastPerft %d %v, by play %d", c.Position, n, ok, want)
		}
	}
}

// TestPropertyFastPlayout checks that FastPlayout plays the game
// game.PlayoutRepeating plays for the same draws: the same result after
// the same number of plies, under any rules (the repetition rule as they
// say); and that tall, which RandomMove counts moves with, finds the
// stacks of two disks or more.
func TestPropertyFastPlayout(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rulestest.Rules[Rules](t, Spec)
		p := genPosition(t, r)
		seed := rapid.Uint64().Draw(t, "seed")
		maxPlies := rapid.IntRange(0, 400).Draw(t, "maxPlies")
		reps := r.RepetitionLimit()
		res, plies, ok := p.FastPlayout(rand.New(rand.NewPCG(seed, 3)), maxPlies, game.NewRepetitions(reps, maxPlies))
		wantRes, wantPlies := game.PlayoutRepeating(p, rand.New(rand.NewPCG(seed, 3)), maxPlies, reps, make([]Move, 0, maxMoves), nil)
		var tall uint64
		for s := range 64 {
			if p.height[s] > 1 {
				tall |= 1 << s
			}
		}
		if got := p.tall(); got != tall {
			t.Fatalf("%s: tall %#x, heights say %#x", p, got, tall)
		}
		if !ok || res != wantRes || plies != wantPlies {
			t.Fatalf("%s: FastPlayout %v after %d plies (%v), Playout %v after %d", p, res, plies, ok, wantRes, wantPlies)
		}
	})
}

// TestFastPlayoutRepetition checks FastPlayout against
// game.PlayoutRepeating (rulestest.CheckFastPlayout) where the repetition
// rule often decides, a lone disk a side (about a fifth of random games
// are drawn by it), and from the start and a middle game.
func TestFastPlayoutRepetition(t *testing.T) {
	for i, text := range []string{"b,7/8/6,r,1/8/8/8/8/8 b", "8/8/1,r,6/7,b/8/8/8/8 b", OriginalStart, midgame} {
		p, err := Rules{}.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		if draws := rulestest.CheckFastPlayout(t, p, 0, 200); draws > 0 {
			t.Errorf("%s: %d draws without the repetition rule", text, draws)
		}
		if draws := rulestest.CheckFastPlayout(t, p, 3, 200); i < 2 && draws < 20 {
			t.Errorf("%s: %d draws by repetition in 200 games", text, draws)
		}
	}
}

// TestPropertyRandomMoveRanks checks that randomMove maps the ranks below
// the number of moves one to one onto AppendMoves' moves, under any rules,
// so that a uniform rank is a uniform move: the ranks are forced with
// rulestest.RankSource.
func TestPropertyRandomMoveRanks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rulestest.Rules[Rules](t, Spec)
		p := genPosition(t, r)
		want := map[Move]bool{}
		for _, m := range p.AppendMoves(nil) {
			want[m] = true
		}
		var src rulestest.RankSource
		forced := rand.New(&src)
		got := map[Move]bool{}
		for rank := range uint64(len(want)) {
			src.Rank(rank, uint64(len(want)))
			m, ok := p.RandomMove(forced, nil)
			if !ok || !want[m] || got[m] {
				t.Fatalf("%s: rank %d of %d draws %v (%v): not a legal move, or drawn twice", p, rank, len(want), m, ok)
			}
			got[m] = true
		}
		if _, ok := p.RandomMove(forced, nil); ok != (len(want) > 0) {
			t.Fatalf("%s: RandomMove says %v with %d moves", p, ok, len(want))
		}
	})
}
