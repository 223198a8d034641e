package ai_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/magneton"
	"github.com/magneton-games/magneton/tumbling"
)

// BenchmarkSearchMagneton searches fixed positions for a fixed time and
// reports nodes per second.
func BenchmarkSearchMagneton(b *testing.B) {
	for _, bc := range []struct{ name, pos string }{
		{"drop", "8/3B2W1/1W3B2/3W4/8/6B1/2W2B2/6B1 w 8 7"},
		{"move", "2W1B2B/W6W/BB1W4/W3B3/B6B/WW5W/1BWBB3/BWW1BW2 b 0 0"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p, err := magneton.Rules{}.Parse(bc.pos)
			if err != nil {
				b.Fatal(err)
			}
			var nodes int64
			var el time.Duration
			for b.Loop() {
				eng := ai.NewEngine(magnetonKit, 16, 1)
				res, _ := eng.Search(context.Background(), p, nil, ai.Budget{Hard: 500 * time.Millisecond}, nil)
				nodes += res.Info.Nodes
				el += res.Info.Time
				b.Logf("depth %d score %d pv %v nodes %d", res.Info.Depth, res.Info.Score, res.Info.PV, res.Info.Nodes)
			}
			b.ReportMetric(float64(nodes)/el.Seconds(), "nodes/s")
		})
	}
}

// BenchmarkSearchTumbling searches the start and three middle-game
// positions of Tumbling Down to a fixed depth: the node counts are the
// same on every run, so ns/op compares builds.
func BenchmarkSearchTumbling(b *testing.B) {
	for i, bc := range tumbling.Spec.Bench {
		b.Run(fmt.Sprintf("%s-%d", bc.Phase, i), func(b *testing.B) {
			p, err := tumbling.Rules{}.Parse(bc.Position)
			if err != nil {
				b.Fatal(err)
			}
			var nodes int64
			var el time.Duration
			for b.Loop() {
				eng := ai.NewEngine(tumblingKit, 16, 1)
				res, _ := eng.Search(context.Background(), p, nil, ai.Budget{Depth: 6}, nil)
				nodes += res.Info.Nodes
				el += res.Info.Time
			}
			b.ReportMetric(float64(nodes)/el.Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes")
		})
	}
}
