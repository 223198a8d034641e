package magneton

import (
	"maps"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/magneton-games/magneton/internal/rulestest"
)

// destsUp returns the destinations of moves in a direction that raises the
// square index by k. fwd clears the squares a step that way would wrap
// onto, back those of a step the other way.
//
// reach is our stones with every empty square reachable from one of them;
// the ends of the runs are where slides stop. A stone is pulled there when
// an enemy stone follows the end, and pushed there when the nearest stone
// behind it is its own (its predecessor is in reach).
func destsUp(ours, theirs, free uint64, k uint, fwd, back uint64) uint64 {
	// Masking the shift counts tells the compiler they are below 64, which
	// spares the checks Go otherwise makes for larger counts.
	k1, k2, k4 := k&63, 2*k&63, 4*k&63
	pro1 := free & fwd
	pro2 := pro1 & (pro1 << k1)
	pro4 := pro2 & (pro2 << k2)
	reach := ours | pro1&(ours<<k1)
	reach |= pro2 & (reach << k2)
	reach |= pro4 & (reach << k4)
	run := reach &^ ours
	ends := run &^ (run >> k1 & back)
	pulled := ends & (theirs >> k1 & back)
	pushed := ours & (reach << k1 & fwd)
	pushed |= pro1 & (pushed << k1)
	pushed |= pro2 & (pushed << k2)
	pushed |= pro4 & (pushed << k4)
	return pulled | ends&pushed
}

// destsDown is destsUp for a direction that lowers the square index by k.
func destsDown(ours, theirs, free uint64, k uint, fwd, back uint64) uint64 {
	// Masking the shift counts tells the compiler they are below 64, which
	// spares the checks Go otherwise makes for larger counts.
	k1, k2, k4 := k&63, 2*k&63, 4*k&63
	pro1 := free & fwd
	pro2 := pro1 & (pro1 >> k1)
	pro4 := pro2 & (pro2 >> k2)
	reach := ours | pro1&(ours>>k1)
	reach |= pro2 & (reach >> k2)
	reach |= pro4 & (reach >> k4)
	run := reach &^ ours
	ends := run &^ (run << k1 & back)
	pulled := ends & (theirs << k1 & back)
	pushed := ours & (reach >> k1 & fwd)
	pushed |= pro1 & (pushed >> k1)
	pushed |= pro2 & (pushed >> k2)
	pushed |= pro4 & (pushed >> k4)
	return pulled | ends&pushed
}

// randomBoard returns random stones of both sides: about three quarters,
// half or a quarter of the squares taken, by i modulo 3.
func randomBoard(rng *rand.Rand, i int) (ours, theirs uint64) {
	r1, r2 := rng.Uint64(), rng.Uint64()
	occ := [3]uint64{r1 | r2, r1, r1 & r2}[i%3]
	split := rng.Uint64()
	return occ & split, occ &^ split
}

// TestStrongDests checks the generated eight-direction fill against the
// one-direction reference on random boards of several densities.
func TestStrongDests(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for i := range 20000 {
		ours, theirs := randomBoard(rng, i)
		free := ^(ours | theirs)
		want := [8]uint64{
			destsUp(ours, theirs, free, 1, notRank1, notRank8),
			destsUp(ours, theirs, free, 9, notRank1, notRank8),
			destsUp(ours, theirs, free, 8, ^uint64(0), ^uint64(0)),
			destsUp(ours, theirs, free, 7, notRank8, notRank1),
			destsDown(ours, theirs, free, 1, notRank8, notRank1),
			destsDown(ours, theirs, free, 9, notRank8, notRank1),
			destsDown(ours, theirs, free, 8, ^uint64(0), ^uint64(0)),
			destsDown(ours, theirs, free, 7, notRank1, notRank8),
		}
		if got := strongDests(ours, theirs); got != want {
			t.Fatalf("ours %#x theirs %#x: strongDests = %#x, want %#x", ours, theirs, got, want)
		}
	}
}

// TestStrongMoves checks that the stones strongMoves.draw counts, each
// moved to the end of its empty run, are exactly the moves AppendMoves
// lists, each once, on random boards of several densities; and that its
// draw maps the ranks below the count one to one onto them, so that a
// uniform rank is a uniform move. The ranks are forced with a source that returns
// a chosen number (rulestest.RankSource).
func TestStrongMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var src rulestest.RankSource
	forced := rand.New(&src)
	for i := range 5000 {
		var p Position
		p.mine, p.theirs = randomBoard(rng, i)
		occ := p.mine | p.theirs
		want := map[Move]bool{}
		for _, m := range p.AppendMoves(nil) {
			want[m] = true
		}
		got := map[Move]bool{}
		n := 0
		var sm strongMoves
		if m := sm.draw(p.mine, p.theirs, nil, false); m != NoMove {
			t.Fatalf("draw without pick gave %v", m)
		}
		total := sm.total
		for d, o := range sm.origins {
			for ; o != 0; o &= o - 1 {
				n++
				from := bits.TrailingZeros64(o)
				got[Slide(Square(from), Square(slideEnd(directionOrder[d], from, occ)))] = true
			}
		}
		if !maps.Equal(got, want) || n != len(want) || total != uint64(n) {
			t.Fatalf("ours %#x theirs %#x: origins give %v (count %d), AppendMoves %v", p.mine, p.theirs, got, total, want)
		}
		picked := map[Move]bool{}
		for r := range total {
			src.Rank(r, total)
			m := sm.draw(p.mine, p.theirs, forced, true)
			if !want[m] || picked[m] {
				t.Fatalf("ours %#x theirs %#x: rank %d of %d picks %v, a move not listed or picked twice", p.mine, p.theirs, r, total, m)
			}
			picked[m] = true
		}
	}
}
