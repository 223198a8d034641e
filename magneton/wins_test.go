package magneton

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/game"
)

// TestWinsInOne checks the count of winning moves, for both sides, against
// playing every move of the position with that side to move (parsed from
// the position's text with the side letter changed), in random games under
// several rule options.
func TestWinsInOne(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rules Rules
	}{
		{"default", Rules{}},
		{"owner-wins", Rules{OwnerWins: true}},
		{"weak", Rules{Weak: true}},
		{"one-sided", Rules{OneSided: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 4))
			checked, wins := 0, 0
			for range 120 {
				p := tc.rules.StartPosition()
				for range 200 {
					for _, s := range []game.Side{White, Black} {
						want := winsAsIfToMove(t, tc.rules, p, s)
						if got := p.WinsInOne(s, 1000); got != want {
							t.Fatalf("%s: side %d has %d winning moves, WinsInOne says %d", p, s, want, got)
						}
						if want > 0 && p.WinsInOne(s, 1) != 1 {
							t.Fatalf("%s: WinsInOne(%d, 1) is not 1", p, s)
						}
						checked++
						wins += want
					}
					moves := p.AppendMoves(nil)
					if len(moves) == 0 {
						break
					}
					p = p.Play(moves[rng.IntN(len(moves))])
				}
			}
			if wins == 0 {
				t.Fatal("no winning move met: the test checks nothing")
			}
			t.Logf("%d positions and sides, %d winning moves", checked, wins)
		})
	}
}

// winsAsIfToMove counts side s's winning moves by playing them all from p
// with s to move.
func winsAsIfToMove(t *testing.T, r Rules, p Position, s game.Side) int {
	if _, won := p.Winner(); won {
		return 0
	}
	fields := strings.Fields(p.String())
	fields[1] = map[game.Side]string{White: "w", Black: "b"}[s]
	q, err := r.Parse(strings.Join(fields, " "))
	if err != nil {
		t.Fatalf("%s with side %d to move: %v", p, s, err)
	}
	n := 0
	for _, m := range q.AppendMoves(nil) {
		if w, ok := q.Play(m).Winner(); ok && w == s {
			n++
		}
	}
	return n
}

// winsSample returns n positions of random games under the default rules,
// those of the drop phase when drops is set and of the move phase
// otherwise: the kind of positions a search's leaves ask WinsInOne about.
func winsSample(n int, drops bool) []Position {
	rng := rand.New(rand.NewPCG(11, 12))
	var out []Position
	for len(out) < n {
		p := Rules{}.StartPosition()
		for range 120 {
			moves := p.AppendMoves(nil)
			if len(moves) == 0 {
				break
			}
			if (p.InHand(p.Side()) > 0) == drops {
				out = append(out, p)
			}
			p = p.Play(moves[rng.IntN(len(moves))])
		}
	}
	return out[:n]
}

// BenchmarkWinsInOne counts both sides' winning moves in random positions
// of each phase, as a search leaf does (the side to move's up to 1, the
// opponent's up to 2); ns/op is per position.
func BenchmarkWinsInOne(b *testing.B) {
	for _, bc := range []struct {
		name  string
		drops bool
	}{{"drop", true}, {"move", false}} {
		b.Run(bc.name, func(b *testing.B) {
			ps := winsSample(1000, bc.drops)
			b.ReportAllocs()
			i, n := 0, 0
			for b.Loop() {
				p := ps[i]
				n += p.WinsInOne(p.Side(), 1) + p.WinsInOne(p.Side().Other(), 2)
				if i++; i == len(ps) {
					i = 0
				}
			}
			if n < 0 {
				b.Fatal(n)
			}
		})
	}
}

// TestWinningMove checks WinningMove against playing the moves in the
// order of AppendMoves until one wins, in random games under several
// rule options.
func TestWinningMove(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rules Rules
	}{
		{"default", Rules{}},
		{"owner-wins", Rules{OwnerWins: true}},
		{"weak", Rules{Weak: true}},
		{"one-sided", Rules{OneSided: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, 6))
			wins := [2]int{} // drop phase, move phase
			for range 300 {
				p := tc.rules.StartPosition()
				for range 200 {
					moves := p.AppendMoves(nil)
					want, wantOK := NoMove, false
					for _, m := range moves {
						if w, ok := p.Play(m).Winner(); ok && w == p.Side() {
							want, wantOK = m, true
							break
						}
					}
					if got, ok := p.WinningMove(); got != want || ok != wantOK {
						t.Fatalf("%s: WinningMove %v %v, want %v %v", p, got, ok, want, wantOK)
					}
					if wantOK {
						wins[min(p.InHand(p.Side()), 1)^1]++
					}
					if len(moves) == 0 {
						break
					}
					p = p.Play(moves[rng.IntN(len(moves))])
				}
			}
			if wins[0] == 0 || wins[1] == 0 {
				t.Fatalf("winning moves met in the drop and move phases: %v; the test checks too little", wins)
			}
			t.Logf("positions with a winning move: %d in the drop phase, %d in the move phase", wins[0], wins[1])
		})
	}
}
