package magneton

import (
	"math/bits"
	"slices"

	"github.com/magneton-games/magneton/game"
)

// The reference rules: a direct, slow implementation that walks the eight
// directions square by square, written from the rules text without the
// tables and fills of the fast code. Property tests compare the two under
// every rule option, including the options the shared reference data do
// not cover.

type refBoard struct {
	stones [2]uint64
	side   game.Side
	hand   [2]int
	rules  Rules
}

func toRef(p Position) refBoard {
	return refBoard{
		stones: [2]uint64{p.Stones(White), p.Stones(Black)},
		side:   p.Side(),
		hand:   [2]int{p.InHand(White), p.InHand(Black)},
		rules:  p.rulesForTest(),
	}
}

func (p Position) rulesForTest() Rules {
	f := p.flags()
	return Rules{OwnerWins: f&flagOwnerWins != 0, OneSided: f&flagOneSided != 0, Weak: f&flagWeak != 0, NoMovesDraw: f&flagNoMovesDraws != 0}
}

func (b refBoard) at(f, r int) int { // 0 empty, 1 white, 2 black, -1 off the board
	if f < 0 || f > 7 || r < 0 || r > 7 {
		return -1
	}
	s := SquareAt(f, r)
	switch {
	case b.stones[0]>>s&1 != 0:
		return 1
	case b.stones[1]>>s&1 != 0:
		return 2
	}
	return 0
}

var refDirs = [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

// nearestRef walks from (f, r) in direction d to the first stone.
func (b refBoard) nearestRef(f, r, d int) (int, int, bool) {
	for {
		f, r = f+refDirs[d][0], r+refDirs[d][1]
		switch b.at(f, r) {
		case -1:
			return 0, 0, false
		case 1, 2:
			return f, r, true
		}
	}
}

// slideRef returns where a stone on (f, r) stops sliding in direction d.
func (b refBoard) slideRef(f, r, d int, weak bool) (int, int) {
	for b.at(f+refDirs[d][0], r+refDirs[d][1]) == 0 {
		f, r = f+refDirs[d][0], r+refDirs[d][1]
		if weak {
			break
		}
	}
	return f, r
}

func (b refBoard) moves() []string {
	var out []string
	us := b.side
	if b.hand[us] > 0 {
		for s := range Square(64) {
			if b.at(s.File(), s.Rank()) == 0 {
				out = append(out, s.String())
			}
		}
		return out
	}
	for s := range Square(64) {
		f, r := s.File(), s.Rank()
		if b.at(f, r) != int(us)+1 {
			continue
		}
		dests := map[Square]bool{}
		for d := range 8 {
			qf, qr, ok := b.nearestRef(f, r, d)
			if !ok {
				continue
			}
			if b.rules.OneSided {
				if _, _, other := b.nearestRef(f, r, d^4); other {
					continue
				}
			}
			tf, tr := f, r
			if b.at(qf, qr) != int(us)+1 { // attracted toward q
				if qf-refDirs[d][0] == f && qr-refDirs[d][1] == r {
					continue
				}
				tf, tr = b.slideRef(f, r, d, b.rules.Weak)
			} else { // repelled away from q
				tf, tr = b.slideRef(f, r, d^4, b.rules.Weak)
			}
			if tf != f || tr != r {
				dests[SquareAt(tf, tr)] = true
			}
		}
		for t := range dests {
			out = append(out, s.String()+"-"+t.String())
		}
	}
	slices.Sort(out)
	return out
}

// play applies a move given as text; it returns the board and the winner
// (-1 for none).
func (b refBoard) play(move string) (refBoard, int) {
	us := b.side
	var to Square
	if len(move) == 2 {
		to, _ = ParseSquare(move)
		b.hand[us]--
	} else {
		from, _ := ParseSquare(move[:2])
		to, _ = ParseSquare(move[3:])
		b.stones[us] &^= 1 << from
	}
	b.stones[us] |= 1 << to
	f, r := to.File(), to.Rank()
	before := b
	var movedOurs, movedTheirs uint64
	for d := range 8 {
		qf, qr, ok := before.nearestRef(f, r, d)
		if !ok {
			continue
		}
		colour := before.at(qf, qr) - 1
		q := SquareAt(qf, qr)
		var df, dr int
		if colour == int(us) {
			df, dr = before.slideRef(qf, qr, d, b.rules.Weak)
		} else {
			if qf-refDirs[d][0] == f && qr-refDirs[d][1] == r {
				continue
			}
			df, dr = before.slideRef(qf, qr, d^4, b.rules.Weak)
		}
		dest := SquareAt(df, dr)
		if dest == q {
			continue
		}
		b.stones[colour] = b.stones[colour]&^(1<<q) | 1<<dest
		if colour == int(us) {
			movedOurs |= 1 << dest
		} else {
			movedTheirs |= 1 << dest
		}
	}
	winner := -1
	if refLineThrough(b.stones[us], movedOurs) {
		winner = int(us)
	} else if b.rules.OwnerWins && refLineThrough(b.stones[us^1], movedTheirs) {
		winner = int(us ^ 1)
	}
	b.side = us ^ 1
	return b, winner
}

// refLineThrough reports whether a stone of moved lies on a line of four
// or more stones of own.
func refLineThrough(own, moved uint64) bool {
	for ; moved != 0; moved &= moved - 1 {
		s := Square(bits.TrailingZeros64(moved))
		for d := range 4 {
			n := 1
			for _, dir := range [2]int{d, d + 4} {
				f, r := s.File(), s.Rank()
				for {
					f, r = f+refDirs[dir][0], r+refDirs[dir][1]
					if f < 0 || f > 7 || r < 0 || r > 7 || own>>SquareAt(f, r)&1 == 0 {
						break
					}
					n++
				}
			}
			if n >= 4 {
				return true
			}
		}
	}
	return false
}
