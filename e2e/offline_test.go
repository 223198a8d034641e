package e2e

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/magneton-games/magneton/server"
	"github.com/magneton-games/magneton/web"
)

// byRuleParams are the parameters of Network.emulateNetworkConditionsByRule
// in both of the shapes Chromium has given it: "offline" for all the rules
// at once (Chromium 148, which Debian has shipped) and "offline" in each
// rule with "emulateOfflineServiceWorker" (later versions, cdproto's).
// Each version ignores the fields it does not know.
type byRuleParams struct {
	Offline                     bool                  `json:"offline"`
	EmulateOfflineServiceWorker bool                  `json:"emulateOfflineServiceWorker"`
	MatchedNetworkConditions    []*network.Conditions `json:"matchedNetworkConditions"`
}

// emulateByRule is Network.emulateNetworkConditionsByRule with byRuleParams.
var emulateByRule = cdp.Command[byRuleParams, network.EmulateNetworkConditionsByRuleResult]{Method: network.CommandEmulateNetworkConditionsByRule}

// setOffline cuts the tab's network, or gives it back: every request of
// the page and of its service worker fails, and navigator.onLine says so.
func (p *page) setOffline(off bool) {
	p.t.Helper()
	sw := off
	cond := []*network.Conditions{{Offline: off, DownloadThroughput: -1, UploadThroughput: -1}}
	if !off {
		cond = []*network.Conditions{}
	}
	if _, err := chromedp.Call(p.ctx, emulateByRule, byRuleParams{Offline: off, EmulateOfflineServiceWorker: sw, MatchedNetworkConditions: cond}); err != nil {
		p.t.Fatalf("%s: network conditions: %v", p.name, err)
	}
	if _, err := chromedp.Call(p.ctx, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: off, DownloadThroughput: -1, UploadThroughput: -1}); err != nil {
		p.t.Fatalf("%s: network state: %v", p.name, err)
	}
	p.waitFor("navigator.onLine", fmt.Sprintf(`navigator.onLine === %v`, !off), 5*time.Second)
}

// stillOffline cuts the network again after a reload if the browser gave
// it back: Chromium 148 (Debian's) forgets the emulation when a reload
// makes a new document, later versions keep it. The page then hears the
// browser go offline, as when a player's connection drops.
func (p *page) stillOffline() {
	p.t.Helper()
	p.waitFor("the page after the reload", `document.readyState === 'complete'`, 20*time.Second)
	if eval[bool](p, `navigator.onLine`) {
		p.setOffline(true)
	}
}

// checkInstallable opens the site in a tab of the browser's own profile
// (the tests' tabs are private windows, where nothing installs) and
// checks that Chromium finds no reason not to install it.
func checkInstallable(t *testing.T, bctx context.Context, base string) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(bctx)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil { // the tab, living as long as ctx
		t.Fatalf("open a tab: %v", err)
	}
	p := &page{t: t, name: "installer", ctx: ctx}
	p.goTo(base + "/")
	p.waitFor("the service worker", `window.magnetonOffline && window.magnetonOffline.controlled`, 60*time.Second)
	res, err := chromedp.Call(ctx, cdppage.GetInstallabilityErrors, cdp.Empty{})
	if err != nil {
		t.Fatalf("installability: %v", err)
	}
	for _, e := range res.InstallabilityErrors {
		var args []string
		for _, a := range e.ErrorArguments {
			args = append(args, a.Name+"="+a.Value)
		}
		t.Errorf("Chromium would not install the site: %s %v", e.ErrorID, args)
	}
}

// TestBrowserOffline: a player signs up, and the service worker takes
// over the page with the whole front end cached and puzzles kept (and
// Chromium would install the site). Then the server stops and the network goes: a
// reload opens the site, which says it is offline and what works; the
// player plays a whole game against the computer in the browser (with a
// takeback), solves a lesson, holds out in a drill against the browser's
// engine and solves a kept puzzle, and plays moves on the analysis board.
// The server comes back with the network: the lesson, the stars of both
// and the puzzle's result reach the account.
func TestBrowserOffline(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	ts := serve(t, db, "127.0.0.1:0", nil)
	base := ts.url
	bctx := browser(t)
	checkInstallable(t, bctx, base)
	p := tab(t, bctx, "traveller")
	p.signUp(base, "traveller", "far from home")
	p.waitFor("the service worker", `window.magnetonOffline.controlled && window.magnetonOffline.version`, 60*time.Second)
	p.waitFor("the puzzles kept", `(k => k && k.account === 'traveller' && (k.games.magneton || []).length > 0)(JSON.parse(localStorage.getItem('puzzles.kept')))`, 30*time.Second)

	ts.stop()
	p.setOffline(true)
	p.do(chromedp.Reload())
	p.stillOffline()
	p.waitFor("the offline home page", `document.querySelector('.offline-page .offline-choices') && !document.querySelector('.offline-banner').hidden`, 20*time.Second)
	if got := eval[string](p, `document.querySelector('.account').textContent`); !strings.Contains(got, "traveller") || !strings.Contains(got, "offline") {
		t.Errorf("offline the header's account says %q", got)
	}
	p.axeCheck("the offline home page")
	p.click(`.offline-choices a[href="/computer"]`)
	offlineComputerGame(t, p)

	p.goTo(base + "/learn/magneton")
	p.stillOffline()
	p.openLesson("drop")
	p.boardPlay(".lesson", "d4")
	p.lessonMsg("right")
	offlineHoldOut(t, p)

	pz := offlinePuzzle(t, p, base)

	p.openAnalysis(base + "/analysis?game=magneton")
	p.stillOffline()
	p.anPlay("d4", false)
	p.anPlay("e5", false)
	if n := eval[int](p, treeMoves); n != 2 {
		t.Errorf("offline the analysis tree has %d moves, want 2", n)
	}
	p.waitFor("the engine's lines offline", `(a => a.where === 'browser' && a.best.length >= 2 && a.firsts.length === 3)(`+readAnalysis+`)`, 30*time.Second)

	// Back: the server, then the network.
	serve(t, db, ts.addr, nil)
	p.setOffline(false)
	p.waitFor("the lesson solved on the server", `fetch('/api/account/learn').then(r => r.json()).then(m => (m.magneton || []).includes('drop'))`, 20*time.Second)
	p.waitFor("the puzzle's result on the server", fmt.Sprintf(`fetch('/api/puzzles?game=magneton').then(r => r.json()).then(m => m.puzzles.some(x => x.id === %q && x.tried))`, pz), 20*time.Second)
	p.waitFor("the stars won offline on the server", `fetch('/api/account/learn-stars').then(r => r.json()).then(m => (s => s['drop:0'] === 3 && s['hold-out:0'] === 3)(m.magneton || {}))`, 20*time.Second)
	p.waitFor("the queue emptied", `JSON.parse(localStorage.getItem('puzzles.queue') || '[]').length === 0 && !localStorage.getItem('learn.magneton') && !localStorage.getItem('learnstars.magneton')`, 10*time.Second)
	p.checkConsole()
}

// offlineHoldOut holds out, offline, for two moves in Magneton's lesson
// "Hold out for two moves", the browser's engine answering (the server's
// analysis is out of reach), the learner's second move found by the rules
// engine: three stars, kept in the browser for the account.
func offlineHoldOut(t *testing.T, p *page) {
	t.Helper()
	p.click(`.lesson-list li[data-lesson="hold-out"] button`)
	p.openLesson("hold-out")
	p.waitFor("the browser's engine", `import('/js/engine.js').then((m) => m.status() === 'ready')`, 60*time.Second)
	p.holdOut("magneton", "held out offline")
	p.waitFor("the stars kept in the browser", `(JSON.parse(localStorage.getItem('learnstars.magneton') || '{}'))['hold-out:0'] === 3`, 10*time.Second)
}

// computerState is what the tests read of the game against the computer
// in the browser.
type computerState struct {
	Game   string   `json:"game"`
	Rules  string   `json:"rules"`
	Start  string   `json:"start"`
	Moves  []string `json:"moves"`
	Seat   int      `json:"seat"`
	Turn   int      `json:"turn"`
	Result string   `json:"result"`
	Reason string   `json:"reason"`
}

const computerTurn = `(g => !!g && !!g.state && (g.state.result !== '*' || (g.state.turn === g.state.seat && !g.thinking && !!document.querySelector('.cg-board .board.interactive'))))(window.computerGame)`

// offlineComputerGame plays Tumbling Down against level 1 in the browser
// to the end, taking back the first move once.
func offlineComputerGame(t *testing.T, p *page) {
	t.Helper()
	p.waitFor("the game against the computer", `document.querySelector('#cg-start') && window.computerGame.state`, 20*time.Second)
	p.click(`[data-name=game] input[value="tumbling-down"] + label`)
	p.click(`[data-name=level] input[value="1"] + label`)
	p.click(`[data-name=color] input[value="first"] + label`)
	p.click("#cg-start")
	p.waitFor("the new game", `(s => !!s && s.game === 'tumbling-down' && s.moves.length === 0)(window.computerGame.state)`, 20*time.Second)
	c := &chooser{t: t}
	for ply := 0; ; ply++ {
		p.waitFor("my turn or the end", computerTurn, 30*time.Second)
		s := eval[computerState](p, `window.computerGame.state`)
		if s.Result != "*" {
			t.Logf("offline game over after %d moves: %s (%s)", len(s.Moves), s.Result, s.Reason)
			break
		}
		if ply > 150 {
			t.Fatalf("no result after %d moves", len(s.Moves))
		}
		if s.Game != "tumbling-down" || s.Seat != 0 {
			t.Fatalf("the game is %s, the player's seat %d", s.Game, s.Seat)
		}
		p.boardPlay(".cg-board", c.move(state{Game: s.Game, Rules: s.Rules, Start: s.Start, Moves: s.Moves}))
		p.waitFor("the computer's answer", fmt.Sprintf(`(s => s.moves.length >= %d || s.result !== '*')(window.computerGame.state)`, len(s.Moves)+2), 30*time.Second)
		if ply == 0 {
			p.click("#cg-takeback")
			p.waitFor("the takeback", `window.computerGame.state.moves.length === 0 && document.querySelector('.cg-board .board.interactive')`, 10*time.Second)
		}
	}
	p.waitFor("the result", `(e => !!e && e.textContent.length > 3)(document.querySelector('.cg-status.over .reason'))`, 10*time.Second)
}

// offlinePuzzle solves, offline, the Magneton puzzle the page serves
// from those kept, its result kept for the account, and returns its id;
// the next puzzle is another kept one.
func offlinePuzzle(t *testing.T, p *page, base string) string {
	t.Helper()
	p.goTo(base + "/puzzles?game=magneton")
	p.stillOffline()
	p.waitFor("a kept puzzle", `document.querySelector('.puzzles-page[data-puzzle] .pz-board .board.interactive')`, 20*time.Second)
	id := eval[string](p, `document.querySelector('.puzzles-page').dataset.puzzle`)
	line := eval[[]string](p, fmt.Sprintf(`Object.values(JSON.parse(localStorage.getItem('puzzles.kept')).games).flat().find(x => x.id === %q).line`, id))
	for i := 0; i < len(line); i += 2 {
		p.boardPlay(".pz-board", line[i])
		if i+1 < len(line) {
			p.waitFor("the reply "+line[i+1], fmt.Sprintf(`(e => e && e.textContent.includes(%q))(document.querySelector('.pz-msg')) && document.querySelector('.pz-board .board.interactive')`, line[i+1]), 10*time.Second)
		}
	}
	p.waitFor("the puzzle solved, its result kept", `document.querySelector('.pz-msg.right') && JSON.parse(localStorage.getItem('puzzles.queue') || '[]').length === 1`, 10*time.Second)
	if q := eval[[]string](p, `JSON.parse(localStorage.getItem('puzzles.queue')).map(r => r.id + ' ' + r.account + ' ' + r.solved)`); !slices.Equal(q, []string{id + " traveller true"}) {
		t.Errorf("the results kept are %q", q)
	}
	p.click(".pz-next")
	p.waitFor("another kept puzzle", fmt.Sprintf(`(d => d && d !== %q)(document.querySelector('.puzzles-page').dataset.puzzle) && document.querySelector('.pz-board .board.interactive')`, id), 10*time.Second)
	return id
}

// changedFront is the front end with one module changed, as a new build
// would be.
func changedFront(t *testing.T) fstest.MapFS {
	t.Helper()
	out := fstest.MapFS{}
	err := fs.WalkDir(web.Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(web.Files, p)
		if p == "js/words.js" {
			b = append(b, "\n// a new version\n"...)
		}
		out[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBrowserOfflineUpdate: a new front end on the same address is a new
// service worker, which precaches it, takes over the open page (which
// goes on, and offers a reload), and leaves its cache alone; the page
// reloaded has the new files, from the cache.
func TestBrowserOfflineUpdate(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	ts := serve(t, db, "127.0.0.1:0", nil)
	p := tab(t, browser(t), "regular")
	p.goTo(ts.url + "/learn")
	p.waitFor("the service worker", `window.magnetonOffline.controlled && window.magnetonOffline.version`, 60*time.Second)
	before := eval[string](p, `window.magnetonOffline.version`)
	if eval[bool](p, `!!document.querySelector('.toast.site-updated')`) {
		t.Error("the first worker offers a reload")
	}
	ts.stop()
	front := changedFront(t)
	serve(t, db, ts.addr, func(c *server.Config) { c.Static = front })
	p.goTo(ts.url + "/learn") // a navigation: the browser looks for a new worker
	p.waitFor("the page, from the old worker", `document.querySelector('.learn-page a') && navigator.serviceWorker.controller`, 20*time.Second)
	p.waitFor("the new version's offer to reload", fmt.Sprintf(`window.magnetonOffline.version && window.magnetonOffline.version !== %q && document.querySelector('.toast.site-updated')`, before), 60*time.Second)
	// The page is the new worker's as it activates: the old cache goes then.
	p.waitFor("the old version's cache gone", `caches.keys().then(k => k.length === 2 && k.includes('kept-data') && k.includes('static-' + window.magnetonOffline.version))`, 20*time.Second)
	p.click(".toast.site-updated .btn")
	p.waitFor("the page again", `document.querySelector('.learn-page a') && !document.querySelector('.toast.site-updated')`, 20*time.Second)
	if !eval[bool](p, `fetch('/js/words.js').then(r => r.text()).then(s => s.includes('a new version'))`) {
		t.Error("the reloaded page does not have the new module")
	}
	p.checkConsole()
}
