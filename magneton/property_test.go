package magneton

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/magneton-games/magneton/game"
)

// genRules draws any combination of the rule options.
func genRules(t *rapid.T) Rules {
	return Rules{
		OwnerWins:   rapid.Bool().Draw(t, "ownerWins"),
		OneSided:    rapid.Bool().Draw(t, "oneSided"),
		Weak:        rapid.Bool().Draw(t, "weak"),
		NoMovesDraw: rapid.Bool().Draw(t, "noMovesDraw"),
	}
}

// genPosition draws a legal-looking position: up to twelve stones a side
// on random squares, the rest (or fewer) in hand, either side to move.
func genPosition(t *rapid.T, r Rules) Position {
	var stones [2]uint64
	var hand [2]int
	for c := range 2 {
		n := rapid.IntRange(0, StonesPerSide).Draw(t, "stones")
		for range n {
			sq := rapid.IntRange(0, 63).Draw(t, "square")
			if (stones[0]|stones[1])>>sq&1 == 0 {
				stones[c] |= 1 << sq
			}
		}
		hand[c] = rapid.IntRange(0, StonesPerSide-bits.OnesCount64(stones[c])).Draw(t, "hand")
	}
	side := game.Side(rapid.IntRange(0, 1).Draw(t, "side"))
	return newPosition(stones, hand, side, r.flags())
}

// genPlayed draws a position reached by random legal moves from a random
// position, so that it may carry a winner.
func genPlayed(t *rapid.T) Position {
	p := genPosition(t, genRules(t))
	for range rapid.IntRange(0, 30).Draw(t, "plies") {
		moves := p.AppendMoves(nil)
		if len(moves) == 0 {
			break
		}
		p = p.Play(moves[rapid.IntRange(0, len(moves)-1).Draw(t, "move")])
	}
	return p
}

func sortedMoves(p Position) []string {
	var out []string
	for _, m := range p.AppendMoves(nil) {
		out = append(out, m.String())
	}
	slices.Sort(out)
	return out
}

// TestMatchesReference checks move generation and play against the direct
// implementation in reference_test.go, under every rule option.
func TestMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genPosition(t, genRules(t))
		ref := toRef(p)
		got, want := sortedMoves(p), ref.moves()
		if !slices.Equal(got, want) {
			t.Fatalf("%s %+v: moves\n got %v\nwant %v", p, p.rulesForTest(), got, want)
		}
		if p.hasMove() != (len(want) > 0) {
			t.Fatalf("%s: hasMove %v with %d moves", p, p.hasMove(), len(want))
		}
		for _, m := range p.AppendMoves(nil) {
			q := p.Play(m)
			rb, winner := ref.play(m.String())
			if toRef(q).stones != rb.stones || q.Side() != rb.side || toRef(q).hand != rb.hand {
				t.Fatalf("%s %+v, %s: got %s, reference %s", p, p.rulesForTest(), m, q, newPosition(rb.stones, rb.hand, rb.side, 0))
			}
			w, won := q.Winner()
			if won != (winner >= 0) || (won && int(w) != winner) {
				t.Fatalf("%s %+v, %s: winner %v %v, reference %d", p, p.rulesForTest(), m, w, won, winner)
			}
		}
	})
}

// TestPlayInvariants plays random games and checks after every move that
// the incremental hash equals a fresh one, that no stone is created or
// lost, and that the position text reads back to the same position.
func TestPlayInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genRules(t)
		p := genPosition(t, r)
		total := [2]int{}
		for c := range game.Side(2) {
			total[c] = bits.OnesCount64(p.Stones(c)) + p.InHand(c)
		}
		for range rapid.IntRange(0, 60).Draw(t, "plies") {
			moves := p.AppendMoves(nil)
			if len(moves) == 0 {
				break
			}
			p = p.Play(moves[rapid.IntRange(0, len(moves)-1).Draw(t, "move")])
			if p.Hash() != p.computeHash() {
				t.Fatalf("%s: incremental hash %x, fresh %x", p, p.Hash(), p.computeHash())
			}
			if p.Stones(White)&p.Stones(Black) != 0 {
				t.Fatalf("%s: a square holds two stones", p)
			}
			for c := range game.Side(2) {
				if n := bits.OnesCount64(p.Stones(c)) + p.InHand(c); n != total[c] {
					t.Fatalf("%s: side %d has %d stones, had %d", p, c, n, total[c])
				}
			}
			back, err := r.Parse(p.String())
			if err != nil {
				t.Fatalf("%s does not read back: %v", p, err)
			}
			if back.String() != p.String() || back.Hash() != p.Hash() {
				t.Fatalf("%s reads back as %s", p, back)
			}
		}
	})
}

// symmetry maps a square by one of the eight symmetries of the square board.
func symmetry(s Square, k int) Square {
	f, r := s.File(), s.Rank()
	if k&1 != 0 {
		f = 7 - f
	}
	if k&2 != 0 {
		r = 7 - r
	}
	if k&4 != 0 {
		f, r = r, f
	}
	return SquareAt(f, r)
}

func transformBoard(b uint64, k int) uint64 {
	var out uint64
	for ; b != 0; b &= b - 1 {
		out |= 1 << symmetry(Square(bits.TrailingZeros64(b)), k)
	}
	return out
}

func transformPosition(p Position, k int) Position {
	return newPosition(
		[2]uint64{transformBoard(p.Stones(White), k), transformBoard(p.Stones(Black), k)},
		[2]int{p.InHand(White), p.InHand(Black)}, p.Side(), p.flags())
}

func transformMove(m string, k int) string {
	parts := strings.Split(m, "-")
	for i, part := range parts {
		s, _ := ParseSquare(part)
		parts[i] = symmetry(s, k).String()
	}
	return strings.Join(parts, "-")
}

// TestSymmetries checks that the eight symmetries of the board commute with
// move generation and with play.
func TestSymmetries(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genPlayed(t)
		k := rapid.IntRange(1, 7).Draw(t, "symmetry")
		tp := transformPosition(p, k)
		if _, won := p.Winner(); won {
			return // the winner is history, not board: nothing to compare
		}
		var mapped []string
		for _, m := range sortedMoves(p) {
			mapped = append(mapped, transformMove(m, k))
		}
		slices.Sort(mapped)
		if got := sortedMoves(tp); !slices.Equal(got, mapped) {
			t.Fatalf("%s under symmetry %d: moves\n got %v\nwant %v", p, k, got, mapped)
		}
		for _, m := range p.AppendMoves(nil) {
			q := p.Play(m)
			tm, err := tp.ParseMove(transformMove(m.String(), k))
			if err != nil {
				t.Fatalf("%s: %v", tp, err)
			}
			tq := tp.Play(tm)
			if want := transformPosition(q, k); tq.String() != want.String() {
				t.Fatalf("%s %s under symmetry %d: got %s, want %s", p, m, k, tq, want)
			}
			w1, ok1 := q.Winner()
			w2, ok2 := tq.Winner()
			if w1 != w2 || ok1 != ok2 {
				t.Fatalf("%s %s under symmetry %d: winner differs", p, m, k)
			}
		}
	})
}

// TestRandomMove checks that RandomMove draws only legal moves, says when
// there are none, and reaches every legal move with about equal frequency.
func TestRandomMove(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genPlayed(t)
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		legal := p.AppendMoves(nil)
		const draws = 200
		seen := map[Move]int{}
		for range draws * max(len(legal), 1) {
			m, ok := p.RandomMove(rng, make([]Move, 0, 8))
			if ok != (len(legal) > 0) {
				t.Fatalf("%s: RandomMove ok=%v with %d legal moves", p, ok, len(legal))
			}
			if !ok {
				return
			}
			seen[m]++
		}
		for _, m := range legal {
			// Each count is binomial with mean 200; 100 is over 7 standard
			// deviations below it.
			if seen[m] < draws/2 || seen[m] > draws*3/2 {
				t.Fatalf("%s: %s drawn %d times in %d, expected about %d", p, m, seen[m], draws*len(legal), draws)
			}
			delete(seen, m)
		}
		if len(seen) > 0 {
			t.Fatalf("%s: RandomMove drew moves that are not legal: %v", p, seen)
		}
	})
}
