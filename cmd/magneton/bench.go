package main

import (
	"context"
	"io"
	"time"

	"github.com/magneton-games/magneton/engine"
	"github.com/magneton-games/magneton/game"
)

// bench runs a game's fixed perft suite (Spec.Bench), three seconds of
// random playouts from the start under rules and, when search is not
// zero, level 8's search from the start for that long, and prints the
// figures: engine.Bench, the code the browser's engine runs too.
func bench(ctx context.Context, rules game.Rules, search time.Duration, w io.Writer) error {
	res, err := engine.Bench(ctx, rules, engine.BenchLimits{Perft: true, Playouts: 3 * time.Second, Search: search})
	res.Print(w)
	return err
}
