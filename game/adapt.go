package game

import "slices"

// Adapt wraps a position of a concrete game as a State. Games use it to
// implement their Rules without writing the dynamic interface twice.
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

func (a adapted[P, M]) Side() Side                { return a.pos.Side() }
func (a adapted[P, M]) Outcome() (Result, Reason) { return a.pos.Outcome() }
func (a adapted[P, M]) Hash() uint64              { return a.pos.Hash() }
func (a adapted[P, M]) String() string            { return a.pos.String() }
func (a adapted[P, M]) Rules() Rules              { return a.rules }

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
