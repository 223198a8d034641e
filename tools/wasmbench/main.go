// Command wasmbench measures the browser's engine against the native
// code on this machine, in one run: the play server in this process (a
// temporary SQLite database, the embedded front end) and a headless
// Chromium that loads its pages.
//
// First the engine's load as a page's user meets it: on each of -loads
// new origins (a new port of the server, so nothing of it is cached) the
// archive page loads the engine through js/engine.js at
// DOMContentLoaded, cold, then again with the engine in the browser's
// cache (warm), then restarts its worker (restart(), what abandoning a
// search does), then visits it loading no engine, for the page's own
// main-thread stalls. Then, for each game, -rounds rounds of engine.Bench (the
// perft suite, -playouts of random playouts, -search of level 8's
// one-thread search, each phase a call of its own) natively in this
// process and in a Web Worker of the site's worker.js, taking turns (the
// order reversed every other round), so that the machine's noise hits
// both. The rates per second are the ones Bench measures itself, inside
// the worker, without the messages; the rates per CPU second divide the
// same work by the CPU time of the side's processes over the call, which
// a shared machine's other jobs disturb less. It prints each side's
// rates, the ratio browser/native of each round's pair, minimum and
// median, and the engine's size; last, a visit and a restart on the
// bench's origin, after the bench.
//
// -variant name=file.wasm[.gz] (repeatable) benches another build of the
// engine in the browser beside the site's, in the same rounds: to try a
// build option, build engine/wasm with it and give the file. -profile DIR
// runs the first round under pprof natively and V8's sampling profiler
// in each worker, and prints the browser's top functions; the site's
// build has no function names (-ldflags=-s), so profile a variant built
// without -s:
//
//	go run ./tools/wasmbench -rounds 3 -playouts 3s -search 2s
//	GOOS=js GOARCH=wasm GOWASM=satconv,signext go build -trimpath -ldflags='-s -w' -o /tmp/sat.wasm ./engine/wasm
//	go run ./tools/wasmbench -loads 0 -variant sat=/tmp/sat.wasm
//	GOOS=js GOARCH=wasm go build -trimpath -o /tmp/named.wasm ./engine/wasm
//	go run ./tools/wasmbench -loads 0 -rounds 1 -variant named=/tmp/named.wasm -profile /tmp/prof
//
// The native bench runs on -procs threads (GOMAXPROCS; 1 by default, as
// WebAssembly's one thread). The tests run it briefly with
// go test ./tools/wasmbench -browser.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/magneton-games/magneton/engine"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/internal/benchutil"
)

// config is the command's flags.
type config struct {
	Rounds           int
	Perft            bool
	Playouts, Search time.Duration
	Games            []string // "" for every game
	Loads            int
	Procs            int
	Chromium         string
	Variants         []variant
	PrintRounds      bool
	Profile          string // a folder for the first round's profiles
}

// variant is a build of the engine to bench beside the site's.
type variant struct{ name, path string }

// variants is the -variant flag.
type variants []variant

func (v *variants) String() string { return fmt.Sprint(*v) }

func (v *variants) Set(s string) error {
	name, path, ok := strings.Cut(s, "=")
	if !ok || name == "" || path == "" || strings.ContainsAny(name, "/?#% ") {
		return errors.New("want name=file.wasm (or .wasm.gz), a name without / ? # % or spaces")
	}
	if name == native || name == browserSide {
		return fmt.Errorf("the name %q is taken", name)
	}
	*v = append(*v, variant{name, path})
	return nil
}

// browserSide is the site's own engine in the browser.
const browserSide = "browser"

func main() {
	cfg := config{}
	var gameList string
	var vs variants
	flag.IntVar(&cfg.Rounds, "rounds", 3, "rounds of each game's bench, native and browser taking turns")
	flag.BoolVar(&cfg.Perft, "perft", true, "run the games' perft suites")
	flag.DurationVar(&cfg.Playouts, "playouts", 3*time.Second, "random playouts from the start, each round (0: none)")
	flag.DurationVar(&cfg.Search, "search", 2*time.Second, "level 8's one-thread search from the start, each round (0: none)")
	flag.StringVar(&gameList, "games", "", "the games, separated by commas (default every game)")
	flag.IntVar(&cfg.Loads, "loads", 3, "new origins on which to time the engine's load cold, warm and restarted (0: none)")
	flag.IntVar(&cfg.Procs, "procs", 1, "GOMAXPROCS of the native bench: 1, as WebAssembly's one thread (0: the machine's)")
	flag.StringVar(&cfg.Chromium, "chromium", "/usr/bin/chromium", "the Chromium to run")
	flag.Var(&vs, "variant", "name=file.wasm[.gz]: another build of engine/wasm to bench in the browser too (repeatable)")
	flag.BoolVar(&cfg.PrintRounds, "v", false, "print each round's figures")
	flag.StringVar(&cfg.Profile, "profile", "", "a folder: profile the first round, natively with pprof and in the browser with V8's profiler")
	flag.Parse()
	if gameList != "" {
		cfg.Games = strings.Split(gameList, ",")
	}
	cfg.Variants = vs
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "wasmbench:", err)
		os.Exit(1)
	}
}

// run measures as cfg says and prints the figures to w.
func run(ctx context.Context, cfg config, w io.Writer) error {
	if cfg.Rounds < 1 || cfg.Loads < 0 || (!cfg.Perft && cfg.Playouts <= 0 && cfg.Search <= 0) {
		return errors.New("want -rounds >= 1, -loads >= 0, and something to bench")
	}
	names, titles, err := gameNames(cfg.Games)
	if err != nil {
		return err
	}
	builds, err := readBuilds(cfg.Variants)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "wasmbench: %s, %d CPUs, load average %s at the start\n", runtime.Version(), runtime.NumCPU(), benchutil.LoadAverage())
	s, err := startSite(ctx, builds.gz)
	if err != nil {
		return err
	}
	defer s.close()
	c, err := startChrome(cfg.Chromium)
	if err != nil {
		return err
	}
	defer c.cancel()
	fmt.Fprintf(w, "browser: %s\n", c.version)
	builds.print(w)
	var loads map[string][]pageLoad
	if cfg.Loads > 0 {
		if loads, err = measureLoads(c, s, cfg.Loads); err != nil {
			return err
		}
	}
	base, err := s.listen()
	if err != nil {
		return err
	}
	res, err := benchRounds(ctx, cfg, c, s, base, names, builds, w)
	if err != nil {
		return err
	}
	if cfg.Loads > 0 {
		if err := afterBench(c, s, base, loads); err != nil {
			return err
		}
		printLoads(w, loads)
	}
	res.print(w, titles, cfg.PrintRounds)
	fmt.Fprintf(w, "\nload average %s at the end\n", benchutil.LoadAverage())
	return nil
}

// gameNames are the games to bench (every game when want is empty), and
// their titles.
func gameNames(want []string) ([]string, map[string]string, error) {
	titles := map[string]string{}
	var all []string
	for _, g := range games.All() {
		all = append(all, g.Spec.Name)
		titles[g.Spec.Name] = g.Spec.Title
	}
	if len(want) == 0 {
		return all, titles, nil
	}
	var out []string
	for _, name := range want {
		rules, err := games.Rules(name, "")
		if err != nil {
			return nil, nil, err
		}
		out = append(out, rules.Spec().Name)
	}
	return out, titles, nil
}

// benchRounds runs the rounds at base: for each game, the native bench and each
// build's in the browser in turn, the order reversed every other round;
// with cfg.Profile, the first under the profilers.
func benchRounds(ctx context.Context, cfg config, c *chrome, s *site, base string, names []string, b *buildSet, w io.Writer) (*results, error) {
	p, err := openBenchPage(c, base)
	if err != nil {
		return nil, err
	}
	defer p.cancel()
	sides := append([]string{native}, b.names...)
	if err := startWorkers(p, b, w); err != nil {
		return nil, err
	}
	res := newResults(names, sides)
	for round := range cfg.Rounds {
		for _, g := range names {
			order := slices.Clone(sides)
			if round%2 == 1 {
				slices.Reverse(order)
			}
			for _, side := range order {
				var x rates
				bench := func() (err error) {
					x, err = benchSide(ctx, cfg, p, side, g)
					return err
				}
				if cfg.Profile != "" && round == 0 {
					err = profiled(cfg.Profile, side, g, p, w, bench)
				} else {
					err = bench()
				}
				if err != nil {
					return nil, err
				}
				res.add(g, side, x)
			}
		}
	}
	return res, nil
}

// startWorkers starts a worker of each build in the page, after timing
// its fetch and compilation in the page three times; it prints those
// times and the worker's own load time.
func startWorkers(p *benchPage, b *buildSet, w io.Writer) error {
	fmt.Fprintln(w, "\nEach build fetched and compiled in the page three times (ms, min / median / max), then loaded by its bench's worker:")
	for _, name := range b.names {
		url := ""
		if name != browserSide {
			url = variantPrefix + name + ".wasm"
		}
		var fetches, compiles []float64
		for range 3 {
			t, err := p.compile(url)
			if err != nil {
				return err
			}
			fetches, compiles = append(fetches, t.Fetch), append(compiles, t.Compile)
		}
		l, err := p.start(name, url)
		if err != nil {
			return err
		}
		f, c := summarize(fetches), summarize(compiles)
		fmt.Fprintf(w, "  %s: fetch %.0f / %.0f / %.0f, WebAssembly.compile %.0f / %.0f / %.0f; the worker's load %.0f (%.0f from new Worker)\n",
			name, f.Min, f.Median, f.Max, c.Min, c.Median, c.Max, l.MS, l.Page)
	}
	return nil
}

// benchSide runs one round of game g on a side, a bench of each phase
// (perft, playouts, search) in turn: natively in this process on
// cfg.Procs threads, or in the side's worker. Each phase's rate per
// second is the one Bench measured; its rate per CPU second counts the
// side's CPU time over the call.
func benchSide(ctx context.Context, cfg config, p *benchPage, side, g string) (rates, error) {
	var x rates
	rules, err := games.Rules(g, "")
	if err != nil {
		return x, err
	}
	once := func(lim engine.BenchLimits) (engine.BenchResult, time.Duration, error) {
		if side != native {
			req := engine.BenchRequest{Game: g, Perft: lim.Perft, PlayoutSeconds: lim.Playouts.Seconds(), SearchSeconds: lim.Search.Seconds()}
			before := threadTimes(p.chromePID)
			r, err := p.bench(side, req)
			return r, cpuBetween(before, threadTimes(p.chromePID)), err
		}
		if cfg.Procs > 0 {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(cfg.Procs))
		}
		runtime.GC()
		before := processCPU()
		r, err := engine.Bench(ctx, rules, lim)
		return r, processCPU() - before, err
	}
	perCPU := func(n float64, cpu time.Duration) float64 {
		if cpu <= 0 {
			return 0
		}
		return n / cpu.Seconds()
	}
	if cfg.Perft {
		r, cpu, err := once(engine.BenchLimits{Perft: true})
		if err != nil {
			return x, err
		}
		var leaves uint64
		for _, c := range r.Perft {
			leaves += c.Leaves
		}
		x.Perft, x.PerftCPU = r.PerftNPS, perCPU(float64(leaves), cpu)
	}
	if cfg.Playouts > 0 {
		r, cpu, err := once(engine.BenchLimits{Playouts: cfg.Playouts})
		if err != nil {
			return x, err
		}
		x.Playouts, x.PlayoutsCPU = r.PlayoutsPerSecond, perCPU(float64(r.Playouts.Games), cpu)
	}
	if cfg.Search > 0 {
		r, cpu, err := once(engine.BenchLimits{Search: cfg.Search})
		if err != nil {
			return x, err
		}
		x.Search, x.SearchCPU, x.Depth = r.SearchNPS, perCPU(float64(r.SearchNodes), cpu), r.SearchDepth
	}
	return x, nil
}
