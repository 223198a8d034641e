package ai

import (
	"context"
	"fmt"
	"time"

	"github.com/magneton-games/magneton/ai/simpleab"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
)

// simpleABPlayer is Magneton's baseline simple-ab (package simpleab): an
// engine written apart from this package's searches, so that level 8 is
// measured against play that does not share its blind spots.
type simpleABPlayer struct {
	eng *simpleab.Engine
}

// newSimpleAB makes the simple-ab player. Its mobility count knows only
// the default movement rules, so it refuses the others.
func newSimpleAB(rules game.Rules, cfg Config) (Player, error) {
	if mr, _ := rules.(magneton.Rules); mr.Weak || mr.OneSided {
		return nil, fmt.Errorf("player simple-ab: only for the default movement rules (force=strong, movement=any-magnet)")
	}
	return &simpleABPlayer{eng: simpleab.New(cfg.HashMB)}, nil
}

func (s *simpleABPlayer) Name() string { return "simple-ab" }

func (s *simpleABPlayer) NewGame() { s.eng.Clear() }

func (s *simpleABPlayer) Think(ctx context.Context, g *game.Game, lim Limits, info func(Info)) (Info, error) {
	p, hist, err := unwrapGame[magneton.Position, magneton.Move](g)
	if err != nil {
		return Info{}, err
	}
	if len(p.AppendMoves(nil)) == 0 {
		return Info{}, errNoMove
	}
	b := lim.Budget(p.Side(), DefaultMoveTime)
	start := time.Now()
	r := s.eng.Search(ctx, p, hist, b.Hard, b.Depth)
	mv := p.FormatMove(r.Move)
	in := Info{Depth: r.Depth, Score: r.Score, Mate: MateMoves(r.Score), Nodes: r.Nodes, Time: time.Since(start), BestMove: mv, PV: []string{mv}}
	if info != nil {
		info(in)
	}
	return in, nil
}

func (s *simpleABPlayer) Move(ctx context.Context, g *game.Game, lim Limits) (string, error) {
	in, err := s.Think(ctx, g, lim, nil)
	return in.BestMove, err
}
