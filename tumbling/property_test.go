package tumbling

import (
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
		OwnKingIgnored:   rapid.Bool().Draw(t, "ownKingIgnored"),
		NoKingIgnored:    rapid.Bool().Draw(t, "noKingIgnored"),
		NoMovesDraw:      rapid.Bool().Draw(t, "noMovesDraw"),
		BoardspaceLayout: rapid.Bool().Draw(t, "boardspace"),
		TumbleOnly:       rapid.Bool().Draw(t, "tumbleOnly"),
		PBEMCapture:      rapid.Bool().Draw(t, "pbem"),
	}
}

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
		r := genRules(t)
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

// symmetry is one of the eight symmetries of the square board, possibly
// with the colours swapped.
type symmetry struct {
	turn int // 0-7: bit 0 mirrors files, bit 1 mirrors ranks, bit 2 swaps files and ranks
	swap bool
}

func (y symmetry) square(s Square) Square {
	f, r := s.File(), s.Rank()
	if y.turn&1 != 0 {
		f = 7 - f
	}
	if y.turn&2 != 0 {
		r = 7 - r
	}
	if y.turn&4 != 0 {
		f, r = r, f
	}
	return SquareAt(f, r)
}

func (y symmetry) move(m Move) Move {
	from, to := y.square(m.From()), y.square(m.To())
	d, ok := directionTo(from, to)
	if !ok {
		panic("a symmetry broke a move")
	}
	return newMove(from, d, m.IsTumble())
}

func (y symmetry) side(s game.Side) game.Side {
	if y.swap {
		return s.Other()
	}
	return s
}

// position returns the text of p under the symmetry.
func (y symmetry) position(p Position) string {
	stacks := map[string]string{}
	for s := range Square(64) {
		h, m := p.Stack(s)
		var b []byte
		for i := range h {
			c := m >> i & 1
			if y.swap {
				c ^= 1
			}
			b = append(b, colourLetter[c])
		}
		if h > 0 {
			stacks[y.square(s).String()] = string(b)
		}
	}
	return board(stacks, string(colourLetter[y.side(p.Side())]))
}

// TestPropertySymmetry checks that the rules know no direction and no
// colour: mirroring or turning the board, and swapping the colours,
// commute with move generation and with play.
func TestPropertySymmetry(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genRules(t)
		p := genPosition(t, r)
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "moves"), 2))
		for range rapid.IntRange(0, 60).Draw(t, "plies") {
			moves := p.AppendMoves(nil)
			if len(moves) == 0 {
				break
			}
			p = p.Play(moves[rng.IntN(len(moves))])
		}
		if p.winner != 0 {
			return // a stored win is not in the position text
		}
		y := symmetry{turn: rapid.IntRange(0, 7).Draw(t, "turn"), swap: rapid.Bool().Draw(t, "swap")}
		q, err := r.Parse(y.position(p))
		if err != nil {
			t.Fatal(err)
		}
		var want, got []string
		moves := p.AppendMoves(nil)
		for _, m := range moves {
			want = append(want, y.move(m).String())
		}
		for _, m := range q.AppendMoves(nil) {
			got = append(got, m.String())
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%s under %+v:\n moves %v\n want  %v", p, y, got, want)
		}
		for _, m := range moves {
			a, b := p.Play(m), q.Play(y.move(m))
			if y.position(a) != b.String() {
				t.Fatalf("%s %s under %+v: %s, want %s", p, m, y, b, y.position(a))
			}
			ra, wa := a.Outcome()
			rb, wb := b.Outcome()
			if w, ok := ra.Winner(); ok {
				ra = game.WinFor(y.side(w))
			}
			if ra != rb || wa != wb {
				t.Fatalf("%s %s under %+v: outcome %v %v, want %v %v", p, m, y, rb, wb, ra, wa)
			}
		}
	})
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
