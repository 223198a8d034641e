package ai

import (
	"math/rand/v2"
	"testing"

	"github.com/magneton-games/magneton/magneton"
)

// TestMagnetonWinsAgreesWithPlay checks the fast count of winning moves
// against playing every move, in positions of random games.
func TestMagnetonWinsAgreesWithPlay(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	checked, wins := 0, 0
	for g := 0; g < 300; g++ {
		p := magneton.Rules{}.StartPosition()
		for ply := 0; ply < 200; ply++ {
			moves := p.AppendMoves(nil)
			if len(moves) == 0 {
				break
			}
			want := 0
			for _, m := range moves {
				if w, ok := p.Play(m).Winner(); ok && w == p.Side() {
					want++
				}
			}
			if got := magnetonWins(p, p.Side(), 1000); got != want {
				t.Fatalf("%s: %d winning moves, the fast count says %d", p, want, got)
			}
			checked++
			wins += want
			p = p.Play(moves[rng.IntN(len(moves))])
		}
	}
	if wins == 0 {
		t.Fatal("no winning move met: the test checks nothing")
	}
	t.Logf("%d positions, %d winning moves", checked, wins)
}
