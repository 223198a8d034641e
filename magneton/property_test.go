package magneton

import (
	"math/bits"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/internal/rulestest"
)

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
		p := genPosition(t, rulestest.Rules[Rules](t, Spec))
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
// Hash equals the hash computed square by square, that no stone is created or
// lost, and that the position text reads back to the same position.
func TestPlayInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rulestest.Rules[Rules](t, Spec)
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
				t.Fatalf("%s: hash %x, square by square %x", p, p.Hash(), p.computeHash())
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
