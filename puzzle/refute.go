package puzzle

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
)

// Refutation is the answer to a wrong move of a puzzle, as lichess shows
// the opponent's reply before offering a retry.
type Refutation struct {
	// Move is the wrong move, in the game's spelling; Position the
	// position after it.
	Move, Position string
	// Ends is set when the wrong move ends the game itself (Result says
	// how, for the solver's side: "loss" or "draw"); there is no reply.
	Ends   bool
	Result string
	// Reply is the opponent's answer and After the position after it.
	Reply, After string
	// ReplyWinsIn is the opponent's proven win after the wrong move, in
	// its moves (1: the reply wins at once), 0 when none is proven; the
	// reply is then the engine's best move.
	ReplyWinsIn int
	// StillWinsIn is the solver's proven win after the reply, in its
	// moves, 0 when none is left within the puzzle's moves.
	StillWinsIn int
}

// refuteMoveTime is the engine's time for the reply when no win of the
// opponent is proven: an answer while the solver waits.
const refuteMoveTime = 150 * time.Millisecond

// Refute answers the wrong move mv at the solver's turn of a puzzle's
// line that starts at ply (even): the opponent's fastest proven win if it
// has one within three moves, otherwise the engine's best move. The error
// says what is wrong with ply or mv.
func Refute(ctx context.Context, pz *Puzzle, ply int, mv string) (*Refutation, error) {
	if ply < 0 || ply%2 != 0 || ply >= len(pz.Line) {
		return nil, fmt.Errorf("puzzle %s: ply %d is not one of the solver's turns (0, 2, ... below %d)", pz.ID, ply, len(pz.Line))
	}
	s, g, err := start(pz)
	if err != nil {
		return nil, err
	}
	for _, m := range pz.Line[:ply] {
		if s, err = s.Play(m); err != nil {
			return nil, fmt.Errorf("puzzle %s: %w", pz.ID, err)
		}
	}
	spelled, err := s.Notation(mv)
	if err != nil {
		return nil, fmt.Errorf("puzzle %s: move %q: %w", pz.ID, mv, err)
	}
	if slices.Contains(pz.Accept[ply/2], spelled) {
		return nil, fmt.Errorf("puzzle %s: %s wins: it is no wrong move", pz.ID, spelled)
	}
	c, err := s.Play(spelled)
	if err != nil {
		return nil, fmt.Errorf("puzzle %s: move %q: %w", pz.ID, mv, err)
	}
	ref := &Refutation{Move: spelled, Position: c.String()}
	if res, _ := c.Outcome(); res.Over() {
		ref.Ends, ref.Result = true, "draw"
		if w, ok := res.Winner(); ok && w != s.Side() {
			ref.Result = "loss"
		}
		return ref, nil
	}
	pr := prover{g: g, ctx: ctx}
	if n, err := pr.result(c, 5); err != nil {
		return nil, err
	} else if n > 0 {
		wins, err := pr.winning(c, n)
		if err != nil {
			return nil, err
		}
		if len(wins) > 0 {
			ref.Reply, ref.ReplyWinsIn = wins[0], n
		}
	}
	if ref.Reply == "" {
		p, err := g.AI.NewPlayer("level:8", s.Rules(), ai.Config{HashMB: 4, Seed: 1})
		if err != nil {
			return nil, fmt.Errorf("puzzle %s: the engine: %w", pz.ID, err)
		}
		gm := game.NewGame(c)
		if ref.Reply, err = p.Move(ctx, gm, ai.Limits{MoveTime: refuteMoveTime}); err != nil {
			return nil, fmt.Errorf("puzzle %s: the engine's reply: %w", pz.ID, err)
		}
	}
	after, err := c.Play(ref.Reply)
	if err != nil {
		return nil, fmt.Errorf("puzzle %s: the reply %s: %w", pz.ID, ref.Reply, err)
	}
	ref.After = after.String()
	if left := pz.WinIn - ply/2 - 1; left > 0 && ref.ReplyWinsIn == 0 {
		if r, _ := after.Outcome(); !r.Over() {
			n, err := pr.result(after, 2*left-1)
			if err != nil {
				return nil, err
			}
			ref.StillWinsIn = max(n, 0)
		}
	}
	return ref, nil
}
