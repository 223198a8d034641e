package main

import (
	"os"
	"path/filepath"
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
// TestAnalyzeProven: on a position the proof-number solver settles, or
// one of the book of proven positions, the analysis says the win is
// proven, with the proof's bound; the book's at once, with the proof's
// line (Tumbling Down's start: docs/proofs/tumbling-start.proof).
func TestAnalyzeProven(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"analyze", "--time", "300ms", "8/6WB/B1B3B1/W6W/8/8/5W2/WB6 b 0 0"}, "proven: Black wins in 6 moves or fewer"},
		{[]string{"--game", "tumbling", "analyze", "--time", "20s", "start"}, "proven: Black wins in 7 moves or fewer  nodes          0"},
		{[]string{"--game", "tumbling", "--rule", "capture=pbem", "analyze", "--time", "20s", "start"}, "proven: Black wins in 7 moves or fewer  nodes          0"},
	} {
		t0 := time.Now()
		out, errs, code := runCmd(t, "", tc.args...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d: %s%s\nwant %q", tc.args, code, out, errs, tc.want)
		}
		if strings.Contains(tc.want, "nodes          0") {
			if d := time.Since(t0); d > 10*time.Second {
				t.Errorf("%v took %v: the book answers at once", tc.args, d)
			}
			if pv := out[strings.Index(out, "pv ")+3:]; len(strings.Fields(strings.Split(pv, "\n")[0])) < 5 {
				t.Errorf("%v: the line %q is not the proof's", tc.args, pv)
			}
		}
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

// TestAnalyzeBook: a certificate given with --book joins the book: the
// analysis of its position is proven at once, with no node searched; a
// missing or broken file is refused with its name.
func TestAnalyzeBook(t *testing.T) {
	const pos = "bbbbbbbbbb,1,bbrbbb,bbb,b,3/bb,3,b,1,r,1/1,b,2,b,b,r,1/3,b,b,r,1,r/2,b,1,rr,r,rr,1/b,4,r,2/4,rr,r,1,rrrrr/2,rr,1,rr,1,rrr,rrr b"
	proof := filepath.Join(t.TempDir(), "p.proof")
	if out, errs, code := runCmd(t, "", "--game", "tumbling", "solve", "--hash", "1", "--out", proof, pos); code != 0 {
		t.Fatalf("solve: exit %d: %s%s", code, out, errs)
	}
	out, errs, code := runCmd(t, "", "--game", "tumbling", "--book", proof, "analyze", "--depth", "1", pos)
	if first := strings.Split(out, "\n")[0]; code != 0 || !strings.Contains(first, "proven: Black wins") || !strings.Contains(first, "nodes          0") {
		t.Errorf("analyze --book: exit %d: %s%s", code, out, errs)
	}
	broken := filepath.Join(t.TempDir(), "broken.proof")
	if err := os.WriteFile(broken, []byte("magneton-proof v1\ngame tumbling-down\nrules nonsense\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file string
		code int
		want string
	}{
		{filepath.Join(t.TempDir(), "none.proof"), 2, "--book: open"},
		{broken, 1, "--book " + broken},
	} {
		out, errs, code := runCmd(t, "", "--game", "tumbling", "--book", tc.file, "analyze", "--depth", "1", "start")
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("--book %s: exit %d: %s%s; want status %d and %q", tc.file, code, out, errs, tc.code, tc.want)
		}
	}
}
