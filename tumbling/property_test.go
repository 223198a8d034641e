package tumbling

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/internal/rulestest"
	"pgregory.net/rapid"
)

// genPosition draws a start position or a scatter of both players' disks
// over a few squares, which makes the tall and mixed stacks that games
// from the start rarely reach.
func genPosition(t *rapid.T, r Rules) Position {
	if rapid.Bool().Draw(t, "fromStart") {
		return r.StartPosition()
	}
	nb := rapid.IntRange(1, DisksPerSide).Draw(t, "black")
	nr := rapid.IntRange(1, DisksPerSide).Draw(t, "red")
	squares := rapid.SliceOfNDistinct(rapid.IntRange(0, 63), 1, 24, rapid.ID[int]).Draw(t, "squares")
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
	disks := []byte(strings.Repeat("b", nb) + strings.Repeat("r", nr))
	rng.Shuffle(len(disks), func(i, j int) { disks[i], disks[j] = disks[j], disks[i] })
	stacks := map[string]string{}
	for _, d := range disks {
		name := Square(squares[rng.IntN(len(squares))]).String()
		stacks[name] += string(d)
	}
	side := "b"
	if rapid.Bool().Draw(t, "redToMove") {
		side = "r"
	}
	p, err := r.Parse(board(stacks, side))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPropertyGames plays random games from random positions under random
// rules and checks, after every move, that disks are conserved, that the
// state kept incrementally (hash, tops, single-colour stacks, Kings)
// equals the state computed from scratch, that the position text reads
// back as the same position, and that moves come sorted and read back.
func TestPropertyGames(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rulestest.Rules[Rules](t, Spec)
		p := genPosition(t, r)
		counts := [2]int{p.Disks(Black), p.Disks(Red)}
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "moves"), 1))
		plies := rapid.IntRange(0, 200).Draw(t, "plies")
		for range plies {
			checkPosition(t, r, p, counts)
			moves := p.AppendMoves(nil)
			if len(moves) == 0 {
				if res, _ := p.Outcome(); !res.Over() {
					t.Fatalf("%s: no moves but the game goes on", p)
				}
				break
			}
			p = p.Play(moves[rng.IntN(len(moves))])
		}
		checkPosition(t, r, p, counts)
	})
}

func checkPosition(t *rapid.T, r Rules, p Position, counts [2]int) {
	checkInvariants(t, p)
	if b, rd := p.Disks(Black), p.Disks(Red); b != counts[0] || rd != counts[1] {
		t.Fatalf("%s: %d black and %d red disks, want %d and %d", p, b, rd, counts[0], counts[1])
	}
	q, err := r.Parse(p.String())
	if err != nil {
		t.Fatalf("%s does not read back: %v", p, err)
	}
	if q.String() != p.String() || q.Hash() != p.Hash() {
		t.Fatalf("%s reads back as %s", p, q)
	}
	var prev string
	for i, m := range p.AppendMoves(nil) {
		s := m.String()
		if i > 0 && s <= prev {
			t.Fatalf("%s: moves out of order: %s after %s", p, s, prev)
		}
		prev = s
		if back, err := p.ParseMove(s); err != nil || back != m {
			t.Fatalf("%s: %s reads back as %v, %v", p, s, back, err)
		}
	}
}

// TestPropertyHashDistinguishes checks that positions with different texts
// have different hashes along random games (a collision among a few
// thousand positions would point to keys that cancel).
func TestPropertyHashDistinguishes(t *testing.T) {
	seen := map[uint64]string{}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100 {
		p := Rules{}.StartPosition()
		for range 100 {
			if old, ok := seen[p.Hash()]; ok && old != p.String() {
				t.Fatalf("hash collision: %s and %s", old, p)
			}
			seen[p.Hash()] = p.String()
			moves := p.AppendMoves(nil)
			if len(moves) == 0 {
				break
			}
			p = p.Play(moves[rng.IntN(len(moves))])
		}
	}
}

// TestPropertyOutcome checks Play's judgement of every move along random
// games against the rules worked out from the stacks alone: the Kings
// found by scanning the whole board before and after the move, the disks
// each square gained, and each capture rule as docs/rules/tumbling-down.md
// states it. Play judges incrementally from bitboards; this judge shares
// none of that.
func TestPropertyOutcome(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rulestest.Rules[Rules](t, Spec)
		p := genPosition(t, r)
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "moves"), 2))
		for range 100 {
			if res, _ := p.Outcome(); res.Over() {
				return
			}
			moves := p.AppendMoves(nil)
			m := moves[rng.IntN(len(moves))]
			q := p.Play(m)
			res, why := q.Outcome()
			wantRes, wantWhy := judge(r, p, m, q)
			if res != wantRes || why != wantWhy {
				t.Fatalf("%+v: %s then %s: %v (%v), want %v (%v)", r, p, m, res, why, wantRes, wantWhy)
			}
			p = q
		}
	})
}

// judge decides the outcome of the move m from p to q under r from the
// stacks of the two positions.
func judge(r Rules, p Position, m Move, q Position) (game.Result, *game.Ending) {
	us, them := p.Side(), p.Side().Other()
	falls := func(victim game.Side) bool {
		capturer := victim.Other()
		kingsBefore, hBefore := scanPure(p, victim)
		kingsAfter, hAfter := scanPure(q, victim)
		for s := range Square(64) {
			hp, _ := p.Stack(s)
			hq, after := q.Stack(s)
			if s == m.From() || hq <= hp || kingsBefore&(1<<s) == 0 {
				continue
			}
			gained := after >> hp & (1<<(hq-hp) - 1)
			if capturer == Black {
				gained ^= 1<<(hq-hp) - 1 // bits now mark the capturer's disks
			}
			if gained == 0 {
				continue
			}
			switch r.Capture {
			case CaptureAny:
				return true
			case CapturePBEM:
				// After the King's own disks come gained disks: one run of
				// the victim's colour, then the capturer's to the top.
				if runs(after, hq) == 2 {
					return true
				}
			case CaptureBoardspace:
				if kingsAfter&(1<<s) == 0 && hAfter <= hBefore {
					return true
				}
			}
		}
		return false
	}
	switch {
	case falls(them):
		return game.WinFor(us), KingCaptured
	case !r.OwnKingIgnored && falls(us):
		return game.WinFor(them), OwnKing
	}
	if !r.NoKingIgnored {
		if _, h := scanPure(q, them); h == 0 {
			return game.WinFor(us), NoKing
		}
		if _, h := scanPure(q, us); h == 0 {
			return game.WinFor(them), NoKing
		}
	}
	if len(q.AppendMoves(nil)) == 0 {
		if r.NoMovesDraw {
			return game.Draw, game.NoMoves
		}
		return game.LossFor(them), game.NoMoves
	}
	return game.Ongoing, nil
}

// scanPure returns the Kings of side c, found by looking at every stack,
// and their height (0 when c has no single-colour stack).
func scanPure(p Position, c game.Side) (kings uint64, height int) {
	for s := range Square(64) {
		h, mask := p.Stack(s)
		if h == 0 || (c == Black && mask != 0) || (c == Red && mask != 1<<h-1) {
			continue
		}
		switch {
		case h > height:
			kings, height = 1<<s, h
		case h == height:
			kings |= 1 << s
		}
	}
	return kings, height
}

// runs counts the runs of one colour in a stack of h disks.
func runs(mask uint64, h int) int {
	n := 1
	for i := 1; i < h; i++ {
		if mask>>i&1 != mask>>(i-1)&1 {
			n++
		}
	}
	return n
}
