package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// phoneOverflow lists what sticks out of the screen sideways: the document
// wider than the window, or a box whose edge is past the window's, unless
// a box around it that scrolls or clips (a wide table's scroll box, a name
// cut with an ellipsis) keeps it in. The skip link waits off the screen
// until it has the focus, on purpose.
const phoneOverflow = `(() => {
	const w = innerWidth, out = [];
	const doc = document.scrollingElement.scrollWidth;
	if (doc > w) out.push('the document is ' + doc + ' px wide');
	const kept = (e) => {
		for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
			if (getComputedStyle(a).overflowX !== 'visible') return a.getBoundingClientRect().right <= w + .5;
		}
		return false;
	};
	for (const e of document.querySelectorAll('body *')) {
		const r = e.getBoundingClientRect();
		if (r.width <= 1 || r.height <= 1 || e.closest('.skip')) continue;
		if ((r.right <= w + .5 && r.left >= -.5) || kept(e)) continue;
		out.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + [...e.classList].map((c) => '.' + c).join('') +
			' from ' + Math.round(r.left) + ' to ' + Math.round(r.right) + ' px');
	}
	return out.slice(0, 10);
})()`

// onFirstScreen is a JavaScript test that the element of a selector is
// shown whole on the page's first screen, without scrolling.
func onFirstScreen(css string) string {
	return fmt.Sprintf(`(e => { if (!e) return false; const r = e.getBoundingClientRect(); return r.height > 0 && r.top + scrollY >= 0 && r.bottom + scrollY <= innerHeight; })(document.querySelector(%q))`, css)
}

// checkFits fails the test if anything on the page sticks out sideways, or
// if the header takes more than one row. It measures the page at rest: a
// stone dropped on an edge square grows in from 1.6 times its size for a
// fifth of a second, and that may pass the edge while it lasts.
func (p *page) checkFits(where string) {
	p.t.Helper()
	p.waitFor("the moves' animations to end", `document.getAnimations().every((a) => a instanceof CSSTransition || a instanceof CSSAnimation || a.playState !== 'running')`, 10*time.Second)
	if bad := eval[[]string](p, phoneOverflow); len(bad) > 0 {
		p.t.Errorf("%s: %s sticks out of the 390 px screen: %q", p.name, where, bad)
	}
	if h := eval[float64](p, `document.querySelector('.site-header').getBoundingClientRect().height`); h > 60 {
		p.t.Errorf("%s: %s: the header is %.0f px high, more than one row", p.name, where, h)
	}
}

// TestBrowserPhoneGames plays a game of each game against the computer by
// taps on a phone of 390 × 844: at every move nothing sticks out of the
// screen, and the status ("Your turn") and the player's own bar, right
// under the board, are on the first screen with the opponent's bar above
// the board; the game review and the moves come after one's own bar.
func TestBrowserPhoneGames(t *testing.T) {
	bctx := browser(t)
	base := startServer(t)
	for _, g := range []struct{ game, color string }{{"magneton", "first"}, {"tumbling-down", "second"}} {
		t.Run(g.game, func(t *testing.T) {
			p := tab(t, bctx, "phone")
			p.asPhone()
			p.newGame(base, g.game, "computer", "1", g.color, "5+3")
			s := playByTaps(t, p)
			p.waitFor("the result", `document.querySelector('.status .result')`, 10*time.Second)
			p.checkFits("the finished game")
			checkPhoneGameOrder(t, p)
			p.checkConsole()
			t.Logf("%s: %s (%s) after %d moves", g.game, s.Result, s.Reason, len(s.Moves))
		})
	}
}

// playByTaps plays the game to its end with the engine's moves, tapped,
// checking the page at each of the player's turns; it returns the last
// state.
func playByTaps(t *testing.T, p *page) state {
	t.Helper()
	c := &chooser{t: t}
	if screenshots() {
		c.quiet = 6 // a picture of a game with some history
	}
	choices := 0
	p.choosing = func() {
		choices++
		p.checkFits("the board's chooser")
	}
	defer func() { t.Logf("the chooser was open %d times", choices) }()
	var shot []byte
	for ply := 0; ; ply++ {
		s, over := p.myTurn(ply)
		if over {
			break
		}
		p.waitFor("Your turn on the first screen", onFirstScreen(`.status .your-turn`), 10*time.Second)
		for _, what := range []string{".player.top", ".board", ".player.bottom"} {
			if !eval[bool](p, onFirstScreen(what)) {
				t.Errorf("move %d: %s is not on the first screen", len(s.Moves)+1, what)
			}
		}
		p.checkFits(fmt.Sprintf("the game at move %d", len(s.Moves)+1))
		if ply == 4 && s.Game == "magneton" {
			shot = p.capture()
		}
		p.play(c.move(s))
	}
	save(t, "phone-game.png", shot)
	return p.state()
}

// checkPhoneGameOrder checks the game page's order from top to bottom:
// the opponent's bar, the board, one's own bar right under it, then the
// status, the actions, the moves and the review (when shown), the chat.
func checkPhoneGameOrder(t *testing.T, p *page) {
	t.Helper()
	order := []string{".player.top", ".board-box", ".player.bottom", ".status", ".area-actions", ".moves", ".replay-nav", ".review:not([hidden])", ".chat"}
	tops := eval[[]float64](p, fmt.Sprintf(`%s.map((q) => { const e = document.querySelector(q); return e ? e.getBoundingClientRect().top + scrollY : -1; })`, mustJSON(order)))
	last := -1.0
	for i, top := range tops {
		if top < 0 {
			continue // not on this page now
		}
		if top < last {
			t.Errorf("%s stands above what comes before it in %q (tops %v)", order[i], order, tops)
		}
		last = top
	}
	gap := eval[float64](p, `document.querySelector('.player.bottom').getBoundingClientRect().top - document.querySelector('.board-box').getBoundingClientRect().bottom`)
	if gap > 16 {
		t.Errorf("one's own bar is %.0f px under the board, not right under it", gap)
	}
}

// checkBarsOneRow checks that each player's bar keeps its name, counts
// and clock on one row, the name cut short if it must.
func checkBarsOneRow(t *testing.T, p *page) {
	t.Helper()
	rows := eval[[]float64](p, `['.player.top', '.player.bottom'].map((q) => { const w = document.querySelector(q + ' .who'); return w.getBoundingClientRect().height / parseFloat(getComputedStyle(w).lineHeight); })`)
	for i, n := range rows {
		if n >= 1.9 {
			t.Errorf("the %s player's bar takes %.1f lines", []string{"top", "bottom"}[i], n)
		}
	}
}

// longName is a player's name as long as the server allows.
const longName = "Annabelle_Wimbledon2"

// checkLiveName finds the game id in the home page's list of live games
// and checks that its player's whole name is shown there, not cut; then it
// goes back to the game.
func checkLiveName(t *testing.T, p *page, base, id string) {
	t.Helper()
	p.goTo(base + "/")
	row := fmt.Sprintf(`#live-list .row-link[href="/g/%s"] .row-players`, id)
	p.waitFor("the game among the live ones", fmt.Sprintf(`document.querySelector(%q)`, row), 110*time.Second)
	p.checkFits("the home page with a game being played")
	cut := eval[bool](p, fmt.Sprintf(`(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)(document.querySelector(%q))`, row))
	if text := eval[string](p, fmt.Sprintf(`document.querySelector(%q).textContent`, row)); cut || !strings.Contains(text, longName) {
		t.Errorf("the live list shows the players as %q, cut: %v", text, cut)
	}
	p.goTo(base + "/g/" + id)
	p.waitFor("the game again", `window.magnetonGame && window.magnetonGame.state && document.querySelector('.board')`, 10*time.Second)
}

// phonePage is a page of the site, reached through the header's menu when
// it is one of its links (nav), or opened by its address.
type phonePage struct {
	name  string
	nav   string        // the menu's link, or ""
	url   string        // the address, if not by the menu; "game" is the game opened last
	ready string        // the condition that the page is drawn
	first []string      // what must be on the first screen
	whole string        // a box that may scroll sideways, but must not need to
	wait  time.Duration // how long ready may take, if not 30 s (the engine's analysis on a busy machine)
	act   func(*page)   // what to do there, measured too
	shot  string        // the docs/ picture of it, if any
}

// puzzleAttempts gives the page's account two attempts at puzzles, one
// solved and one failed, for its puzzle history to show.
func puzzleAttempts(p *page) {
	p.t.Helper()
	for _, game := range []string{"magneton", "tumbling-down"} {
		got := eval[string](p, fmt.Sprintf(`(async () => {
			const pz = await (await fetch('/api/puzzles/next?game=%s')).json();
			const r = await fetch('/api/puzzles/' + pz.id + '/result', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({solved: %t})});
			return r.status + ' ' + await r.text();
		})()`, game, game == "magneton"))
		if !strings.HasPrefix(got, "200 ") || !strings.Contains(got, `"rated":true`) {
			p.t.Fatalf("an attempt at a %s puzzle: %s", game, got)
		}
	}
}

// TestBrowserPhonePages visits every page at 390 × 844 — home, a game being
// played and a finished one (of both games), the analysis board, learn, a
// lesson of each game, puzzles and one's puzzle history (with attempts at
// both games), the tournaments and a tournament, a game
// against the computer in the browser, a profile, the leaderboard, the
// archive,
// the account's forms — and checks that nothing sticks out sideways and
// that the header is one row whose Menu opens the links and the language
// switch, follows a link and closes again (by Escape too, the focus back
// on its button).
func TestBrowserPhonePages(t *testing.T) {
	base, tabs := openTabs(t, "phone")
	p := tabs[0]
	p.asPhone()
	p.signUp(base, longName, "correct horse")
	p.checkFits("the home page of a logged-in player")
	checkMenuKeys(t, p)
	p.click("#account-menu-button")
	p.waitFor("the account menu", `!document.querySelector('#account-menu').hidden`, 10*time.Second)
	p.checkFits("the account menu")
	p.click("#account-password-open")
	p.waitFor("the password form", `document.querySelector('#account-dialog[open]')`, 10*time.Second)
	p.checkFits("the password form")
	p.do(chromedp.KeyEvent(kb.Escape))
	p.waitFor("the form closed", `!document.querySelector('#account-dialog[open]')`, 10*time.Second)
	ended := finishedGames(t, p, base)
	tourney := pseudoTournament(p, base)
	puzzleAttempts(p)
	pages := []phonePage{
		{name: "home", nav: "play", ready: `document.querySelector('#start') && document.querySelector('.quick-btn')`, first: []string{".quick-btn"}, shot: "phone-home.png"},
		{name: "learn", nav: "learn", ready: `document.querySelector('.learn-cards a')`},
		{name: "a Magneton lesson", url: "/learn/magneton", ready: `document.querySelector('.lesson .board.interactive')`, first: lessonFirst, shot: "phone-learn.png"},
		{name: "a Tumbling Down lesson", url: "/learn/tumbling-down", ready: `document.querySelector('.lesson .board.interactive')`, first: lessonFirst, act: chooseStep},
		{name: "puzzles", nav: "puzzles", ready: `document.querySelector('.puzzles-page .board .piece')`, first: []string{".puzzles-page .board", ".pz-task"}},
		{name: "the puzzle history", url: "/puzzles?history=1", ready: `document.querySelectorAll('.pzh-table tr.pzh-play').length === 2 && document.querySelector('.pzh-chart svg')`, whole: ".pz-history"},
		{name: "tournaments", nav: "tournaments", ready: `document.querySelector('#tn-create') && document.querySelector('.tournament-row')`},
		{name: "a tournament", url: "/tournaments/" + tourney, ready: `document.querySelector('#tn-standings tbody tr') && document.querySelector('#tn-withdraw')`},
		{name: "the leaderboard", nav: "leaderboard", ready: `document.querySelector('.leaderboard .tab')`},
		{name: "the archive", nav: "archive", ready: `document.querySelector('table.games a[href^="/g/"]')`, whole: ".archive .table-wrap"},
		{name: "the analysis board", nav: "analysis", ready: analysed, wait: 40 * time.Second, first: []string{".analysis-page .board"}},
		{name: "the analysis of a finished game", url: "/analysis?id=" + strings.TrimPrefix(ended[1], "/g/"), ready: analysed, wait: 40 * time.Second, shot: "phone-analysis.png"},
		{name: "a game against the computer in the browser", url: "/computer?game=tumbling-down", ready: `window.computerGame && window.computerGame.state && document.querySelector('.cg-board .board.interactive')`, first: []string{".cg-board .board"}},
		{name: "a profile", url: "/@/" + longName, ready: `document.querySelector('.profile table.games a[href^="/g/"]')`, whole: ".profile-games .table-wrap"},
		{name: "a finished Magneton game", url: ended[0], ready: `document.querySelector('.status .result')`},
		{name: "a finished Tumbling Down game", url: ended[1], ready: `document.querySelector('.status .result')`},
	}
	for _, pg := range pages {
		visitPhonePage(t, p, base, pg)
	}
	p.menuItem("logout")
	p.waitGuest()
	for _, form := range []string{"signup", "login"} {
		p.click("#" + form + "-open")
		p.waitFor("the "+form+" form", fmt.Sprintf(`document.querySelector('#account-dialog[open][data-kind=%q]')`, form), 10*time.Second)
		p.checkFits("the " + form + " form")
		p.do(chromedp.KeyEvent(kb.Escape))
		p.waitFor("the form closed", `!document.querySelector('#account-dialog[open]')`, 10*time.Second)
	}
	p.checkConsole()
}

// analysed is the analysis board with the engine's answer. The pages
// test waits for it before it leaves the page: the server takes one
// analysis at a time from a visitor, and refuses the next page's while
// this one's runs.
const analysed = `document.querySelector('.analysis-page .board') && document.querySelector('.analysis-out .score')`

// chooseStep plays the first Tumbling Down lesson's step, d4 to e5, where
// a tumble fits too: the board asks which, in a chooser that must fit the
// phone's screen.
func chooseStep(p *page) {
	p.t.Helper()
	open := 0
	p.choosing = func() {
		open++
		p.checkFits("the lesson's step/tumble chooser")
	}
	defer func() { p.choosing = nil }()
	p.boardPlay(".lesson", "d4-e5")
	if p.lessonMsg("right"); open != 1 {
		p.t.Errorf("the chooser was open %d times for the lesson's step, want once", open)
	}
}

// lessonFirst is what a lesson shows on the first screen: its task and its board.
var lessonFirst = []string{".lesson-task", ".lesson .board"}

// visitPhonePage opens a page, through the menu when it has a link there,
// and checks that it fits the screen.
func visitPhonePage(t *testing.T, p *page, base string, pg phonePage) {
	t.Helper()
	if pg.nav != "" {
		p.press("#nav-toggle")
		p.waitFor("the menu open", `document.querySelector('#nav-toggle').getAttribute('aria-expanded') === 'true'`, 10*time.Second)
		for _, q := range []string{`#nav-panel`, `#lang`, fmt.Sprintf(`.site-nav a[data-nav=%q]`, pg.nav)} {
			if !eval[bool](p, onFirstScreen(q)) {
				t.Errorf("%s: the open menu does not show %s", pg.name, q)
			}
		}
		p.checkFits("the open menu")
		p.press(fmt.Sprintf(`.site-nav a[data-nav=%q]`, pg.nav))
		p.waitFor(pg.name+" through the menu", fmt.Sprintf(`(a => a && a.getAttribute('aria-current') === 'page')(document.querySelector('.site-nav a[data-nav=%q]'))`, pg.nav), 10*time.Second)
	} else {
		p.goTo(base + pg.url)
	}
	wait := pg.wait
	if wait == 0 {
		wait = 30 * time.Second
	}
	p.waitFor(pg.name, pg.ready, wait)
	p.waitFor("the menu closed", `document.querySelector('#nav-toggle').getAttribute('aria-expanded') === 'false' && !document.querySelector('.site-nav a').checkVisibility()`, 10*time.Second)
	p.checkFits(pg.name)
	for _, q := range pg.first {
		if !eval[bool](p, onFirstScreen(q)) {
			t.Errorf("%s: %s is not on the first screen", pg.name, q)
		}
	}
	if pg.whole != "" {
		if w := eval[[]float64](p, fmt.Sprintf(`(e => [e.scrollWidth, e.clientWidth])(document.querySelector(%q))`, pg.whole)); w[0] > w[1] {
			t.Errorf("%s: %s hides %.0f px of its %.0f in a sideways scroll", pg.name, pg.whole, w[0]-w[1], w[0])
		}
	}
	if pg.act != nil {
		pg.act(p)
	}
	if pg.shot != "" {
		p.do(chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`))
		save(t, pg.shot, p.capture())
	}
}

// checkMenuKeys opens the header's menu from the keyboard and closes it by
// Escape: the button tells whether it is open, the focus goes into the
// panel and back to the button.
func checkMenuKeys(t *testing.T, p *page) {
	t.Helper()
	if !eval[bool](p, `!document.querySelector('.site-nav a').checkVisibility() && document.querySelector('#nav-toggle').checkVisibility()`) {
		t.Errorf("on a phone the links are not folded under the Menu button")
	}
	p.do(chromedp.Focus(chromedp.CSS("#nav-toggle")), chromedp.KeyEvent(kb.Enter))
	p.waitFor("the menu open by the keyboard", `document.querySelector('#nav-toggle').getAttribute('aria-expanded') === 'true' && document.querySelector('.site-nav a').checkVisibility()`, 10*time.Second)
	if got := eval[string](p, `document.activeElement.closest('#nav-panel') ? 'the panel' : document.activeElement.outerHTML`); got != "the panel" {
		t.Errorf("the open menu has not the focus: %s has it", got)
	}
	p.do(chromedp.KeyEvent(kb.Escape))
	p.waitFor("the menu closed by Escape", `document.querySelector('#nav-toggle').getAttribute('aria-expanded') === 'false' && !document.querySelector('.site-nav a').checkVisibility() && document.activeElement.id === 'nav-toggle'`, 10*time.Second)
}

// finishedGames starts a game of each game against the computer on the
// phone, checks that the page fits while it is played, plays a move and
// resigns; it returns the two games' addresses.
func finishedGames(t *testing.T, p *page, base string) []string {
	t.Helper()
	var urls []string
	for _, g := range []string{"magneton", "tumbling-down"} {
		c := &chooser{t: t}
		p.newGame(base, g, "computer", "2", "first", "3+2")
		p.waitFor("my first turn", `(s => s.status === 'playing' && s.seat === s.turn)(window.magnetonGame.state)`, 10*time.Second)
		p.checkFits("a " + g + " game being played")
		checkBarsOneRow(t, p)
		p.play(c.move(p.state()))
		if len(urls) == 0 {
			checkLiveName(t, p, base, p.state().ID)
		}
		p.waitFor("my turn again", `(s => s.status === 'playing' && s.seat === s.turn && document.querySelector('#resign'))(window.magnetonGame.state)`, 20*time.Second)
		p.press("#resign")
		p.waitFor("the confirmation", `document.querySelector('#resign').textContent.includes('Really')`, 10*time.Second)
		p.press("#resign")
		p.waitFor("the resignation", `window.magnetonGame.state.status === 'finished' && document.querySelector('.status .result')`, 10*time.Second)
		if s := p.state(); !strings.Contains(s.Reason, "resign") {
			t.Errorf("%s ended by %q, want a resignation", g, s.Reason)
		}
		urls = append(urls, "/g/"+p.state().ID)
	}
	return urls
}
