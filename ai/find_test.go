package ai

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
	"github.com/magneton-games/magneton/tumbling"
)

// findMates finds positions with a forced win in 1 to 3 moves in random
// games, for the cases of the mate tests.
func findMates[P game.Position[P, M], M comparable](t *testing.T, kit *Kit[P, M], start P, minPly int) {
	rng := rand.New(rand.NewPCG(7, 9))
	eng := NewEngine(kit, 16, 1)
	found := map[int]int{}
	for tries := 0; tries < 20000 && (found[1] < 2 || found[2] < 2 || found[3] < 2); tries++ {
		p := start
		plies := minPly + rng.IntN(60)
		ok := true
		for i := 0; i < plies; i++ {
			ms := p.AppendMoves(nil)
			if len(ms) == 0 {
				ok = false
				break
			}
			p = p.Play(ms[rng.IntN(len(ms))])
		}
		if !ok || len(p.AppendMoves(nil)) == 0 {
			continue
		}
		res, _ := eng.Search(context.Background(), p, nil, Budget{Depth: 4}, nil)
		m := res.Info.Mate
		if m >= 1 && m <= 3 && found[m] < 3 {
			if m == 1 || winIn(kit, p, m) && !winIn(kit, p, m-1) {
				found[m]++
				t.Logf("mate %d: %q best %s pv %v", m, p.String(), res.Info.BestMove, res.Info.PV)
			}
		}
	}
}

// TestFindMates finds the positions of the mate tests. Run it with
// FIND=magneton (or tumbling) go test ./ai -run FindMates -v.
func TestFindMates(t *testing.T) {
	switch os.Getenv("FIND") {
	case "magneton":
		findMates(t, magnetonKit, magneton.Rules{}.StartPosition(), 24)
	case "tumbling":
		findMates(t, tumblingKit, tumbling.Rules{}.StartPosition(), 4)
	default:
		t.Skip("set FIND=magneton or FIND=tumbling")
	}
}
