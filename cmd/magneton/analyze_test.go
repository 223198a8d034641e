package main

import (
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/ai"
)

// TestBestMoveLine: the best move analyze reports is the last completed
// depth's, or, when the search's move came from an unfinished deeper
// iteration, a line marked unfinished says so first.
func TestBestMoveLine(t *testing.T) {
	d7 := ai.Info{Depth: 7, BestMove: "d4", PV: []string{"d4", "e5"}, Nodes: 1000, Time: time.Second}
	for _, tc := range []struct {
		last, final ai.Info
		want        []string
	}{
		{d7, d7, []string{"best move d4 (depth 7, 1000 nodes, 1000 nodes/s)"}},
		{d7, ai.Info{Depth: 7, BestMove: "c3", PV: []string{"c3"}, Nodes: 1500, Time: time.Second}, []string{
			"depth  8  unfinished: c3 searched better than depth 7's d4 before the search stopped (no score yet)  nodes       1500  time   1000ms  pv c3",
			"best move c3 (the unfinished depth 8; depth 7's line starts with d4; 1500 nodes, 1500 nodes/s)",
		}},
		{ai.Info{}, ai.Info{BestMove: "a1"}, []string{"best move a1 (no depth completed; 0 nodes, 0 nodes/s)"}},
	} {
		if got := strings.Split(bestMoveLine(tc.last, tc.final), "\n"); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("last %+v, final %+v:\n%s\nwant\n%s", tc.last, tc.final, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// TestAnalyzeConsistent: whatever the time, the best move analyze prints
// is the first move of its last depth line, unless a line marked
// unfinished names it.
// TestAnalyzeProven: on a position the proof-number solver settles, the
// analysis says the win is proven, with the proof's bound.
func TestAnalyzeProven(t *testing.T) {
	out, errs, code := runCmd(t, "", "analyze", "--time", "300ms", "8/6WB/B1B3B1/W6W/8/8/5W2/WB6 b 0 0")
	if code != 0 || !strings.Contains(out, "proven: a win in 6 moves or fewer") {
		t.Errorf("exit %d: %s%s", code, out, errs)
	}
}

func TestAnalyzeConsistent(t *testing.T) {
	for _, tc := range [][]string{
		{"analyze", "--time", "30ms", "start"},
		{"--game", "tumbling", "analyze", "--time", "50ms", "start"},
		{"--game", "tumbling", "analyze", "--time", "200ms", "--threads", "2", "bbbbbbb,b,2,b,1,b,1/2,b,b,b,b,2/b,3,rb,b,2/b,2,rb,b,2,rr/b,b,3,r,2/bb,b,b,2,r,1,r/b,2,r,r,2,r/bb,2,rr,1,r,r,rrrrrrrrrrrrrrr r"},
	} {
		out, errs, code := runCmd(t, "", tc...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc, code, errs)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		last := lines[len(lines)-1]
		best := strings.Fields(strings.TrimPrefix(last, "best move "))[0]
		if len(lines) < 2 {
			continue
		}
		prev := lines[len(lines)-2]
		pv := strings.Fields(prev[strings.Index(prev, " pv ")+4:])
		if pv[0] != best {
			t.Errorf("%v: the best move %s is not the last line's %q", tc, best, prev)
		}
		if strings.Contains(prev, "unfinished") != strings.Contains(last, "unfinished") {
			t.Errorf("%v:\n%s", tc, out)
		}
	}
}
