package ai

import (
	"context"
	"testing"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
)

func TestBudget(t *testing.T) {
	if b := (Limits{MoveTime: time.Second}).Budget(game.First, time.Minute); b.Hard != time.Second || b.Soft != 0 {
		t.Errorf("movetime: %+v", b)
	}
	if b := (Limits{}).Budget(game.First, 3*time.Second); b.Hard != 3*time.Second {
		t.Errorf("no limits: %+v", b)
	}
	if b := (Limits{Depth: 4}).Budget(game.First, 3*time.Second); b.Hard != 0 || b.Depth != 4 {
		t.Errorf("depth only: %+v", b)
	}
	// 60 s left and 1 s increment: target 2 s + 0.75 s, hard at most 3x
	// the target and a quarter of the time left.
	l := Limits{Time: [2]time.Duration{time.Minute, time.Second}, Increment: [2]time.Duration{time.Second, 0}}
	b := l.Budget(game.First, 0)
	if b.Soft != 2750*time.Millisecond || b.Hard != 8250*time.Millisecond {
		t.Errorf("clock: %+v", b)
	}
	// Second player with 1 s left and no increment: target 1/30 of it,
	// hard three times that (below a quarter of the time left).
	if b := l.Budget(game.Second, 0); b.Hard != 3*(time.Second/30) || b.Soft != time.Second/30 {
		t.Errorf("short clock: %+v", b)
	}
	// Nothing left on the clock, no increment: at once, not the default.
	empty := Limits{Time: [2]time.Duration{time.Minute, 0}}
	if b := empty.Budget(game.Second, 3*time.Second); b.Hard != time.Millisecond {
		t.Errorf("empty clock: %+v, want the least time", b)
	}
}

// rulesKit is a search kit of Magneton's rules alone, with no evaluation
// (every leaf scores 0): this package's internal tests cannot import the
// game's own kit (package magnetonai imports this one), and a tree's reuse
// does not depend on the evaluation.
var rulesKit = &Kit[magneton.Position, magneton.Move]{
	Game:     magneton.Spec.Name,
	Eval:     func(magneton.Position) int { return 0 },
	MoveKey:  func(m magneton.Move) uint16 { return uint16(m) & 0x1fff },
	MoveKeys: 1 << 13,
	Decided: func(p magneton.Position) (game.Result, bool) {
		if w, ok := p.Winner(); ok {
			return game.WinFor(w), true
		}
		return game.Ongoing, false
	},
}

// TestMCTSTreeReuse checks that the subtree of the position reached is
// kept for the next search.
func TestMCTSTreeReuse(t *testing.T) {
	s := NewMCTS(rulesKit, 1, 1)
	p := magneton.Rules{}.StartPosition()
	if _, err := s.Search(context.Background(), p, Budget{Nodes: 20000}, nil); err != nil {
		t.Fatal(err)
	}
	// Play the most visited move and a reply, and search again.
	root := s.trees[0].root
	best := root.children[0]
	for _, c := range root.children {
		if c.visits > best.visits {
			best = c
		}
	}
	reply := best.children[0]
	for _, c := range best.children {
		if c.visits > reply.visits {
			reply = c
		}
	}
	q := p.Play(best.move).Play(reply.move)
	kept := reply.visits
	s.trees[0].reuse(q)
	if s.trees[0].root != reply || s.trees[0].root.visits != kept || kept == 0 {
		t.Errorf("the tree was not reused (root visits %v, want %v)", s.trees[0].root.visits, kept)
	}
}
