package ai

import (
	"time"

	"github.com/magneton-games/magneton/game"
)

// Budget is what one search may spend. Hard stops the search wherever it
// is; after Soft no new iteration starts. Zero fields are unlimited.
type Budget struct {
	Hard  time.Duration
	Soft  time.Duration
	Depth int
	Nodes int64
}

// Budget turns a player's limits into a search budget for side: a fixed
// time per move is used in full; a game clock gives a share of the
// remaining time plus most of the increment, never more than a quarter
// of what is left. def is used when no limit at all is given.
func (l Limits) Budget(side game.Side, def time.Duration) Budget {
	b := Budget{Depth: l.Depth, Nodes: l.Nodes}
	switch {
	case l.MoveTime > 0:
		b.Hard = l.MoveTime
	case l.Time[side] > 0 || l.Increment[side] > 0 || l.Time[side.Other()] > 0:
		// A game with a clock: even with nothing left (a flag about to
		// fall) the player answers at once, not after the default.
		left, inc := l.Time[side], l.Increment[side]
		target := left/30 + inc*3/4
		hard := min(left/4, target*3)
		if hard < time.Millisecond {
			hard = time.Millisecond
		}
		b.Hard = hard
		b.Soft = min(target, hard)
	case l.Depth == 0 && l.Nodes == 0:
		b.Hard = def
	}
	return b
}

// after is the budget left once spent has gone on other work of the same
// move (the threat search): the times shrink, to a millisecond at least.
func (b Budget) after(spent time.Duration) Budget {
	if b.Hard > 0 {
		b.Hard = max(b.Hard-spent, time.Millisecond)
	}
	if b.Soft > 0 {
		b.Soft = max(b.Soft-spent, time.Millisecond)
	}
	return b
}

// share is the budget with its times cut to num/den of themselves.
func (b Budget) share(num, den int64) Budget {
	b.Hard = time.Duration(int64(b.Hard) * num / den)
	b.Soft = time.Duration(int64(b.Soft) * num / den)
	return b
}
