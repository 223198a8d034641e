package suite

import (
	"context"
	"fmt"
	"slices"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/puzzle"
	"github.com/magneton-games/magneton/record"
)

// Builder gathers a suite from real games and puzzles.
type Builder struct {
	Prover Prover
	// Rules are the rules of the suite: games and puzzles under other
	// rules are left out.
	Rules game.Rules
	// Want bounds the entries of each kind; Skip is the opening plies of
	// a game left out (decided by the opening, not the players);
	// PerGame bounds the entries of one kind taken from one game, so that
	// the suite is not a few games' endings.
	Want, Skip, PerGame int
	// Progress, if not nil, is told each source as it is done.
	Progress func(source string, wins, holds int)

	entries []*Entry
	seen    map[string]bool
	count   map[Kind]int
}

// Entries returns the entries gathered so far: wins first, then holds,
// each in the order found.
func (b *Builder) Entries() []*Entry {
	var out []*Entry
	for _, k := range []Kind{Win, Hold} {
		for _, e := range b.entries {
			if e.Kind == k {
				out = append(out, e)
			}
		}
	}
	return out
}

// Full reports whether both kinds have Want entries.
func (b *Builder) Full() bool { return b.count[Win] >= b.Want && b.count[Hold] >= b.Want }

// add classifies s and keeps its entry unless its kind is full, the
// source gave its share of that kind, or an equal position up to
// symmetry is in already.
//
// With derive set, a hold brings the positions after its losing moves
// too (addLosing), kept or not.
func (b *Builder) add(ctx context.Context, s game.State, source string, taken map[Kind]int, derive bool) error {
	if b.seen == nil {
		b.seen, b.count = map[string]bool{}, map[Kind]int{}
	}
	key := b.Rules.Spec().Canonical(s.String())
	if b.seen[key] {
		return nil
	}
	b.seen[key] = true
	e, err := b.Prover.Classify(ctx, s)
	if err != nil || e == nil {
		return err
	}
	if b.count[e.Kind] < b.Want && (b.PerGame == 0 || taken[e.Kind] < b.PerGame) {
		e.Source = source
		b.entries = append(b.entries, e)
		b.count[e.Kind]++
		taken[e.Kind]++
	}
	// The losing moves of a hold are looked at even when the holds are
	// full: they are where most wins come from.
	if e.Kind == Hold && derive {
		return b.addLosing(ctx, s, e, source, taken)
	}
	return nil
}

// addLosing adds the positions after the losing moves of a hold entry's
// position: the opponent then wins by force, and those that win in
// MinWin moves or more are win entries. These are real games' positions
// with one move changed, the mistakes the game invited.
func (b *Builder) addLosing(ctx context.Context, s game.State, e *Entry, source string, taken map[Kind]int) error {
	for _, m := range s.Moves() {
		if slices.Contains(e.Moves, m) || b.count[Win] >= b.Want || (b.PerGame > 0 && taken[Win] >= b.PerGame) {
			continue
		}
		c, err := s.Play(m)
		if err != nil {
			return err
		}
		if err := b.add(ctx, c, source+", then "+m+" (a losing move)", taken, false); err != nil {
			return err
		}
	}
	return nil
}

// sameRules reports whether rules are the suite's.
func (b *Builder) sameRules(r game.Rules) bool {
	return r.Spec() == b.Rules.Spec() && r.Settings().String() == b.Rules.Settings().String()
}

// AddRecords adds the positions of the games of a file of records (as the
// match runner writes them with --pgn), after the first Skip plies of
// each; name names the file in the entries' sources.
func (b *Builder) AddRecords(ctx context.Context, name, text string) error {
	recs, err := record.ParseAll(text)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	for i, rec := range recs {
		if b.Full() || ctx.Err() != nil {
			break
		}
		g, err := rec.Replay()
		if err != nil {
			return fmt.Errorf("%s, game %d: %w", name, i+1, err)
		}
		if !b.sameRules(g.Rules()) {
			continue
		}
		names := g.Rules().Spec().SideNames
		players := rec.Tag(names[0]) + " - " + rec.Tag(names[1])
		taken := map[Kind]int{}
		for ply, s := range g.States() {
			if ply < b.Skip {
				continue
			}
			src := fmt.Sprintf("%s game %d (%s) after %d moves", name, i+1, players, ply)
			if err := b.add(ctx, s, src, taken, true); err != nil {
				return err
			}
		}
		b.progress(fmt.Sprintf("%s game %d", name, i+1))
	}
	return ctx.Err()
}

// AddPuzzles adds the positions of puzzles under the suite's rules: each
// puzzle's position and those on its solution line.
func (b *Builder) AddPuzzles(ctx context.Context, puzzles []*puzzle.Puzzle) error {
	for _, pz := range puzzles {
		if b.Full() || ctx.Err() != nil {
			break
		}
		if pz.Game != b.Rules.Spec().Name || pz.Rules != b.Rules.Settings().String() {
			continue
		}
		s, err := b.Rules.ParsePosition(pz.Position)
		if err != nil {
			return fmt.Errorf("puzzle %s: %w", pz.ID, err)
		}
		taken := map[Kind]int{}
		for i := 0; ; i++ {
			if err := b.add(ctx, s, "puzzle "+pz.ID+movesNote(i), taken, true); err != nil {
				return err
			}
			if i >= len(pz.Line) {
				break
			}
			if s, err = s.Play(pz.Line[i]); err != nil {
				return fmt.Errorf("puzzle %s, move %d: %w", pz.ID, i+1, err)
			}
			if r, _ := s.Outcome(); r.Over() {
				break
			}
		}
	}
	b.progress("puzzles")
	return ctx.Err()
}

// movesNote says how far along a puzzle's line a position is.
func movesNote(i int) string {
	if i == 0 {
		return ""
	}
	return fmt.Sprintf(" after %d moves of its line", i)
}

func (b *Builder) progress(source string) {
	if b.Progress != nil {
		b.Progress(source, b.count[Win], b.count[Hold])
	}
}
