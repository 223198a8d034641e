package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/magneton-games/magneton/engine"
)

// chrome is a headless Chromium with a fresh profile of its own.
type chrome struct {
	ctx     context.Context
	cancel  func()
	profile string
	version string
	pid     int
}

// startChrome starts Chromium at path.
func startChrome(path string) (*chrome, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("no Chromium at %s (-chromium): %w", path, err)
	}
	profile, err := os.MkdirTemp("", "wasmbench-chromium")
	if err != nil {
		return nil, err
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		// A tab left alone runs at full speed.
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.UserDataDir(profile),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	c := &chrome{ctx: bctx, profile: profile, cancel: func() {
		cancelBrowser()
		cancelAlloc()
		os.RemoveAll(profile)
	}}
	v, err := chromedp.CallBrowser(bctx, cdpbrowser.GetVersion, cdp.Empty{})
	if err != nil {
		c.cancel()
		return nil, fmt.Errorf("start Chromium: %w", err)
	}
	c.version = v.Product
	if b := chromedp.FromContext(bctx).Browser; b != nil && b.Process() != nil {
		c.pid = b.Process().Pid
	}
	if c.pid <= 0 {
		c.cancel()
		return nil, errors.New("the process id of Chromium is unknown: its CPU time cannot be measured")
	}
	return c, nil
}

// tab opens a tab in the browser's own profile (so that the tabs share
// its cache); probe, if not empty, runs in each document it loads before
// the document's own scripts.
func (c *chrome) tab(probe string) (context.Context, func(), error) {
	ctx, cancel := chromedp.NewContext(c.ctx)
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		return nil, nil, fmt.Errorf("open a tab: %w", err)
	}
	if probe != "" {
		if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: probe}); err != nil {
			cancel()
			return nil, nil, fmt.Errorf("add the page's probe: %w", err)
		}
	}
	return ctx, cancel, nil
}

// navigate loads url in the tab and waits for its load event.
func navigate(ctx context.Context, url string) error {
	tctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(url)); err != nil {
		return fmt.Errorf("open %s: %w", url, err)
	}
	return nil
}

// evalJSON evaluates a JavaScript expression whose value (or promise's
// value) is a JSON text, and decodes it into v.
func evalJSON(ctx context.Context, expr string, timeout time.Duration, v any) error {
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	s, err := chromedp.Run(tctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		return fmt.Errorf("evaluate %.60s…: %w", expr, err)
	}
	if err := json.Unmarshal([]byte(s), v); err != nil {
		return fmt.Errorf("evaluate %.60s…: its answer %.200s: %w", expr, s, err)
	}
	return nil
}

// workersJS defines window.wasmbench in a page of the site: workers of
// the site's own worker.js (the protocol of js/engine.js), each loading
// one build of the engine, and calls to them. Each answer is JSON.
const workersJS = `(() => {
  if (window.wasmbench) return '{}';
  const workers = {};
  let nextID = 1;
  window.wasmbench = {
    // start makes a worker that loads the engine at url (the page's own
    // when url is ''): its answer is the worker's load time (ms) and the
    // page's, from new Worker to ready.
    start(name, url) {
      return new Promise((resolve) => {
        const t0 = performance.now();
        const w = new Worker('/engine/worker.js?v=wasmbench-' + encodeURIComponent(name));
        const pending = new Map();
        workers[name] = { w, pending };
        w.onmessage = (e) => {
          const m = e.data || {};
          if (m.type === 'ready') resolve(JSON.stringify({ ms: m.ms, page: performance.now() - t0 }));
          else if (m.type === 'failed') resolve(JSON.stringify({ error: m.error }));
          else if (m.type === 'result' || m.type === 'error') {
            const p = pending.get(m.id);
            if (p) { pending.delete(m.id); p(m); }
          }
        };
        w.onerror = (e) => resolve(JSON.stringify({ error: (e && e.message) || 'the worker failed' }));
        w.postMessage({ type: 'load', url: url || document.querySelector('meta[name="engine"]').content });
      });
    },
    // compile fetches the engine at url (the page's own when '') and
    // compiles it, not instantiated: the times of the two (ms).
    async compile(url) {
      const t0 = performance.now();
      const bytes = await (await fetch(url || document.querySelector('meta[name="engine"]').content)).arrayBuffer();
      const t1 = performance.now();
      await WebAssembly.compile(bytes);
      return JSON.stringify({ fetch: t1 - t0, compile: performance.now() - t1 });
    },
    // call answers one call of engine.Session in the worker name, with
    // the time from posting it to its answer (ms).
    call(name, op, req) {
      const { w, pending } = workers[name];
      const id = nextID++;
      const t0 = performance.now();
      return new Promise((resolve) => {
        pending.set(id, (m) => resolve(JSON.stringify({ ok: m.type === 'result', value: m.value, error: m.error, ms: performance.now() - t0 })));
        w.postMessage({ type: 'call', id, op, req });
      });
    },
  };
  return '{}';
})()`

// benchPage is a tab of the site with workers of the engine's builds.
type benchPage struct {
	ctx       context.Context
	cancel    func()
	chromePID int // the browser's process, the root of its tree
}

// openBenchPage opens the site's archive (a page that runs the front
// end's modules and asks nothing of the server once shown) at base.
func openBenchPage(c *chrome, base string) (*benchPage, error) {
	ctx, cancel, err := c.tab("")
	if err != nil {
		return nil, err
	}
	p := &benchPage{ctx: ctx, cancel: cancel, chromePID: c.pid}
	if err := navigate(ctx, base+"/#/archive"); err != nil {
		cancel()
		return nil, err
	}
	var none struct{}
	if err := evalJSON(ctx, workersJS, 10*time.Second, &none); err != nil {
		cancel()
		return nil, err
	}
	return p, nil
}

// workerLoad is a worker's load of the engine: the worker's own time
// (fetch, compile, instantiate, the Go program's start) and the page's,
// from new Worker to the ready message, in milliseconds.
type workerLoad struct {
	MS    float64 `json:"ms"`
	Page  float64 `json:"page"`
	Error string  `json:"error"`
}

// start starts the worker name with the engine at url ("" for the site's).
func (p *benchPage) start(name, url string) (workerLoad, error) {
	var l workerLoad
	if err := evalJSON(p.ctx, fmt.Sprintf(`window.wasmbench.start(%q, %q)`, name, url), 2*time.Minute, &l); err != nil {
		return l, err
	}
	if l.Error != "" {
		return l, fmt.Errorf("the engine %s did not load: %s", name, l.Error)
	}
	return l, nil
}

// bench runs engine.Bench in the worker name; the figures are the ones
// Bench measured inside the worker, without the messages' time.
func (p *benchPage) bench(name string, req engine.BenchRequest) (engine.BenchResult, error) {
	var out struct {
		OK    bool
		Value engine.BenchResult
		Error json.RawMessage
	}
	b, _ := json.Marshal(req)
	expr := fmt.Sprintf(`window.wasmbench.call(%q, 'bench', %s)`, name, b)
	timeout := 10*time.Minute + seconds(req.PlayoutSeconds+req.SearchSeconds)
	if err := evalJSON(p.ctx, expr, timeout, &out); err != nil {
		return engine.BenchResult{}, err
	}
	if !out.OK {
		return engine.BenchResult{}, fmt.Errorf("the browser's bench of %s: %s", req.Game, out.Error)
	}
	return out.Value, nil
}

// seconds is a float's seconds as a duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// compileTime is the fetch and compilation of a build in the page,
// without instantiating it or starting its Go program.
type compileTime struct {
	Fetch, Compile float64 // ms
}

// compile times the fetch and compilation of the build at url ("" for
// the site's) in the page.
func (p *benchPage) compile(url string) (compileTime, error) {
	var t compileTime
	err := evalJSON(p.ctx, fmt.Sprintf(`window.wasmbench.compile(%q)`, url), 2*time.Minute, &t)
	return t, err
}
