package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/magneton-games/magneton/game"
)

// bench runs a game's fixed perft suite (Spec.Bench) and three seconds of
// random playouts from the start under rules, and prints the figures.
func bench(ctx context.Context, rules game.Rules, w io.Writer) error {
	phases := map[string][2]float64{} // leaves and seconds per phase
	var order []string
	var leaves uint64
	var elapsed time.Duration
	for _, c := range rules.Spec().Bench {
		s, err := rules.ParsePosition(c.Position)
		if err != nil {
			return fmt.Errorf("bench suite: %w", err)
		}
		start := time.Now()
		n := s.Perft(c.Depth)
		d := time.Since(start)
		if err := ctx.Err(); err != nil {
			return err
		}
		fmt.Fprintf(w, "perft %-5s depth %d  %12d leaves  %7.3fs  %s\n", c.Phase, c.Depth, n, d.Seconds(), c.Position)
		if _, ok := phases[c.Phase]; !ok {
			order = append(order, c.Phase)
		}
		ph := phases[c.Phase]
		phases[c.Phase] = [2]float64{ph[0] + float64(n), ph[1] + d.Seconds()}
		leaves += n
		elapsed += d
	}
	for _, name := range order {
		ph := phases[name]
		fmt.Fprintf(w, "perft-nps-%s %.0f\n", name, ph[0]/ph[1])
	}
	if elapsed > 0 {
		fmt.Fprintf(w, "perft-nps %.0f\n", float64(leaves)/elapsed.Seconds())
	}

	// Random playouts from the start, for a fixed time; the seed is fixed so
	// runs play the same games. SplitMix64 is the generator of the C
	// engines the bench is compared with (../shared/limit): two multiplies
	// a number, where PCG's five were about 30 instructions of a Magneton
	// ply's 840.
	sm := game.SplitMix64(1)
	rng := rand.New(&sm)
	startPos := rules.Start()
	var st game.PlayoutStats
	start := time.Now()
	for time.Since(start) < 3*time.Second && ctx.Err() == nil {
		batch := startPos.Playouts(rng, 100, 400)
		st.Games += batch.Games
		st.Plies += batch.Plies
		for i, n := range batch.Results {
			st.Results[i] += n
		}
	}
	d := time.Since(start).Seconds()
	fmt.Fprintf(w, "playouts %d in %.2fs, %.1f plies a game; first side won %d, second %d, drawn %d, unfinished at 400 plies %d\n",
		st.Games, d, float64(st.Plies)/float64(st.Games), st.Results[game.FirstWins], st.Results[game.SecondWins], st.Results[game.Draw], st.Results[game.Ongoing])
	fmt.Fprintf(w, "playouts-per-second %.0f\n", float64(st.Games)/d)
	return ctx.Err()
}
