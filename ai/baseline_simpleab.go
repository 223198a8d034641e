package ai

import (
	"context"
	"fmt"

	"github.com/magneton-games/magneton/ai/simpleab"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
)

// newSimpleAB makes Magneton's baseline simple-ab (package simpleab): an
// engine written apart from this package's searches, so that level 8 is
// measured against play that does not share its blind spots. Its
// mobility count knows only the default movement rules, so it refuses
// the others.
func newSimpleAB(rules game.Rules, cfg Config) (Player, error) {
	if mr, _ := rules.(magneton.Rules); mr.Weak || mr.OneSided {
		return nil, fmt.Errorf("player simple-ab: only for the default movement rules (force=strong, movement=any-magnet)")
	}
	eng := simpleab.New(cfg.HashMB)
	search := func(ctx context.Context, p magneton.Position, hist []uint64, b Budget) (magneton.Move, Info) {
		r := eng.Search(ctx, p, hist, b.Hard, b.Depth)
		return r.Move, Info{Depth: r.Depth, Score: r.Score, Nodes: r.Nodes}
	}
	return NewSearchPlayer("simple-ab", search, eng.Clear), nil
}
