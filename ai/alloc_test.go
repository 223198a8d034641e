package ai_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/magneton"
	"github.com/magneton-games/magneton/tumbling"
)

// searchAllocs searches p to depth with a warm engine (its table and
// threads' buffers made by a first search) and returns the heap
// allocations of the second search and its nodes.
func searchAllocs[P game.Position[P, M], M comparable](eng *ai.Engine[P, M], p P, depth int) (allocs uint64, nodes int64) {
	ctx := context.Background()
	if _, err := eng.Search(ctx, p, nil, ai.Budget{Depth: depth}, nil); err != nil {
		panic(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := eng.Search(ctx, p, nil, ai.Budget{Depth: depth}, nil)
	runtime.ReadMemStats(&after)
	if err != nil {
		panic(err)
	}
	return after.Mallocs - before.Mallocs, res.Info.Nodes
}

// allocCases are the positions the allocation test and benchmark search:
// each game's bench positions, both phases of Magneton.
var allocCases = []struct {
	name   string
	search func(depth int) (uint64, int64)
	depth  int
}{
	{"magneton-drop", func(d int) (uint64, int64) {
		p, _ := magneton.Rules{}.Parse("8/3B2W1/1W3B2/3W4/8/6B1/2W2B2/6B1 w 8 7")
		return searchAllocs(ai.NewEngine(magnetonKit, 16, 1), p, d)
	}, 5},
	{"magneton-move", func(d int) (uint64, int64) {
		p, _ := magneton.Rules{}.Parse("2W1B2B/W6W/BB1W4/W3B3/B6B/WW5W/1BWBB3/BWW1BW2 b 0 0")
		return searchAllocs(ai.NewEngine(magnetonKit, 16, 1), p, d)
	}, 8},
	{"tumbling-start", func(d int) (uint64, int64) {
		return searchAllocs(ai.NewEngine(tumblingKit, 16, 1), tumbling.Rules{}.StartPosition(), d)
	}, 7},
}

// TestSearchAllocatesNothingANode checks that a search allocates a
// fixed few objects (its report: the principal variation's text, the
// threads' shared state), not any a node: tens of thousands of nodes,
// at most 200 allocations.
func TestSearchAllocatesNothingANode(t *testing.T) {
	for _, c := range allocCases {
		t.Run(c.name, func(t *testing.T) {
			allocs, nodes := c.search(c.depth)
			if nodes < 10000 {
				t.Fatalf("only %d nodes: the test would not see allocations a node", nodes)
			}
			if allocs > 200 {
				t.Errorf("%d allocations in a search of %d nodes (%.4f a node)", allocs, nodes, float64(allocs)/float64(nodes))
			}
			t.Logf("%d allocations, %d nodes", allocs, nodes)
		})
	}
}

// BenchmarkSearchAllocs reports a warm search's allocations a node
// (allocs/node) and its nodes a second.
func BenchmarkSearchAllocs(b *testing.B) {
	for _, c := range allocCases {
		b.Run(c.name, func(b *testing.B) {
			var allocs uint64
			var nodes int64
			for b.Loop() {
				a, n := c.search(c.depth)
				allocs += a
				nodes += n
			}
			b.ReportMetric(float64(allocs)/float64(nodes), "allocs/node")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
