package ai_test

import (
	"context"
	"testing"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

// losesAtOnce reports whether the side to move at s lets the opponent win
// at once by playing m.
func losesAtOnce(t *testing.T, s game.State, m string) bool {
	t.Helper()
	next, err := s.Play(m)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := next.Outcome(); r.Over() {
		return r == game.LossFor(s.Side())
	}
	for _, reply := range next.Moves() {
		after, _ := next.Play(reply)
		if r, _ := after.Outcome(); r == game.LossFor(s.Side()) {
			return true
		}
	}
	return false
}

// TestEndgameProofs: level 8 plays crafted won positions of both games
// to the win against level 8, following the proof: once its search has
// seen the forced result, every move of the winner is the proof's (a
// proven win, within the proven number of moves), and every move of the
// loser is a proven loss that resists rather than losing at once when it
// can.
func TestEndgameProofs(t *testing.T) {
	for _, c := range []struct {
		game, position string
		winner         game.Side
		atMost         int
	}{
		{"magneton", "8/6WB/B1B3B1/W6W/8/8/5W2/WB6 b 0 0", game.Second, 6},
		{"tumbling", "bbbbbbbbbb,1,bbrbbb,bbb,b,3/bb,3,b,1,r,1/1,b,2,b,b,r,1/3,b,b,r,1,r/2,b,1,rr,r,rr,1/b,4,r,2/4,rr,r,1,rrrrr/2,rr,1,rr,1,rrr,rrr b", game.First, 2},
	} {
		gm, err := games.Lookup(c.game)
		if err != nil {
			t.Fatal(err)
		}
		rules := gm.Spec.New(gm.Spec.Defaults())
		start, err := rules.ParsePosition(c.position)
		if err != nil {
			t.Fatal(err)
		}
		var players [2]ai.Thinker
		for i := range players {
			p, err := games.NewPlayer("level:8", rules, ai.Config{HashMB: 4, Seed: int64(i + 1)})
			if err != nil {
				t.Fatal(err)
			}
			players[i] = p.(ai.Thinker)
		}
		g := game.NewGame(start)
		moves, proven := 0, 0
		for ply := 0; ply < 4*c.atMost; ply++ {
			if r, _ := g.Result(); r.Over() {
				break
			}
			s := g.Position()
			in, err := players[s.Side()].Think(context.Background(), g, ai.Limits{MoveTime: 200 * time.Millisecond}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if s.Side() == c.winner {
				moves++
			}
			if in.Proven != nil {
				proven++
				if want := game.WinFor(c.winner); in.Proven.Result != want || in.BestMove != in.Proven.Move {
					t.Errorf("%s %s: %+v, want a proof of %s and its move", c.game, s, *in.Proven, want)
				}
				if s.Side() != c.winner && losesAtOnce(t, s, in.BestMove) {
					for _, m := range s.Moves() {
						if !losesAtOnce(t, s, m) {
							t.Errorf("%s %s: the loser plays %s, which loses at once, not %s", c.game, s, in.BestMove, m)
							break
						}
					}
				}
			}
			t.Logf("%s %s: %s mate %d proven %v", c.game, s, in.BestMove, in.Mate, in.Proven != nil)
			if err := g.Play(in.BestMove); err != nil {
				t.Fatal(err)
			}
		}
		if r, _ := g.Result(); r != game.WinFor(c.winner) || moves > c.atMost {
			t.Errorf("%s: %s after %d moves of the winner (%v), want its win in at most %d", c.game, r, moves, g.Moves(), c.atMost)
		}
		if proven == 0 {
			t.Errorf("%s: no move was a proof's", c.game)
		}
	}
}
