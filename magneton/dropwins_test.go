package magneton

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// slowDropWins is the definition dropWinCandidates shortcuts: every empty
// square dropped on and its effect followed by magnetWins, which walks
// the eight directions.
func slowDropWins(own, their uint64) (wins uint64) {
	occ := own | their
	for e := ^occ; e != 0; e &= e - 1 {
		t := bits.TrailingZeros64(e)
		if magnetWins(t, own|1<<t, occ|1<<t) {
			wins |= 1 << t
		}
	}
	return wins
}

// crowdedBoard returns own and their stones on random squares, crowded
// into a corner region of the board now and then so that lines of three
// and four, and wins, are common.
func crowdedBoard(rng *rand.Rand) (own, their uint64) {
	region := ^uint64(0)
	if rng.IntN(2) == 0 {
		region = 0
		f0, r0 := rng.IntN(4), rng.IntN(4)
		for f := f0; f < f0+5; f++ {
			for r := r0; r < r0+5; r++ {
				region |= 1 << (8*f + r)
			}
		}
	}
	nOwn, nTheir := 3+rng.IntN(10), rng.IntN(12)
	for bits.OnesCount64(own) < nOwn {
		sq := rng.IntN(64)
		if region>>sq&1 != 0 || rng.IntN(4) == 0 {
			own |= 1 << sq
		}
	}
	for bits.OnesCount64(their) < nTheir {
		sq := rng.IntN(64)
		if own>>sq&1 == 0 && (region>>sq&1 != 0 || rng.IntN(4) == 0) {
			their |= 1 << sq
		}
	}
	return own, their
}

// TestDropWinCandidates checks the set-wise drop wins against dropping on
// every square: the sure squares all win, every winning square is sure
// or maybe, and dropWinsInOne counts them, on random boards.
func TestDropWinCandidates(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	boards, wins, candidates := 0, 0, 0
	for range 200000 {
		own, their := crowdedBoard(rng)
		want := slowDropWins(own, their)
		sure, maybe := dropWinCandidates(own, their)
		if sure&^want != 0 {
			t.Fatalf("own %#x their %#x: sure squares %#x do not win (wins %#x)", own, their, sure&^want, want)
		}
		if want&^(sure|maybe) != 0 {
			t.Fatalf("own %#x their %#x: winning squares %#x neither sure nor maybe", own, their, want&^(sure|maybe))
		}
		n := bits.OnesCount64(want)
		for _, limit := range []int{1, 2, 1000} {
			if got := dropWinsInOne(own, their, limit); got != min(n, limit) {
				t.Fatalf("own %#x their %#x: dropWinsInOne(limit %d) = %d, want %d", own, their, limit, got, min(n, limit))
			}
		}
		boards++
		wins += n
		candidates += bits.OnesCount64(maybe &^ sure)
	}
	if wins == 0 {
		t.Fatal("no winning drop met: the test checks nothing")
	}
	t.Logf("%d boards, %d winning drops, %.2f squares to play out a board", boards, wins, float64(candidates)/float64(boards))
}

// TestMoveWinTargets checks the move phase's set-wise test against
// playing every move: each winning move goes to one of moveWinTargets,
// and moveWinsInOne counts them, on random boards.
func TestMoveWinTargets(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	boards, wins, played := 0, 0, 0
	for range 100000 {
		own, their := crowdedBoard(rng)
		p := Position{mine: own, theirs: their} // White to move, no stones in hand
		targets := moveWinTargets(own, their)
		n := 0
		for _, m := range p.AppendMoves(nil) {
			if w, ok := p.Play(m).Winner(); ok && w == White {
				n++
				if targets>>m.To()&1 == 0 {
					t.Fatalf("%v: the winning move %v goes to no target (%#x)", p, m, targets)
				}
			}
			if targets>>m.To()&1 != 0 {
				played++
			}
		}
		for _, limit := range []int{1, 2, 1000} {
			if got := moveWinsInOne(own, their, limit); got != min(n, limit) {
				t.Fatalf("%v: moveWinsInOne(limit %d) = %d, want %d", p, limit, got, min(n, limit))
			}
		}
		boards++
		wins += n
	}
	if wins == 0 {
		t.Fatal("no winning move met: the test checks nothing")
	}
	t.Logf("%d boards, %d winning moves, %.2f moves to play out a board", boards, wins, float64(played)/float64(boards))
}
