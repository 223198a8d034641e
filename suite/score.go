package suite

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/elo"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

// Verify checks entries with the prover: each position reads and is not
// over, no two are equal up to symmetry, and classifying it again gives
// the same entry (kind, N and moves). It returns the first mistake, with
// the entry's number (from 1) and source.
func Verify(ctx context.Context, entries []*Entry, nodes int64, progress func(done int)) error {
	seen := map[string]int{}
	for i, e := range entries {
		gm, err := games.Lookup(e.Game)
		if err != nil {
			return fmt.Errorf("entry %d: %w", i+1, err)
		}
		s, err := e.State()
		if err != nil {
			return fmt.Errorf("entry %d (%s): %w", i+1, e.Source, err)
		}
		key := e.Game + "\t" + e.Rules + "\t" + gm.Spec.Canonical(s.String())
		if j, dup := seen[key]; dup {
			return fmt.Errorf("entry %d (%s): equal up to symmetry to entry %d", i+1, e.Source, j)
		}
		seen[key] = i + 1
		got, err := Prover{Game: gm, Nodes: nodes}.Classify(ctx, s)
		if err != nil {
			return fmt.Errorf("entry %d (%s): %w", i+1, e.Source, err)
		}
		if got == nil || got.Kind != e.Kind || got.N != e.N || !slices.Equal(got.Moves, e.Moves) {
			return fmt.Errorf("entry %d (%s): the file says %s, the prover says %s", i+1, e.Source, describe(e), describe(got))
		}
		if progress != nil {
			progress(i + 1)
		}
	}
	return nil
}

// describe says what an entry claims.
func describe(e *Entry) string {
	switch {
	case e == nil:
		return "no entry (neither a win in 3 to 12 nor a hold)"
	case e.Kind == Win:
		return fmt.Sprintf("a win in %d by %v", e.N, e.Moves)
	}
	return fmt.Sprintf("a hold where %d moves lose and %v do not", e.N, e.Moves)
}

// Scorer plays a player's move in each entry's position and checks it.
type Scorer struct {
	Player   string // a name games.NewPlayer knows: "level:8", "simple-ab"
	MoveTime time.Duration
	HashMB   int
	Nodes    int64 // the prover's budget of a check
}

// Result is one entry's outcome.
type Result struct {
	Entry *Entry
	Move  string
	Kept  bool
}

// Tally counts the entries a player kept.
type Tally struct {
	Kept, Total int
}

// Share returns the share kept and its 95% Wilson interval.
func (t Tally) Share() (p, lo, hi float64) { return elo.Proportion(t.Kept, t.Total) }

// String writes the tally as "97.3% (292/300, 95%: 94.8% to 98.6%)".
func (t Tally) String() string {
	p, lo, hi := t.Share()
	return fmt.Sprintf("%.1f%% (%d/%d, 95%%: %.1f%% to %.1f%%)", 100*p, t.Kept, t.Total, 100*lo, 100*hi)
}

// Report is a player's score on a suite, by kind and in all.
type Report struct {
	Kinds map[Kind]*Tally
	All   Tally
}

// Score plays the player once in each entry's position, with a fresh
// game (no history: the position alone), and checks the move with the
// prover. It calls each, if not nil, with every result.
func (sc Scorer) Score(ctx context.Context, entries []*Entry, each func(Result)) (Report, error) {
	rep := Report{Kinds: map[Kind]*Tally{Win: {}, Hold: {}}}
	for i, e := range entries {
		res, err := sc.one(ctx, e)
		if err != nil {
			return rep, fmt.Errorf("entry %d (%s): %w", i+1, e.Source, err)
		}
		t := rep.Kinds[e.Kind]
		t.Total++
		rep.All.Total++
		if res.Kept {
			t.Kept++
			rep.All.Kept++
		}
		if each != nil {
			each(res)
		}
	}
	return rep, ctx.Err()
}

// one scores one entry.
func (sc Scorer) one(ctx context.Context, e *Entry) (Result, error) {
	gm, err := games.Lookup(e.Game)
	if err != nil {
		return Result{}, err
	}
	s, err := e.State()
	if err != nil {
		return Result{}, err
	}
	// A player is made for each entry, so that nothing it learnt in one
	// position (its transposition table) helps it in the next.
	p, err := games.NewPlayer(sc.Player, s.Rules(), ai.Config{HashMB: sc.HashMB, Seed: 1})
	if err != nil {
		return Result{}, err
	}
	m, err := p.Move(ctx, game.NewGame(s), ai.Limits{MoveTime: sc.MoveTime})
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", sc.Player, err)
	}
	kept, err := Prover{Game: gm, Nodes: sc.Nodes}.Check(ctx, e, m)
	return Result{Entry: e, Move: m, Kept: kept}, err
}
