package suite

import (
	"context"
	"fmt"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

// DefaultNodes is the proof search's budget of one ForcedResult call in
// the builder, Verify and Score, unless told otherwise.
const DefaultNodes = 30_000

// Prover settles positions with a game's proof search
// (ai.Profile.ForcedResult), each call within Nodes nodes. The same
// budget must be used to build, verify and score a suite: a smaller one
// may miss a proof the builder found.
type Prover struct {
	Game  *games.Game
	Nodes int64
}

// forced is ForcedResult of s within plies.
func (p Prover) forced(ctx context.Context, s game.State, plies int) (int, error) {
	if plies <= 0 {
		return 0, nil
	}
	return p.Game.AI.ForcedResult(ctx, s, plies, p.Nodes)
}

// after plays m in s; over reports whether the game ended, won whether the
// mover won it.
func after(s game.State, m string) (c game.State, over, won bool, err error) {
	c, err = s.Play(m)
	if err != nil {
		return nil, false, false, err
	}
	r, _ := c.Outcome()
	return c, r.Over(), r == game.WinFor(s.Side()), nil
}

// winsWithin reports whether move m of s wins by force within n of the
// mover's moves: it wins at once, or the opponent is proven lost within
// 2n-2 plies.
func (p Prover) winsWithin(ctx context.Context, s game.State, m string, n int) (bool, error) {
	c, over, won, err := after(s, m)
	if err != nil || over {
		return won, err
	}
	r, err := p.forced(ctx, c, 2*n-2)
	return r < 0, err
}

// loses reports whether move m of s loses by force: it loses at once, or
// the opponent then has a forced win within Horizon-1 plies.
func (p Prover) loses(ctx context.Context, s game.State, m string) (bool, error) {
	c, over, won, err := after(s, m)
	if err != nil || over {
		return over && !won, err
	}
	r, err := p.forced(ctx, c, Horizon-1)
	return r > 0, err
}

// Classify returns the entry s makes, or nil when it makes none: a win
// entry when the side to move has a proven win in MinWin to MaxWin moves,
// a hold entry when it has no proven win or loss and all its moves but 1
// to MaxSafe lose by force (at least MinLosing of them, and at least
// twice as many as those that do not). The entry's
// Game, Rules and Position are filled in; Source is the caller's.
func (p Prover) Classify(ctx context.Context, s game.State) (*Entry, error) {
	if r, _ := s.Outcome(); r.Over() {
		return nil, nil
	}
	r, err := p.forced(ctx, s, 2*MaxWin-1)
	if err != nil {
		return nil, fmt.Errorf("classify %s: %w", s, err)
	}
	e := &Entry{Game: s.Rules().Spec().Name, Rules: s.Rules().Settings().String(), Position: s.String()}
	switch {
	case r >= MinWin && r <= MaxWin:
		e.Kind, e.N = Win, r
		for _, m := range s.Moves() {
			ok, err := p.winsWithin(ctx, s, m, r)
			if err != nil {
				return nil, fmt.Errorf("classify %s, move %s: %w", s, m, err)
			}
			if ok {
				e.Moves = append(e.Moves, m)
			}
		}
	case r == 0:
		moves := s.Moves()
		if len(moves) < MinLosing+1 {
			return nil, nil
		}
		e.Kind = Hold
		for _, m := range moves {
			lost, err := p.loses(ctx, s, m)
			if err != nil {
				return nil, fmt.Errorf("classify %s, move %s: %w", s, m, err)
			}
			if !lost {
				if e.Moves = append(e.Moves, m); len(e.Moves) > MaxSafe {
					return nil, nil // more than a few hold: no test of a player
				}
			}
		}
		e.N = len(moves) - len(e.Moves)
		if e.N < 2*len(e.Moves) || e.N < MinLosing {
			return nil, nil // not "every move but a few"
		}
	}
	if len(e.Moves) == 0 {
		return nil, nil
	}
	return e, nil
}

// Check reports whether move m, played by a player in e's position, keeps
// the entry's proven result, by the prover's search after the move: for a
// win, the opponent is proven lost within e.Plies(); for a hold, the
// opponent has no forced win within it.
func (p Prover) Check(ctx context.Context, e *Entry, m string) (bool, error) {
	s, err := e.State()
	if err != nil {
		return false, err
	}
	if e.Kind == Win {
		return p.winsWithin(ctx, s, m, e.N+1)
	}
	lost, err := p.loses(ctx, s, m)
	return !lost, err
}
