package ai

import (
	"context"
	"time"

	"github.com/magneton-games/magneton/game"
)

// SearchFunc is a search by an engine written apart from this package's
// searches, as NewSearchPlayer plays it: from p, with hist the hashes of
// the game's positions before p (oldest first, for the repetitions) and
// within the budget b, it returns its move and what it knows of it: the
// Depth, Score and Nodes of the Info (the player fills in the rest).
type SearchFunc[P game.Position[P, M], M comparable] func(ctx context.Context, p P, hist []uint64, b Budget) (M, Info)

// NewSearchPlayer makes a player of an engine of its own, such as
// Magneton's baseline simple-ab, which shares nothing with this package's
// searches so that it does not share their blind spots either. Each move
// it calls search with the budget of the move's limits (Limits.Budget,
// DefaultMoveTime when they set none) and plays the move it returns,
// reported with that move as the whole line, the Mate of its Score and
// the time it took. newGame, if not nil, is called on NewGame, to forget
// what the engine learned (its tables).
func NewSearchPlayer[P game.Position[P, M], M comparable](name string, search SearchFunc[P, M], newGame func()) Thinker {
	return &searchPlayer[P, M]{name: name, search: search, newGame: newGame}
}

// searchPlayer is a player of NewSearchPlayer.
type searchPlayer[P game.Position[P, M], M comparable] struct {
	name    string
	search  SearchFunc[P, M]
	newGame func()
}

func (s *searchPlayer[P, M]) Name() string { return s.name }

func (s *searchPlayer[P, M]) NewGame() {
	if s.newGame != nil {
		s.newGame()
	}
}

func (s *searchPlayer[P, M]) Think(ctx context.Context, g *game.Game, lim Limits, info func(Info)) (Info, error) {
	p, hist, err := unwrapGame[P, M](g)
	if err != nil {
		return Info{}, err
	}
	if len(p.AppendMoves(nil)) == 0 {
		return Info{}, errNoMove
	}
	b := lim.Budget(p.Side(), DefaultMoveTime)
	start := time.Now()
	m, in := s.search(ctx, p, hist, b)
	in.BestMove = p.FormatMove(m)
	in.PV = []string{in.BestMove}
	in.Mate = MateMoves(in.Score)
	in.Time = time.Since(start)
	if info != nil {
		info(in)
	}
	return in, nil
}

func (s *searchPlayer[P, M]) Move(ctx context.Context, g *game.Game, lim Limits) (string, error) {
	in, err := s.Think(ctx, g, lim, nil)
	return in.BestMove, err
}
