package engine

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

// BenchRequest asks for a game's benchmark (Bench): its rules, and the
// seconds of random playouts and of level 8's search (0: none).
type BenchRequest struct {
	Game           string  `json:"game"`
	Rules          string  `json:"rules"`
	PlayoutSeconds float64 `json:"playout_seconds"`
	SearchSeconds  float64 `json:"search_seconds"`
	// Perft: run the game's perft suite (Spec.Bench).
	Perft bool `json:"perft"`
}

func (r BenchRequest) limits() BenchLimits {
	return BenchLimits{Perft: r.Perft, Playouts: seconds(r.PlayoutSeconds), Search: seconds(r.SearchSeconds)}
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// BenchLimits says what Bench runs.
type BenchLimits struct {
	Perft            bool
	Playouts, Search time.Duration
}

// PerftCase is one position of a perft suite and its count.
type PerftCase struct {
	Phase    string  `json:"phase"`
	Depth    int     `json:"depth"`
	Position string  `json:"position"`
	Leaves   uint64  `json:"leaves"`
	Seconds  float64 `json:"seconds"`
}

// BenchResult is what Bench measured; the rates are per second.
type BenchResult struct {
	Perft     []PerftCase `json:"perft,omitempty"`
	PerftNPS  float64     `json:"perft_nps,omitempty"`
	Playouts  game.PlayoutStats
	PlayoutsS float64 `json:"playout_seconds,omitempty"`
	// PlayoutsPerSecond are random games from the start a second.
	PlayoutsPerSecond float64 `json:"playouts_per_second,omitempty"`
	// SearchNodes and SearchNPS are level 8's search from the start, one
	// thread, without the book (its nodes, not its proofs).
	SearchNodes int64   `json:"search_nodes,omitempty"`
	SearchDepth int     `json:"search_depth,omitempty"`
	SearchNPS   float64 `json:"search_nps,omitempty"`
}

// Bench runs a game's fixed perft suite (Spec.Bench), random playouts
// from the start, and level 8's search from the start, as lim says: the
// same code for `magneton bench` and for the browser's engine, so that
// the two compare (docs/benchmarks.md).
func Bench(ctx context.Context, rules game.Rules, lim BenchLimits) (BenchResult, error) {
	var out BenchResult
	if lim.Perft {
		var leaves uint64
		var elapsed time.Duration
		for _, c := range rules.Spec().Bench {
			s, err := rules.ParsePosition(c.Position)
			if err != nil {
				return out, fmt.Errorf("bench suite: %w", err)
			}
			start := time.Now()
			n := s.Perft(c.Depth)
			d := time.Since(start)
			if err := ctx.Err(); err != nil {
				return out, err
			}
			out.Perft = append(out.Perft, PerftCase{Phase: c.Phase, Depth: c.Depth, Position: c.Position, Leaves: n, Seconds: d.Seconds()})
			leaves += n
			elapsed += d
		}
		if elapsed > 0 {
			out.PerftNPS = float64(leaves) / elapsed.Seconds()
		}
	}
	if lim.Playouts > 0 {
		// The seed is fixed so runs play the same games. SplitMix64 is
		// the generator of the C engines the bench is compared with
		// (../shared/limit): two multiplies a number, where PCG's five
		// were about 30 instructions of a Magneton ply's 840.
		sm := game.SplitMix64(1)
		rng := rand.New(&sm)
		startPos := rules.Start()
		start := time.Now()
		for time.Since(start) < lim.Playouts && ctx.Err() == nil {
			batch := startPos.Playouts(rng, 100, 400)
			out.Playouts.Games += batch.Games
			out.Playouts.Plies += batch.Plies
			for i, n := range batch.Results {
				out.Playouts.Results[i] += n
			}
		}
		out.PlayoutsS = time.Since(start).Seconds()
		out.PlayoutsPerSecond = float64(out.Playouts.Games) / out.PlayoutsS
	}
	if lim.Search > 0 {
		gm, err := games.Of(rules.Spec())
		if err != nil {
			return out, err
		}
		p, err := gm.AI.NewPlayer("level:8", rules, ai.Config{HashMB: 16, Threads: 1})
		if err != nil {
			return out, err
		}
		t, ok := p.(ai.Thinker)
		if !ok {
			return out, fmt.Errorf("bench: the level 8 player of %s does not search", rules.Spec().Title)
		}
		in, err := t.Think(ctx, game.NewGame(rules.Start()), ai.Limits{MoveTime: lim.Search}, nil)
		if err != nil {
			return out, fmt.Errorf("bench search: %w", err)
		}
		out.SearchNodes, out.SearchDepth, out.SearchNPS = in.Nodes, in.Depth, float64(in.Nodes)/in.Time.Seconds()
	}
	return out, ctx.Err()
}

// Print writes a bench's figures as `magneton bench` prints them.
func (r BenchResult) Print(w io.Writer) {
	phases := map[string][2]float64{} // leaves and seconds per phase
	var order []string
	for _, c := range r.Perft {
		fmt.Fprintf(w, "perft %-5s depth %d  %12d leaves  %7.3fs  %s\n", c.Phase, c.Depth, c.Leaves, c.Seconds, c.Position)
		if _, ok := phases[c.Phase]; !ok {
			order = append(order, c.Phase)
		}
		ph := phases[c.Phase]
		phases[c.Phase] = [2]float64{ph[0] + float64(c.Leaves), ph[1] + c.Seconds}
	}
	for _, name := range order {
		ph := phases[name]
		fmt.Fprintf(w, "perft-nps-%s %.0f\n", name, ph[0]/ph[1])
	}
	if r.PerftNPS > 0 {
		fmt.Fprintf(w, "perft-nps %.0f\n", r.PerftNPS)
	}
	if st := r.Playouts; st.Games > 0 {
		fmt.Fprintf(w, "playouts %d in %.2fs, %.1f plies a game; first side won %d, second %d, drawn %d, unfinished at 400 plies %d\n",
			st.Games, r.PlayoutsS, float64(st.Plies)/float64(st.Games), st.Results[game.FirstWins], st.Results[game.SecondWins], st.Results[game.Draw], st.Results[game.Ongoing])
		fmt.Fprintf(w, "playouts-per-second %.0f\n", r.PlayoutsPerSecond)
	}
	if r.SearchNodes > 0 {
		fmt.Fprintf(w, "search level 8 from the start: %d nodes, depth %d\n", r.SearchNodes, r.SearchDepth)
		fmt.Fprintf(w, "search-nps %.0f\n", r.SearchNPS)
	}
}
