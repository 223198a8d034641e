package game

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
)

// Adapt wraps a position of a concrete game as a State. Games use it to
// implement their Rules without writing the dynamic interface twice. A
// position type that has a method Diagram(color bool) string draws itself
// in State.Diagram; others show their position text.
func Adapt[P Position[P, M], M comparable](p P, r Rules) State {
	return adapted[P, M]{pos: p, rules: r}
}

type adapted[P Position[P, M], M comparable] struct {
	pos   P
	rules Rules
}

// Unwrap returns the concrete position inside a State made by Adapt, for
// code that knows which game it holds.
func Unwrap[P Position[P, M], M comparable](s State) (P, bool) {
	a, ok := s.(adapted[P, M])
	return a.pos, ok
}

func (a adapted[P, M]) Side() Side                 { return a.pos.Side() }
func (a adapted[P, M]) Outcome() (Result, *Ending) { return a.pos.Outcome() }
func (a adapted[P, M]) Hash() uint64               { return a.pos.Hash() }
func (a adapted[P, M]) String() string             { return a.pos.String() }
func (a adapted[P, M]) Rules() Rules               { return a.rules }

func (a adapted[P, M]) Moves() []string {
	moves := a.pos.AppendMoves(nil)
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = a.pos.FormatMove(m)
	}
	slices.Sort(out)
	return out
}

func (a adapted[P, M]) Play(move string) (State, error) {
	m, err := a.pos.ParseMove(move)
	if err != nil {
		return nil, err
	}
	return adapted[P, M]{pos: a.pos.Play(m), rules: a.rules}, nil
}

func (a adapted[P, M]) Notation(move string) (string, error) {
	m, err := a.pos.ParseMove(move)
	if err != nil {
		return "", err
	}
	return a.pos.FormatMove(m), nil
}

func (a adapted[P, M]) Diagram(color bool) string {
	if d, ok := any(a.pos).(interface{ Diagram(color bool) string }); ok {
		return d.Diagram(color)
	}
	return a.pos.String() + "\n"
}

func (a adapted[P, M]) Perft(depth int) uint64 { return Perft(a.pos, depth) }

func (a adapted[P, M]) Divide(ctx context.Context, depth, threads int) ([]MoveCount, error) {
	entries, err := Divide(ctx, a.pos, depth, threads)
	out := make([]MoveCount, len(entries))
	for i, e := range entries {
		out[i] = MoveCount{Move: a.pos.FormatMove(e.Move), Nodes: e.Nodes}
	}
	slices.SortFunc(out, func(x, y MoveCount) int { return strings.Compare(x.Move, y.Move) })
	return out, err
}

func (a adapted[P, M]) RandomMove(rng *rand.Rand) (string, bool) {
	m, ok := a.pos.RandomMove(rng, make([]M, 0, 256))
	if !ok {
		return "", false
	}
	return a.pos.FormatMove(m), true
}

func (a adapted[P, M]) Playouts(rng *rand.Rand, n, maxPlies int) PlayoutStats {
	var st PlayoutStats
	var buf []M
	var hist []uint64
	var h *Repetitions
	reps := a.rules.RepetitionLimit()
	fast, _ := any(a.pos).(FastPlayouter)
	if fast != nil {
		h = NewRepetitions(reps, maxPlies)
	}
	for range n {
		var r Result
		var plies int
		ok := false
		if fast != nil {
			r, plies, ok = fast.FastPlayout(rng, maxPlies, h)
		}
		if !ok {
			if buf == nil {
				buf, hist = make([]M, 0, 256), make([]uint64, 0, maxPlies+1)
			}
			r, plies = PlayoutRepeating(a.pos, rng, maxPlies, reps, buf, hist)
		}
		st.Games++
		st.Plies += plies
		st.Results[r]++
	}
	return st
}

// AdaptParsed is Adapt for the result of a game's own parser: it passes
// an error on, and otherwise wraps the position. A game's
// Rules.ParsePosition is then one line.
func AdaptParsed[P Position[P, M], M comparable](p P, err error, r Rules) (State, error) {
	if err != nil {
		return nil, err
	}
	return Adapt[P, M](p, r), nil
}
