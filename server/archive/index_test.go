package archive

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/store"
)

// randomGame plays up to plies random moves from rules' start and returns
// the row of the finished game and its moves.
func randomGame(t testing.TB, rules game.Rules, rng *rand.Rand, plies int) (*store.Game, []string) {
	t.Helper()
	s := rules.Start()
	var moves []string
	for len(moves) < plies {
		if r, _ := s.Outcome(); r.Over() {
			break
		}
		m, ok := s.RandomMove(rng)
		if !ok {
			break
		}
		next, err := s.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		moves, s = append(moves, m), next
	}
	return &store.Game{
		ID: "g", Game: rules.Spec().Name, Rules: rules.Settings().String(), Start: rules.Start().String(),
		Status: store.Finished, Result: "1-0",
	}, moves
}

// TestIndexSymmetry: a game and its image under each of the board's
// symmetries add the same rows, the moves made by the same side (the
// other seat when the symmetry swaps the colours).
func TestIndexSymmetry(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, gm := range games.All() {
		rules := gm.Spec.New(gm.Spec.Defaults())
		if len(gm.Spec.Symmetries) == 0 {
			continue
		}
		for round := range 6 {
			g, moves := randomGame(t, rules, rng, 20+round*10)
			want, err := Index(g, moves)
			if err != nil {
				t.Fatal(err)
			}
			for _, y := range gm.Spec.Symmetries {
				img := *g
				img.Start = y.Position(g.Start)
				mm := make([]string, len(moves))
				for i, m := range moves {
					mm[i] = y.Move(m)
				}
				got, err := Index(&img, mm)
				if err != nil {
					t.Fatalf("%s, %s: %v", gm.Spec.Name, y.Name, err)
				}
				exp := *want
				if y.SwapsSides {
					exp.Moves = append([]store.ArchiveMove(nil), want.Moves...)
					for i := range exp.Moves {
						exp.Moves[i].Seat = 1 - exp.Moves[i].Seat
					}
				}
				if d := cmp.Diff(&exp, got); d != "" {
					t.Fatalf("%s, %s, %d moves: the image's entry differs (-want +got):\n%s", gm.Spec.Name, y.Name, len(moves), d)
				}
			}
		}
	}
}

// TestIndexSymmetricStart: the first moves of Magneton, on an empty board
// that every symmetry maps onto itself, count as few as they are apart:
// the 64 first drops are 10 (the squares of one eighth of the board,
// diagonal included).
func TestIndexSymmetricStart(t *testing.T) {
	rules, err := games.Rules("magneton")
	if err != nil {
		t.Fatal(err)
	}
	f := FrameOf(rules.Start())
	seen := map[string]bool{}
	for _, m := range rules.Start().Moves() {
		seen[f.Move(m)] = true
	}
	if len(seen) != 10 {
		t.Errorf("the 64 first drops are %d up to symmetry, want 10: %v", len(seen), seen)
	}
}

// TestIndexRepeats: a game's position and move counted once however often
// the game comes back to them; every position, the last included.
func TestIndexRepeats(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, gm := range games.All() {
		rules := gm.Spec.New(gm.Spec.Defaults())
		for range 20 {
			g, moves := randomGame(t, rules, rng, 200)
			e, err := Index(g, moves)
			if err != nil {
				t.Fatal(err)
			}
			if e.Plies != len(moves) || len(e.Moves) > len(moves) || len(e.Positions) > len(moves)+1 || len(e.Positions) == 0 {
				t.Fatalf("%d moves: %d moves and %d positions indexed", len(moves), len(e.Moves), len(e.Positions))
			}
			seen := map[int64]bool{}
			for _, p := range e.Positions {
				if seen[p.Pos] {
					t.Fatalf("position %x twice", p.Pos)
				}
				seen[p.Pos] = true
			}
			for _, m := range e.Moves {
				if !seen[m.Pos] {
					t.Fatalf("move %s from a position not listed", m.Move)
				}
			}
		}
	}
}

// TestIndexErrors: a game whose rules, start or moves do not read says
// which.
func TestIndexErrors(t *testing.T) {
	rules, _ := games.Rules("magneton")
	good := &store.Game{ID: "x", Game: "magneton", Rules: rules.Settings().String(), Start: rules.Start().String(), Status: store.Finished, Result: "1-0"}
	for _, c := range []struct {
		name  string
		edit  func(g *store.Game)
		moves []string
	}{
		{"game", func(g *store.Game) { g.Game = "chess" }, nil},
		{"rules", func(g *store.Game) { g.Rules = "win=nonsense" }, nil},
		{"start", func(g *store.Game) { g.Start = "not a position" }, nil},
		{"move", func(g *store.Game) {}, []string{"d4", "d4"}},
	} {
		g := *good
		c.edit(&g)
		if _, err := Index(&g, c.moves); err == nil {
			t.Errorf("%s: no error", c.name)
		} else {
			t.Logf("%s: %v", c.name, err)
		}
	}
}

func TestSpeed(t *testing.T) {
	for _, c := range []struct {
		initial, inc time.Duration
		perMove      bool
		want         string
	}{
		{0, 0, false, "untimed"},
		{24 * time.Hour, 0, true, "correspondence"},
		{time.Minute, 0, false, "bullet"},
		{2 * time.Minute, time.Second, false, "bullet"},
		{3 * time.Minute, 0, false, "blitz"},
		{5 * time.Minute, 3 * time.Second, false, "blitz"},
		{10 * time.Minute, 0, false, "rapid"},
		{15 * time.Minute, 10 * time.Second, false, "rapid"},
		{30 * time.Minute, 0, false, "classical"},
	} {
		if got := Speed(c.initial, c.inc, c.perMove); got != c.want {
			t.Errorf("Speed(%v, %v, %v) = %s, want %s", c.initial, c.inc, c.perMove, got, c.want)
		}
	}
}

// BenchmarkIndex: indexing a finished game of 60 moves (the rows only;
// the store's writes are measured in the store's benchmark).
func BenchmarkIndex(b *testing.B) {
	for _, gm := range games.All() {
		rules := gm.Spec.New(gm.Spec.Defaults())
		rng := rand.New(rand.NewPCG(5, 6))
		g, moves := randomGame(b, rules, rng, 60)
		b.Run(gm.Spec.Name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Index(g, moves); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
