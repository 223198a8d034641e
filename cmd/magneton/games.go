package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
	"github.com/magneton-games/magneton/tumbling"
)

// kit is what the command line needs from a game beyond the game-neutral
// State: operations that run hot loops on the game's concrete types.
type kit interface {
	spec() *game.Spec
	perft(ctx context.Context, s game.State, depth, threads int, divide bool, w io.Writer) error
	bench(ctx context.Context, r game.Rules, w io.Writer) error
	diagram(s game.State, color bool) string
}

// kits lists the games the binary knows.
var kits = []kit{
	gameKit[magneton.Position, magneton.Move]{
		sp:    magneton.Spec,
		suite: magneton.BenchSuite,
		draw:  magneton.Diagram,
	},
	gameKit[tumbling.Position, tumbling.Move]{
		sp:    tumbling.Spec,
		suite: tumbling.BenchSuite,
		draw:  tumbling.Diagram,
	},
}

// gameKit implements kit for a game's position and move types.
type gameKit[P game.Position[P, M], M comparable] struct {
	sp    *game.Spec
	suite []game.BenchCase
	draw  func(p P, color bool) string
}

func (k gameKit[P, M]) spec() *game.Spec { return k.sp }

func (k gameKit[P, M]) unwrap(s game.State) P {
	p, ok := game.Unwrap[P, M](s)
	if !ok {
		panic(fmt.Sprintf("%s kit given a position of another game", k.sp.Name))
	}
	return p
}

func (k gameKit[P, M]) perft(ctx context.Context, s game.State, depth, threads int, divide bool, w io.Writer) error {
	p := k.unwrap(s)
	if depth < 1 {
		fmt.Fprintln(w, 1)
		return nil
	}
	entries, err := game.Divide(ctx, p, depth, threads)
	if err != nil {
		return err
	}
	slices.SortFunc(entries, func(a, b game.DivideEntry[M]) int {
		return strings.Compare(p.FormatMove(a.Move), p.FormatMove(b.Move))
	})
	var total uint64
	for _, e := range entries {
		total += e.Nodes
		if divide {
			fmt.Fprintf(w, "%s %d\n", p.FormatMove(e.Move), e.Nodes)
		}
	}
	fmt.Fprintln(w, total)
	return nil
}

func (k gameKit[P, M]) diagram(s game.State, color bool) string {
	return k.draw(k.unwrap(s), color)
}

func (k gameKit[P, M]) bench(ctx context.Context, r game.Rules, w io.Writer) error {
	phases := map[string][2]float64{} // leaves and seconds per phase
	var order []string
	var leaves uint64
	var elapsed time.Duration
	for _, c := range k.suite {
		s, err := r.ParsePosition(c.Position)
		if err != nil {
			return fmt.Errorf("bench suite: %w", err)
		}
		p := k.unwrap(s)
		start := time.Now()
		n := game.Perft(p, c.Depth)
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
	fmt.Fprintf(w, "perft-nps %.0f\n", float64(leaves)/elapsed.Seconds())

	// Random playouts from the start, for a fixed time; the seed is fixed so
	// runs play the same games.
	rng := rand.New(rand.NewPCG(1, 2))
	startPos := k.unwrap(r.Start())
	buf := make([]M, 0, 256)
	var games, plies int
	results := map[game.Result]int{}
	start := time.Now()
	for time.Since(start) < 3*time.Second && ctx.Err() == nil {
		for range 100 {
			res, n := game.Playout(startPos, rng, 400, buf)
			games++
			plies += n
			results[res]++
		}
	}
	d := time.Since(start).Seconds()
	fmt.Fprintf(w, "playouts %d in %.2fs, %.1f plies a game; first side won %d, second %d, drawn %d, unfinished at 400 plies %d\n",
		games, d, float64(plies)/float64(games), results[game.FirstWins], results[game.SecondWins], results[game.Draw], results[game.Ongoing])
	fmt.Fprintf(w, "playouts-per-second %.0f\n", float64(games)/d)
	return ctx.Err()
}

// kitFor finds a game by name or alias.
func kitFor(name string) (kit, error) {
	var names []string
	for _, k := range kits {
		sp := k.spec()
		if sp.Name == name {
			return k, nil
		}
		for _, a := range sp.Aliases {
			if a == name {
				return k, nil
			}
		}
		names = append(names, sp.Name)
		names = append(names, sp.Aliases...)
	}
	return nil, usagef("unknown game %q (games: %s)", name, strings.Join(names, ", "))
}
