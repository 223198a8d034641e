package main

import (
	"fmt"
	"time"
)

// loadProbe runs in each document of a load tab before the page's own
// scripts: at DOMContentLoaded (when the page's modules have run) it
// loads the engine through js/engine.js, as a page that wants it does,
// and window.__wasmbench.done is the JSON of what it saw, in
// milliseconds from the navigation's start: the first contentful paint,
// DOMContentLoaded, the engine ready, the worker's own load time
// (loadTime()), and the main thread's longest stall meanwhile (a 5 ms
// timer's longest gap: the page is usable while the engine loads when it
// is small). With ?noengine in the address it loads no engine and
// watches the timer for noEngineMS instead: the page's own stalls, to
// hold those against.
const loadProbe = `(() => {
  if (location.protocol !== 'http:') return;
  const wb = window.__wasmbench = {};
  const noEngine = location.search.includes('noengine');
  wb.done = new Promise((resolve) => {
    document.addEventListener('DOMContentLoaded', () => {
      const dcl = performance.now();
      let last = dcl, stall = 0;
      const timer = setInterval(() => { const now = performance.now(); stall = Math.max(stall, now - last); last = now; }, 5);
      const fcp = () => { const e = performance.getEntriesByName('first-contentful-paint')[0]; return e ? e.startTime : 0; };
      if (noEngine) {
        setTimeout(() => {
          clearInterval(timer);
          resolve(JSON.stringify({ ok: true, dcl, stall, fcp: fcp() }));
        }, ` + noEngineMS + `);
        return;
      }
      import('/js/engine.js').then((m) => m.load().then((ok) => {
        const ready = performance.now();
        clearInterval(timer);
        resolve(JSON.stringify({ ok, dcl, ready, worker: m.loadTime(), stall: Math.max(stall, ready - last), fcp: fcp(), error: m.failed() }));
      })).catch((e) => resolve(JSON.stringify({ error: String(e) })));
    });
  });
})();`

// noEngineMS is how long a page without the engine is watched for its
// own stalls: about as long as the engine takes to load.
const noEngineMS = "600"

// restartJS restarts the engine's worker as js/engine.js does to abandon
// a search (restart()), and times it until the new worker is ready.
const restartJS = `import('/js/engine.js').then(async (m) => {
  const t0 = performance.now();
  m.restart();
  const ok = await m.load();
  return JSON.stringify({ ok, ready: performance.now() - t0, worker: m.loadTime(), error: m.failed() });
})`

// pageLoad is one load of a page and its engine (loadProbe), or a
// restart (restartJS), in milliseconds; Requests and Bytes are the
// engine's requests and bytes the server saw meanwhile.
type pageLoad struct {
	OK     bool    `json:"ok"`
	FCP    float64 `json:"fcp"`
	DCL    float64 `json:"dcl"`
	Ready  float64 `json:"ready"`
	Worker float64 `json:"worker"`
	Stall  float64 `json:"stall"`
	Error  string  `json:"error"`

	Requests, Bytes int64
}

// loadRows are the kinds of load printed, in this order. On each new
// origin: a first visit (nothing cached), a second visit (the engine in
// the browser's cache), a restart of the worker on that page, and a
// visit that loads no engine (the page's own stalls); after
// the bench, a visit and a restart on the bench's origin, whose engine
// V8 has run for a while (and may have cached its optimized code).
var loadRows = []string{"cold", "warm", "restart", "warm, no engine", "warm after the bench", "restart after the bench"}

// measureLoads measures n times, each on a new origin of the site, a
// cold visit, a warm one and a restart.
func measureLoads(c *chrome, s *site, n int) (map[string][]pageLoad, error) {
	out := map[string][]pageLoad{}
	for range n {
		base, err := s.listen()
		if err != nil {
			return nil, err
		}
		loads, err := loadsOn(c, s, base, []string{"visit", "visit", "restart", "noengine"})
		if err != nil {
			return nil, err
		}
		for i, k := range loadRows[:4] {
			out[k] = append(out[k], loads[i])
		}
	}
	return out, nil
}

// afterBench adds to loads a visit and a restart at base, the bench's
// origin, after the bench.
func afterBench(c *chrome, s *site, base string, loads map[string][]pageLoad) error {
	l, err := loadsOn(c, s, base, []string{"visit", "restart"})
	if err != nil {
		return err
	}
	loads[loadRows[4]] = append(loads[loadRows[4]], l[0])
	loads[loadRows[5]] = append(loads[loadRows[5]], l[1])
	return nil
}

// loadsOn loads at base, in a tab of its own, a page of the site and its
// engine ("visit"), or restarts the engine's worker ("restart"), or
// loads the page alone ("noengine"), as actions say, each timed.
func loadsOn(c *chrome, s *site, base string, actions []string) ([]pageLoad, error) {
	ctx, cancel, err := c.tab(loadProbe)
	if err != nil {
		return nil, err
	}
	defer cancel()
	var out []pageLoad
	for i, action := range actions {
		r0, b0 := s.fetched()
		var l pageLoad
		if action == "restart" {
			err = evalJSON(ctx, restartJS, 2*time.Minute, &l)
		} else {
			if err := navigate(ctx, "about:blank"); err != nil {
				return nil, err
			}
			url := base + "/#/archive"
			if action == "noengine" {
				url = base + "/?noengine#/archive"
			}
			if err := navigate(ctx, url); err != nil {
				return nil, err
			}
			err = evalJSON(ctx, `window.__wasmbench.done`, 2*time.Minute, &l)
		}
		if err != nil {
			return nil, fmt.Errorf("load %d (%s) at %s: %w", i+1, action, base, err)
		}
		if !l.OK {
			return nil, fmt.Errorf("load %d (%s) at %s: the engine did not load: %s", i+1, action, base, l.Error)
		}
		r1, b1 := s.fetched()
		l.Requests, l.Bytes = r1-r0, b1-b0
		out = append(out, l)
	}
	return out, nil
}
