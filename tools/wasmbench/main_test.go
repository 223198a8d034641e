package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpprofiler "github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/cdproto/runtime"
)

// browserFlag runs the test that starts Chromium (TestBrowserRun); CI
// leaves it off, for its time: go test ./tools/wasmbench -browser.
var browserFlag = flag.Bool("browser", false, "run the measurement in Chromium too (TestBrowserRun)")

func TestSummarize(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want summary
	}{
		{nil, summary{}},
		{[]float64{3}, summary{3, 3, 3}},
		{[]float64{5, 1, 3}, summary{1, 3, 5}},
		{[]float64{4, 1, 3, 2}, summary{1, 2.5, 4}},
	} {
		in := append([]float64(nil), c.in...)
		if got := summarize(c.in); got != c.want {
			t.Errorf("summarize(%v) = %+v, want %+v", c.in, got, c.want)
		}
		if !equal(in, c.in) {
			t.Errorf("summarize changed its argument: %v, was %v", c.in, in)
		}
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRatios checks that a round's browser figure is divided by the same
// round's native one, and that unpaired rounds and zero figures are left
// out.
func TestRatios(t *testing.T) {
	r := newResults([]string{"g"}, []string{native, browserSide})
	r.add("g", native, rates{Perft: 100, Playouts: 10, Search: 0})
	r.add("g", browserSide, rates{Perft: 50, Playouts: 4, Search: 7})
	r.add("g", native, rates{Perft: 200, Playouts: 20, Search: 10})
	r.add("g", browserSide, rates{Perft: 60, Playouts: 10, Search: 5})
	r.add("g", native, rates{Perft: 1, Playouts: 1, Search: 1}) // no browser round to pair
	if got, want := r.ratios("g", browserSide, native, 0), []float64{0.5, 0.3}; !equal(got, want) {
		t.Errorf("perft ratios %v, want %v", got, want)
	}
	if got, want := r.ratios("g", browserSide, native, 1), []float64{0.4, 0.5}; !equal(got, want) {
		t.Errorf("playout ratios %v, want %v", got, want)
	}
	if got, want := r.ratios("g", browserSide, native, 2), []float64{0.5}; !equal(got, want) {
		t.Errorf("search ratios %v, want %v (the zero native figure left out)", got, want)
	}
	var out bytes.Buffer
	r.print(&out, map[string]string{"g": "Game"}, true)
	for _, want := range []string{"Game, 3 rounds", "perft leaves/s", "browser/native min", "0.30", "0.40", "round 2"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
}

func TestRate(t *testing.T) {
	for v, want := range map[float64]string{43_123_456: "43.12 M", 612_400: "612 K", 1_234: "1.2 K", 950: "950"} {
		if got := rate(v); got != want {
			t.Errorf("rate(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestVariantFlag(t *testing.T) {
	var v variants
	if err := v.Set("sat=/tmp/a.wasm"); err != nil || len(v) != 1 || v[0] != (variant{"sat", "/tmp/a.wasm"}) {
		t.Errorf("Set(sat=/tmp/a.wasm): %v, %v", v, err)
	}
	for _, bad := range []string{"sat", "=x.wasm", "a/b=x.wasm", "native=x.wasm", "browser=x.wasm", "x="} {
		if err := v.Set(bad); err == nil {
			t.Errorf("Set(%q) accepted", bad)
		}
	}
}

// TestReadVariant checks that a plain build is gzipped, a gzipped one
// kept, and anything else refused.
func TestReadVariant(t *testing.T) {
	dir := t.TempDir()
	plain := append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Repeat([]byte{7}, 100)...)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gz, err := readVariant(write("a.wasm", plain))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	back, _ := io.ReadAll(zr)
	if !bytes.Equal(back, plain) {
		t.Error("the gzipped build is not the file")
	}
	if again, err := readVariant(write("a.wasm.gz", gz)); err != nil || !bytes.Equal(again, gz) {
		t.Errorf("a gzipped build read as %d bytes, %v; want its %d bytes", len(again), err, len(gz))
	}
	if _, err := readVariant(write("x.txt", []byte("hello"))); err == nil {
		t.Error("a text file accepted as a build")
	}
}

// TestBrowserRun runs the whole measurement, briefly, in Chromium: with
// -browser only (go test ./tools/wasmbench -browser -run Browser -v).
func TestBrowserRun(t *testing.T) {
	if !*browserFlag {
		t.Skip("starts Chromium and benches both games (about 20 s): go test ./tools/wasmbench -browser")
	}
	var out bytes.Buffer
	cfg := config{Rounds: 2, Perft: false, Playouts: 200 * time.Millisecond, Search: 200 * time.Millisecond, Loads: 1, Procs: 1, Chromium: "/usr/bin/chromium", PrintRounds: true}
	if err := run(context.Background(), cfg, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Log(out.String())
	for _, want := range []string{"cold", "warm", "restart", "no engine", "after the bench", "WebAssembly.compile", "Magneton, 2 rounds", "Tumbling Down, 2 rounds", "playouts/s", "bytes gzipped"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q", want)
		}
	}
}

func TestParseStat(t *testing.T) {
	for _, c := range []struct {
		in        string
		pid, ppid int
		ok        bool
	}{
		{"1234 (chromium) S 1200 1234 1200 0 -1", 1234, 1200, true},
		{"77 (a (b) c) R 5 77", 77, 5, true},
		{"garbage", 0, 0, false},
		{"12 (x)", 0, 0, false},
	} {
		pid, ppid, ok := parseStat(c.in)
		if ok != c.ok || ok && (pid != c.pid || ppid != c.ppid) {
			t.Errorf("parseStat(%q) = %d, %d, %v; want %d, %d, %v", c.in, pid, ppid, ok, c.pid, c.ppid, c.ok)
		}
	}
}

// TestCPUBetween checks that a thread's growth counts, a new thread's
// whole time too, and a thread that ended takes nothing away.
func TestCPUBetween(t *testing.T) {
	// (Measured by /proc, which Linux has.)
	before := map[int]time.Duration{1: 100, 2: 50, 3: 1000}
	after := map[int]time.Duration{1: 130, 2: 50, 4: 7}
	if got := cpuBetween(before, after); got != 37 {
		t.Errorf("cpuBetween = %v, want 37ns", got)
	}
	if _, err := os.Stat("/proc/self/task"); err != nil {
		return // no /proc here
	}
	if self := threadTimes(os.Getpid()); len(self) == 0 {
		t.Error("no thread of this process in /proc")
	}
}

// TestTopSelf checks a V8 profile's shares: by function name over its
// call paths, without the idle samples.
func TestTopSelf(t *testing.T) {
	node := func(name string, hits int64) *cdpprofiler.ProfileNode {
		return &cdpprofiler.ProfileNode{CallFrame: &runtime.CallFrame{FunctionName: name}, HitCount: hits}
	}
	prof := &cdpprofiler.Profile{Nodes: []*cdpprofiler.ProfileNode{node("(root)", 0), node("(idle)", 50), node("play", 30), node("moves", 10), node("play", 10)}}
	got := topSelf(prof, 1)
	if len(got) != 1 || got[0].name != "play" || got[0].share != 0.8 {
		t.Errorf("topSelf = %+v, want play 0.8", got)
	}
}
