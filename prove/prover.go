package prove

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
)

// Game is the solver of one game seen through the game-neutral dynamic
// interface, as the command line uses it; For makes one from a game's
// computer players (their kit holds the win-in-one and threat tests).
type Game interface {
	// Solve settles s, a position with no history, for its side to move:
	// a win, a loss, or a draw (neither side can force a win), until
	// opts' limits or ctx end it (Report.Result then Ongoing).
	Solve(ctx context.Context, s game.State, opts Options) (*Report, error)
	// Split answers Solve's first question with the root's moves
	// searched apart on workers goroutines (see solverOf.Split).
	Split(ctx context.Context, s game.State, opts Options, workers int) (*Report, error)
	// Prover returns a prover of the game for the places where the
	// engine speaks (the analysis, the engine protocol, the computer
	// players' endgame): small proof searches that keep a table of
	// hashMiB MiB from one to the next.
	Prover(hashMiB int) ai.Prover
}

// Options are the limits and outputs of a Solve.
type Options struct {
	HashMiB  int   // the table's size, when it is not loaded from Table
	MaxNodes int64 // stop after this many expansions (0: no limit)
	// Table, if not empty, is a file the table is loaded from, when it
	// exists, and saved to at the end: a run stopped by its limits goes
	// on where it stopped when run again.
	Table string
	// Certificate asks for the proof of a win or loss, or of a draw.
	Certificate bool
	// OpponentFirst asks first whether the side not to move wins: the
	// question to spend a budget on when that side is believed to win.
	OpponentFirst bool
	Progress      func(Progress)
	Interval      time.Duration // between progress reports; 0 for a second
}

// Report is what a Solve settled.
type Report struct {
	// Result is the game's result with best play: a win of one side, a
	// draw, or Ongoing when the limits ended the search first.
	Result game.Result
	// ToMove and Opponent answer "does this side win by force?" for the
	// side to move and the other: Disproven for the side to move and
	// Unknown for the other is "the side to move cannot win".
	ToMove, Opponent Value
	// Plies is the length of the proof of a win or loss found (the
	// winner's moves and the loser's replies; not always the shortest).
	Plies       int
	Nodes       int64
	Elapsed     time.Duration
	TableMiB    float64
	Certificate *Certificate // for a win or loss when asked for
	// Draw, for a draw when asked for, are the proofs that each side
	// does not lose (Certificate.Holds), indexed by the side.
	Draw [2]*Certificate
	// CertificateErr says why a certificate asked for is missing: the
	// limits ran out while it was written, say.
	CertificateErr error
	// Last is the last question's state at its end: how far an
	// unsettled one got.
	Last Progress
	// Moves, from Split only, is what the search learnt of each of the
	// root's moves, in the order they were searched.
	Moves []MoveReport
}

// MoveReport is what a split search learnt of one of the root's moves,
// for the attacker: proven, disproven, or how far it got.
type MoveReport struct {
	Move   string
	Value  Value
	Plies  int    // the proof's length below the move, when proven
	PN, DN uint32 // the attacker's numbers at its last look
	Nodes  int64
}

// For makes the solver of the game whose computer players pr is, with
// positions P and moves M.
func For[P game.Position[P, M], M comparable](pr ai.Profile) Game {
	return solverOf[P, M]{pr: pr}
}

type solverOf[P game.Position[P, M], M comparable] struct{ pr ai.Profile }

// root reads the position a search starts from, with the kit of its
// rules; verb names the search in the errors.
func (so solverOf[P, M]) root(verb string, s game.State) (P, *ai.Kit[P, M], error) {
	p, ok := game.Unwrap[P, M](s)
	if !ok {
		return p, nil, fmt.Errorf("%s: the position is not one of %s", verb, so.pr.Spec().Title)
	}
	if r, _ := p.Outcome(); r.Over() {
		return p, nil, fmt.Errorf("%s: the game is over (%s)", verb, r)
	}
	kit, err := ai.KitFor[P, M](so.pr, s.Rules())
	if err != nil {
		return p, nil, fmt.Errorf("%s: %w", verb, err)
	}
	return p, kit, nil
}

func (so solverOf[P, M]) Solve(ctx context.Context, s game.State, opts Options) (*Report, error) {
	rules := s.Rules()
	p, kit, err := so.root("solve", s)
	if err != nil {
		return nil, err
	}
	sv := New(kit, max(opts.HashMiB, 1))
	label := rules.Spec().Name + " " + rules.Settings().String()
	if opts.Table != "" {
		t, err := loadTable(opts.Table, label)
		switch {
		case err == nil:
			sv.tt = t
		case !errors.Is(err, errNoTable):
			return nil, fmt.Errorf("solve: %w", err)
		}
	}
	sv.MaxNodes, sv.Progress = opts.MaxNodes, opts.Progress
	if opts.Interval > 0 {
		sv.Interval = opts.Interval
	}
	start := time.Now()
	rep := &Report{TableMiB: sv.tt.MiB()}
	// Ask about one side, and about the other only when the first
	// cannot win: both failing is a draw.
	first := &rep.ToMove
	second := &rep.Opponent
	side := p.Side()
	if opts.OpponentFirst {
		first, second, side = second, first, side.Other()
	}
	var plies int
	*first, plies = sv.Prove(ctx, p, side)
	switch *first {
	case Proven:
		rep.Result, rep.Plies = game.WinFor(side), plies
	case Disproven:
		*second, plies = sv.Prove(ctx, p, side.Other())
		switch *second {
		case Proven:
			rep.Result, rep.Plies = game.LossFor(side), plies
		case Disproven:
			rep.Result = game.Draw
		}
	}
	// A certificate that cannot be written within the limits leaves the
	// result and the table as they are: run again with the table to
	// write it.
	if w, ok := rep.Result.Winner(); ok && opts.Certificate {
		if rep.Certificate, err = sv.Certificate(ctx, p, w, rules); err != nil {
			rep.Certificate, rep.CertificateErr = nil, err
		}
	}
	if rep.Result == game.Draw && opts.Certificate {
		for _, holder := range []game.Side{game.First, game.Second} {
			if rep.Draw[holder], err = sv.Holds(ctx, p, holder.Other(), rules); err != nil {
				rep.Draw, rep.CertificateErr = [2]*Certificate{}, err
				break
			}
		}
	}
	rep.Nodes, rep.Elapsed, rep.Last = sv.Nodes(), time.Since(start), sv.progress()
	if opts.Table != "" {
		if err := sv.tt.save(opts.Table, label); err != nil {
			return rep, fmt.Errorf("solve: %w", err)
		}
	}
	return rep, nil
}
