package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	cdpprofiler "github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// With -profile DIR the first round runs under the profilers: natively
// runtime/pprof (DIR/native-GAME.pprof, for go tool pprof), in the
// browser V8's sampling profiler of the side's worker
// (DIR/SIDE-GAME.cpuprofile, which Chromium's DevTools open), whose
// functions' shares of the samples it prints. The site's build is
// stripped of its function names (-ldflags=-s); a variant built without
// -s names them (see the command's doc).

// profiled runs fn, one round of a game on a side, under its profiler,
// writing the profile into dir; it prints a browser profile's top
// functions to w.
func profiled(dir, side, game string, p *benchPage, w io.Writer, fn func() error) error {
	if side == native {
		f, err := os.Create(filepath.Join(dir, "native-"+game+".pprof"))
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		err = fn()
		pprof.StopCPUProfile()
		return err
	}
	prof, err := p.v8Profile(side, fn)
	if err != nil {
		return err
	}
	b, err := json.Marshal(prof)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, side+"-"+game+".cpuprofile")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s in the browser (%s), the functions' shares of the samples (%s):\n", game, side, path)
	for _, s := range topSelf(prof, 15) {
		fmt.Fprintf(w, "  %5.1f%%  %s\n", s.share*100, s.name)
	}
	return nil
}

// v8Profile runs fn under V8's sampling profiler in the worker of side.
func (p *benchPage) v8Profile(side string, fn func() error) (*cdpprofiler.Profile, error) {
	targets, err := chromedp.Targets(p.ctx)
	if err != nil {
		return nil, err
	}
	var id target.ID
	for _, t := range targets {
		if t.Type == "worker" && strings.HasSuffix(t.URL, "v=wasmbench-"+side) {
			id = t.TargetID
		}
	}
	if id == "" {
		return nil, fmt.Errorf("no worker of %s to profile", side)
	}
	wctx, cancel := chromedp.NewContext(p.ctx, chromedp.WithTargetID(id), chromedp.WithDetachOnCancel())
	defer cancel()
	for _, step := range []func(context.Context) error{
		func(ctx context.Context) error {
			_, err := chromedp.Call(ctx, cdpprofiler.Enable, cdp.Empty{})
			return err
		},
		func(ctx context.Context) error {
			_, err := chromedp.Call(ctx, cdpprofiler.SetSamplingInterval, cdpprofiler.SetSamplingIntervalParams{Interval: 200})
			return err
		},
		func(ctx context.Context) error {
			_, err := chromedp.Call(ctx, cdpprofiler.Start, cdp.Empty{})
			return err
		},
	} {
		if err := step(wctx); err != nil {
			return nil, fmt.Errorf("start the profiler of %s's worker: %w", side, err)
		}
	}
	ferr := fn()
	res, err := chromedp.Call(wctx, cdpprofiler.Stop, cdp.Empty{})
	if ferr != nil {
		return nil, ferr
	}
	if err != nil {
		return nil, fmt.Errorf("stop the profiler of %s's worker: %w", side, err)
	}
	return res.Profile, nil
}

// selfShare is a function's share of a profile's samples on top of the
// stack.
type selfShare struct {
	name  string
	share float64
}

// topSelf is the n functions of a V8 profile with the most samples of
// their own, by name (the same function in several call paths summed);
// the idle and the profiler's own samples are left out.
func topSelf(prof *cdpprofiler.Profile, n int) []selfShare {
	hits := map[string]int64{}
	var total int64
	for _, nd := range prof.Nodes {
		if nd.CallFrame == nil || nd.HitCount == 0 {
			continue
		}
		name := nd.CallFrame.FunctionName
		switch name {
		case "(idle)", "(program)", "(root)":
			continue
		case "":
			name = "(anonymous) " + nd.CallFrame.URL
		}
		hits[name] += nd.HitCount
		total += nd.HitCount
	}
	var out []selfShare
	for name, h := range hits {
		out = append(out, selfShare{name, float64(h) / float64(total)})
	}
	slices.SortFunc(out, func(a, b selfShare) int {
		return cmp.Or(cmp.Compare(b.share, a.share), strings.Compare(a.name, b.name))
	})
	return out[:min(n, len(out))]
}
