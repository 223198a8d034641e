package ai

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/magneton-games/magneton/magneton"
)

// TestFindMagnetonMates finds positions with a forced win in 1 to 3 moves
// in random games, for the crafted cases of the mate tests. Run it with
// FIND=1 go test ./ai -run FindMagnetonMates -v.
func TestFindMagnetonMates(t *testing.T) {
	if os.Getenv("FIND") == "" {
		t.Skip()
	}
	rng := rand.New(rand.NewPCG(7, 9))
	eng := NewEngine(magnetonKit, 16, 1)
	found := map[int]int{}
	for tries := 0; tries < 20000 && (found[3] < 3); tries++ {
		p := magneton.Rules{}.StartPosition()
		plies := 24 + rng.IntN(60)
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
		if m >= 1 && m <= 3 && found[m] < 2 {
			if m == 1 || winIn(magnetonKit, p, m) && !winIn(magnetonKit, p, m-1) {
				found[m]++
				t.Logf("mate %d: %q best %s pv %v", m, p.String(), res.Info.BestMove, res.Info.PV)
			}
		}
	}
}
