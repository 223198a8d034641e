package book_test

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/magneton-games/magneton/book"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

// rulesFor builds a certificate's rules, as the binary does.
func rulesFor(name, settings string) (game.Rules, error) { return games.Rules(name, settings) }

var embedded = sync.OnceValues(func() (*book.Book, error) { return book.Embedded(rulesFor) })

func mustBook(t testing.TB) *book.Book {
	t.Helper()
	b, err := embedded()
	if err != nil {
		t.Fatalf("the embedded book: %v", err)
	}
	return b
}

func start(t testing.TB, name string, settings ...string) game.State {
	t.Helper()
	rules, err := games.Rules(name, settings...)
	if err != nil {
		t.Fatal(err)
	}
	return rules.Start()
}

// TestStarts: the book knows Tumbling Down's start, under the default
// rules and PBeM's captures, as Black's win in 7 (docs/proofs), with the
// proof's first move and a line that ends the game; it knows nothing of
// Magneton's start, which no certificate settles.
func TestStarts(t *testing.T) {
	b := mustBook(t)
	for _, tc := range []struct {
		name     string
		settings []string
	}{
		{"tumbling", nil},
		{"tumbling", []string{"capture=pbem"}},
	} {
		s := start(t, tc.name, tc.settings...)
		pf, ok := b.Lookup(s, nil)
		if !ok {
			t.Fatalf("%s %v: the start is not in the book", tc.name, tc.settings)
		}
		if w, _ := pf.Result.Winner(); w != s.Side() || pf.Moves != 7 || pf.Move != "a7>a8" {
			t.Errorf("%s %v: the book says %+v; want a win of the side to move in 7 with a7>a8", tc.name, tc.settings, pf)
		}
		end := s
		for i, m := range pf.Line {
			next, err := end.Play(m)
			if err != nil {
				t.Fatalf("the line %v: move %d: %v", pf.Line, i+1, err)
			}
			end = next
		}
		if r, _ := end.Outcome(); r != game.WinFor(s.Side()) || len(pf.Line) > 2*pf.Moves-1 {
			t.Errorf("the line %v (%d plies) ends in %v; want a win of %v in at most %d plies", pf.Line, len(pf.Line), r, s.Side(), 2*pf.Moves-1)
		}
	}
	if _, ok := b.Lookup(start(t, "magneton"), nil); ok {
		t.Error("the book claims Magneton's start")
	}
	if b.Positions() < 100_000 {
		t.Errorf("the book holds %d positions; the two Tumbling Down starts alone have 110,757", b.Positions())
	}
}

// TestFollowingTheBook (property): from Tumbling Down's start, the winner
// playing the book's moves against any replies wins within the proof's
// seven moves; every position on the way is in the book, its count of
// moves never growing, and the loser's book move is the longest
// resistance (its count the position's own).
func TestFollowingTheBook(t *testing.T) {
	b := mustBook(t)
	root := start(t, "tumbling")
	rapid.Check(t, func(rt *rapid.T) {
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 1))
		s, winner := root, root.Side()
		var hist []uint64
		last, winnerMoves := 8, 0
		for {
			if r, _ := s.Outcome(); r.Over() {
				if r != game.WinFor(winner) || winnerMoves > 7 {
					rt.Fatalf("the game ended %v after %d of the winner's moves", r, winnerMoves)
				}
				return
			}
			pf, ok := b.Lookup(s, hist)
			if !ok {
				rt.Fatalf("%s is not in the book", s)
			}
			if pf.Moves > last {
				rt.Fatalf("%s: %d moves to the win, up from %d", s, pf.Moves, last)
			}
			last = pf.Moves
			move := pf.Move
			if s.Side() == winner {
				winnerMoves++
			} else if rapid.Bool().Draw(rt, "the loser's book move") {
				next, err := s.Play(move)
				if err != nil {
					rt.Fatal(err)
				}
				if pn, ok := b.Lookup(next, nil); ok && pn.Moves != pf.Moves {
					rt.Fatalf("%s: the longest resistance %s leads to a win in %d, not %d", s, move, pn.Moves, pf.Moves)
				}
			} else {
				legal := s.Moves()
				move = legal[rng.IntN(len(legal))]
			}
			hist = append(hist, s.Hash())
			next, err := s.Play(move)
			if err != nil {
				rt.Fatalf("%s: %s: %v", s, move, err)
			}
			s = next
		}
	})
}

// TestRepetition: a game whose positions have already occurred twice could
// be drawn by the third occurrence on a line of the proof: the book says
// nothing of it.
func TestRepetition(t *testing.T) {
	b := mustBook(t)
	s := start(t, "tumbling")
	if _, ok := b.Lookup(s, []uint64{1, 2, 3}); !ok {
		t.Fatal("a game without repetition is refused")
	}
	if _, ok := b.Lookup(s, []uint64{1, 2, 1}); ok {
		t.Error("a game with a position twice is answered")
	}
}

// TestBadCertificates: a certificate the rules refute is not added, and
// the error says what is wrong and where.
func TestBadCertificates(t *testing.T) {
	good := "magneton-proof v1\ngame magneton\nrules force=strong,movement=any-magnet,no-moves=loses,repetition=3,win=mover-only\nposition 8/6WB/B1B3B1/W6W/8/8/5W2/WB6 b 0 0\nwinner b\nnodes 1\n"
	for _, tc := range []struct{ name, file, want string }{
		{"not a certificate", "hello\n", "not a proof certificate"},
		{"unknown game", strings.Replace(good, "game magneton", "game chess", 1) + "0 a1 *\n", "chess"},
		{"a move that does not win", good + "0 a1 *\n", "node 0"},
	} {
		err := book.New().Read(strings.NewReader(tc.file), rulesFor)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Read says %v; want an error naming %q", tc.name, err, tc.want)
		}
	}
}
