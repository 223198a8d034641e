package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/magneton-games/magneton/engine"
	"github.com/magneton-games/magneton/games"
)

// engineCall is run in a page: one call of the browser's engine
// (js/engine.js), its answer or its refusal as JSON.
func engineCall(op string, req any) string {
	b, _ := json.Marshal(req)
	return fmt.Sprintf(`import('/js/engine.js').then(m => m.call(%q, %s)).then(v => JSON.stringify(v), e => JSON.stringify({error: e.message, code: e.code}))`, op, b)
}

// TestBrowserEngineRules checks that the browser's engine is the server's
// rules: the same positions, legal moves and results as package engine
// natively, for every game, from positions of its reference data, and the
// same refusals for a wrong move.
func TestBrowserEngineRules(t *testing.T) {
	base := startServer(t)
	p := tab(t, browser(t), "engine")
	p.goTo(base + "/analysis")
	p.waitFor("the engine", `import('/js/engine.js').then(m => m.load())`, 60*time.Second)
	for _, g := range games.All() {
		rules, err := games.Rules(g.Spec.Name, "")
		if err != nil {
			t.Fatal(err)
		}
		st := rules.Start()
		var moves []string
		for i := 0; i < 12; i++ {
			legal := st.Moves()
			if len(legal) == 0 {
				break
			}
			mv := legal[(i*7)%len(legal)]
			moves = append(moves, mv)
			if st, err = st.Play(mv); err != nil {
				t.Fatal(err)
			}
			if res, _ := st.Outcome(); res.Over() {
				break
			}
		}
		for _, req := range []engine.PlayRequest{
			{Game: g.Spec.Name, Moves: moves},
			{Game: g.Spec.Name, Moves: append(append([]string{}, moves[:2]...), "zz9")},
			{Game: g.Spec.Name, Position: "not a position"},
		} {
			want, werr := engine.Play(req)
			out := eval[string](p, engineCall("play", req))
			if werr != nil {
				var got struct{ Error, Code string }
				json.Unmarshal([]byte(out), &got)
				if got.Code == "" || got.Error == "" {
					t.Errorf("%s %v: the browser answered %s, want the refusal %v", g.Spec.Name, req, out, werr)
				}
				continue
			}
			var got any
			var wantJSON any
			json.Unmarshal([]byte(out), &got)
			b, _ := json.Marshal(want)
			json.Unmarshal(b, &wantJSON)
			if d := cmp.Diff(wantJSON, got); d != "" {
				t.Errorf("%s %v: the browser's engine differs from the native (-native +browser):\n%s", g.Spec.Name, req, d)
			}
		}
	}
	p.checkConsole()
}

// blockAnalyze makes the tab's requests to the server's engine fail, as
// if the server had none, and checks that they do.
func (p *page) blockAnalyze() {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		p.t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: []*network.BlockPattern{{URLPattern: "*://*:*/api/analyze", Block: true}}}); err != nil {
		p.t.Fatal(err)
	}
	if got := eval[string](p, `fetch('/api/analyze', {method: 'POST', body: '{}'}).then(r => 'answered ' + r.status, e => 'blocked')`); got != "blocked" {
		p.t.Fatalf("/api/analyze is not blocked: %s", got)
	}
}

// analysisShown is what the analysis board's engine panel shows.
type analysisShown struct {
	Where  string   `json:"where"`
	Depth  int      `json:"depth"`
	Score  string   `json:"score"`
	Best   string   `json:"best"`
	Firsts []string `json:"firsts"` // each line's first move
	Arrows []string `json:"arrows"` // the arrows' moves, best first
	Proven string   `json:"proven"`
}

const readAnalysis = `(() => {
	const q = (s) => document.querySelector(s);
	const b = window.analysisBoard;
	const e = b && b.cur && b.engine.shown(b.cur);
	return {
		where: (q('.an-where') && q('.an-where').dataset.where) || '',
		depth: (e && e.depth) || 0,
		score: (q('.analysis-out .score') || {}).textContent || '',
		best: (q('.analysis-out .best') || {}).textContent || '',
		firsts: [(q('.analysis-out .best') || {}).textContent || '', ...[...document.querySelectorAll('.analysis-out .alt-line .pv-moves')].map((l) => l.textContent.split(' ')[0])],
		arrows: [...document.querySelectorAll('.board .arrows .arrow')].map((a) => a.dataset.move),
		proven: (q('.analysis-out .proven') || {}).textContent || '',
	};
})()`

// TestBrowserAnalysisInBrowser: with the server's engine blocked, the
// analysis board analyses in the browser: three lines that deepen until
// stopped, arrows for their moves, and the proven result of a won
// position.
func TestBrowserAnalysisInBrowser(t *testing.T) {
	base := startServer(t)
	p := tab(t, browser(t), "analyst")
	p.goTo(base + "/analysis?game=magneton")
	p.blockAnalyze()
	p.waitFor("the engine in the browser", `document.querySelector('.an-where') && document.querySelector('.an-where').dataset.where === 'browser'`, 60*time.Second)
	p.waitFor("the analysis board", `window.analysisBoard && window.analysisBoard.cur && window.analysisBoard.cur.legal`, 10*time.Second)
	p.anPlay("d4", false)
	p.waitFor("three lines at depth 2 or more", `(a => a.depth >= 2 && a.firsts.length === 3 && new Set(a.firsts).size === 3)(`+readAnalysis+`)`, 30*time.Second)
	first := eval[analysisShown](p, readAnalysis)
	p.waitFor("a deeper depth", fmt.Sprintf(`%s.depth > %d`, readAnalysis, first.Depth), 60*time.Second)
	a := eval[analysisShown](p, readAnalysis)
	if len(a.Arrows) != 3 || a.Arrows[0] != a.Best {
		t.Errorf("arrows %v for the lines %v: want one for each line, the best first", a.Arrows, a.Firsts)
	}
	if a.Score == "" || a.Where != "browser" {
		t.Errorf("shown %+v", a)
	}
	p.click("#an-stop")
	p.waitFor("the analysis stopped", `document.querySelector('#an-stop').hidden && !window.analysisBoard.engine.local`, 5*time.Second)

	// Tumbling Down: Black's three disks on a1 tumble onto Red's King on
	// a4 (the rules' worked example), proven by the browser's proof
	// search.
	p.goTo(base + "/analysis?game=tumbling-down&position=" + url.QueryEscape("8/8/8/8/rr,7/8/8/bbb,7 b"))
	p.blockAnalyze()
	p.waitFor("the proof in the browser", `(a => a.where === 'browser' && a.proven === 'Proven: Black wins in 1' && a.best === 'a1>a2')(`+readAnalysis+`)`, 60*time.Second)

	// The start: proven by the certificate of the server's book, which
	// the browser's engine reads (GET /engine/book.json).
	p.goTo(base + "/analysis?game=tumbling-down")
	p.blockAnalyze()
	p.waitFor("the start's proof from the book", `(a => a.where === 'browser' && a.proven === 'Proven: Black wins in 7 moves or fewer')(`+readAnalysis+`)`, 60*time.Second)
	p.checkConsole()
}
