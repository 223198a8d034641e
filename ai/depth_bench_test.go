package ai_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/magneton"
	"github.com/magneton-games/magneton/magneton/magnetonai"
	"github.com/magneton-games/magneton/tumbling"
)

// depthCases are the search positions of tools/search-compare.sh, each
// searched to a fixed depth by level 8's kit: a build that changes only
// the cost of a node searches the same nodes, so its time a node
// compares with another build's.
var depthCases = []struct {
	name  string
	depth int
	// search returns a function that searches to depth with one engine,
	// cleared before each search, and returns the nodes.
	search func() func(depth int) int64
}{
	{"magneton-opening", 7, magnetonDepth("start", "d4", "e5", "c3", "f6")},
	{"magneton-drop", 6, magnetonDepth("8/3B2W1/1W3B2/3W4/8/6B1/2W2B2/6B1 w 8 7")},
	{"magneton-move", 10, magnetonDepth("2W1B2B/W6W/BB1W4/W3B3/B6B/WW5W/1BWBB3/BWW1BW2 b 0 0")},
	{"tumbling-middle", 8, func() func(int) int64 {
		p, err := tumbling.Rules{}.Parse("1,bbb,b,bbbbbb,bb,3/bbbb,bb,b,b,4/bb,b,b,2,r,2/bb,b,3,r,1,r/bb,2,r,1,r,rr,rr/4,r,rr,r,rr/4,rrr,r,rrr,1/3,r,rr,2,rrrr r")
		if err != nil {
			panic(err)
		}
		eng := ai.NewEngine(tumblingKit, 16, 1)
		return func(depth int) int64 {
			eng.Clear()
			res, _ := eng.Search(context.Background(), p, nil, ai.Budget{Depth: depth}, nil)
			return res.Info.Nodes
		}
	}},
}

// magnetonDepth searches pos after moves with level 8's kit.
func magnetonDepth(pos string, moves ...string) func() func(int) int64 {
	return func() func(int) int64 {
		var p magneton.Position
		if pos == "start" {
			p = magneton.Rules{}.StartPosition()
		} else {
			var err error
			if p, err = (magneton.Rules{}).Parse(pos); err != nil {
				panic(err)
			}
		}
		for _, s := range moves {
			m, err := p.ParseMove(s)
			if err != nil {
				panic(err)
			}
			p = p.Play(m)
		}
		eng := ai.NewEngine(magnetonai.Kit(magnetonai.Level8Weights, magneton.Rules{}), 16, 1)
		return func(depth int) int64 {
			eng.Clear()
			res, _ := eng.Search(context.Background(), p, nil, ai.Budget{Depth: depth}, nil)
			return res.Info.Nodes
		}
	}
}

// BenchmarkSearchDepth searches each of depthCases to its depth and
// reports the nodes, the time a node and the CPU time a node (the
// thread's own, which a loaded machine's other jobs change less). The
// engine's table is made once and cleared before each search, as a
// player's is between games: the first touch of a new table's pages is
// no part of a node's cost.
func BenchmarkSearchDepth(b *testing.B) {
	for _, c := range depthCases {
		b.Run(c.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			search := c.search()
			search(1) // the table's pages, and the workers' buffers
			var nodes int64
			var cpu time.Duration
			for b.Loop() {
				c0 := threadCPU()
				nodes += search(c.depth)
				cpu += threadCPU() - c0
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
			if cpu > 0 {
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(nodes), "cpu-ns/node")
			}
		})
	}
}
