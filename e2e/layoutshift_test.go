package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// homeReady: the home page has drawn what it reads from the server after
// it is first drawn: the new-game form, the learning links and the daily
// puzzle.
const homeReady = `!!document.querySelector('.card.create form') && document.querySelectorAll('.learn-home a').length > 1 && !!document.querySelector('.daily-puzzle .board-box *') && !!document.querySelector('.daily-puzzle p.muted, .daily-puzzle p.error')?.textContent && !!document.querySelector('.card.quick button')`

// layoutShifts is the page's layout shifts so far (the browser's Layout
// Instability API, which buffers them from the page's start), those
// caused by the user's input aside, each with the elements that moved;
// read two frames on, so that the last drawing's shifts are in.
const layoutShifts = `new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => {
  const obs = new PerformanceObserver(() => {});
  obs.observe({ type: 'layout-shift', buffered: true });
  const shifts = obs.takeRecords().filter((e) => !e.hadRecentInput);
  obs.disconnect();
  resolve(shifts.map((e) => ({ value: e.value, what: (e.sources || []).map((s) => (s.node ? (s.node.className || s.node.nodeName) : 'gone') + ' ' + [s.previousRect, s.currentRect].map((r) => r.x + ',' + r.y + ' ' + r.width + 'x' + r.height).join(' to ')).join('; ') })));
})))`

type layoutShift struct {
	Value float64 `json:"value"`
	What  string  `json:"what"`
}

// TestBrowserHomeNoLayoutShift: the home page does not move under its
// reader while it loads what it reads from the server after it is drawn
// (the form for a new game, the learning links, the daily puzzle, the
// quick pairing): its cumulative layout shift stays under 0.02 (the Web's
// guidance calls under 0.1 good), on a desktop window and on a phone, in
// English and in Spanish.
func TestBrowserHomeNoLayoutShift(t *testing.T) {
	base, tabs := openTabs(t, "desktop", "phone")
	tabs[1].asPhone()
	for _, p := range tabs {
		for _, lang := range []string{"en", "es"} {
			p.goTo(base + "/")
			p.waitFor("the language menu", `!!document.querySelector('#lang')`, 10*time.Second)
			p.chooseLang(lang)
			p.waitFor("the page in "+lang, fmt.Sprintf(`document.documentElement.lang === %q`, lang), 10*time.Second)
			p.do(chromedp.Reload())
			p.waitFor("the home page in "+lang, fmt.Sprintf(`document.documentElement.lang === %q && (%s)`, lang, homeReady), 15*time.Second)
			shifts := eval[[]layoutShift](p, layoutShifts)
			var sum float64
			for _, s := range shifts {
				sum += s.Value
			}
			t.Logf("%s, %s: cumulative layout shift %.4f in %d shifts", p.name, lang, sum, len(shifts))
			if sum >= 0.02 {
				t.Errorf("%s, %s: the home page moved while it loaded: cumulative layout shift %.3f: %+v", p.name, lang, sum, shifts)
			}
		}
		p.checkConsole()
	}
}

// TestBrowserHomeSlowRead: a read of the home page's that does not answer
// (here the daily puzzle's, held by the browser) does not keep the page
// hidden: it shows within its wait (2 s) with the rest filled in, and the
// puzzle's card fills in when its answer comes.
func TestBrowserHomeSlowRead(t *testing.T) {
	base, tabs := openTabs(t, "visitor")
	p := tabs[0]
	held := p.holdRequests("*/api/puzzles/daily", "for the daily puzzle (GET /api/puzzles/daily)")
	start := time.Now()
	p.goTo(base + "/")
	id := held.next()
	p.waitFor("the home page shown without its puzzle", `(h => h && !h.classList.contains('is-loading') && !h.hasAttribute('aria-busy'))(document.querySelector('.home')) && !!document.querySelector('.card.create form') && !document.querySelector('.daily-puzzle .board-box *')`, 10*time.Second)
	took := time.Since(start)
	t.Logf("shown after %v", took)
	if took < 1500*time.Millisecond {
		t.Errorf("shown after %v, before its wait of 2 s was up: did it wait for the puzzle at all?", took)
	}
	held.release(id)
	p.waitFor("the daily puzzle drawn", `!!document.querySelector('.daily-puzzle .board-box *')`, 10*time.Second)
	p.checkConsole()
}
