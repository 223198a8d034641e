package e2e

import (
	_ "embed"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// axeSource is axe-core, the accessibility checker of Deque Systems, from
// its npm package (testdata/axe-core/README.md). The tests put it into the
// pages they check; the site never serves it.
//
//go:embed testdata/axe-core/axe.min.js
var axeSource string

// axeFinding is one rule axe-core found broken on a page, with the nodes
// that break it.
type axeFinding struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// axeRun checks the page as it is now with axe-core and returns the serious
// and critical findings (the minor and moderate ones are advice).
func (p *page) axeRun() []axeFinding {
	p.t.Helper()
	if !eval[bool](p, `!!window.axe`) {
		// Evaluated through the DevTools protocol, so the page's
		// Content-Security-Policy does not apply to the checker.
		p.do(chromedp.Evaluate[chromedp.Void](axeSource))
	}
	return eval[[]axeFinding](p, `axe.run(document, {resultTypes: ['violations']}).then((r) =>
		r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({
			id: v.id, impact: v.impact, help: v.help,
			nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ': ' + (n.failureSummary || '').replace(/\s+/g, ' ')),
		})))`)
}

// axeCheck fails the test for every serious or critical finding on the page.
func (p *page) axeCheck(where string) {
	p.t.Helper()
	for _, f := range p.axeRun() {
		p.t.Errorf("%s: axe %s (%s): %s\n\t%s", where, f.ID, f.Impact, f.Help, strings.Join(f.Nodes, "\n\t"))
	}
}

// axePages are the pages the accessibility check visits, each with the
// condition that says it has drawn itself. {game} is the game's name in
// the URLs.
var axePages = []struct{ name, path, ready string }{
	{"home", "/", `document.querySelector('#start')`},
	{"learn", "/learn", `document.querySelector('.learn-page a')`},
	{"lessons", "/learn/{game}", `document.querySelector('.lesson[data-lesson] .board.interactive')`},
	{"puzzles", "/puzzles", `document.querySelector('.puzzles-page .pz-board .board')`},
	{"puzzle streak", "/puzzles?streak=1&game={game}", `document.querySelector('.puzzles-page .pz-board .board') && document.querySelector('.pz-streak[data-count]')`},
	{"puzzle history", "/puzzles?history=1&game={game}", `document.querySelector('.pzh-body p, .pzh-body table')`},
	{"analysis", "/analysis?game={game}", `window.analysisBoard && window.analysisBoard.cur && window.analysisBoard.cur.legal && document.querySelector('.analysis-board .board')`},
	{"computer", "/computer?game={game}", `window.computerGame && window.computerGame.state && document.querySelector('.cg-board .board.interactive')`},
	{"leaderboard", "/#/leaderboard", `document.querySelector('.leaderboard table, .leaderboard p')`},
	{"archive", "/#/archive", `document.querySelector('table.games')`},
	{"tournaments", "/tournaments", `document.querySelector('#tn-create') && !document.querySelector('.tournaments .loading')`},
	{"profile", "/@/{player}", `document.querySelector('.profile h1') && !document.querySelector('.profile .loading')`},
}

// TestBrowserAccessibility runs axe-core on every page of the site, in both
// games and in English and Spanish, and on a game page while the game is
// played and once it is over: no serious or critical finding is allowed.
func TestBrowserAccessibility(t *testing.T) {
	base := startServer(t)
	p := tab(t, browser(t), "reader")
	const player = "axe-reader"
	p.signUp(base, player, "a long enough password")
	for _, lang := range []string{"en", "es"} {
		p.goTo(base + "/")
		p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`localStorage.setItem('lang', %q)`, lang)))
		for _, gameName := range []string{"magneton", "tumbling-down"} {
			for _, pg := range axePages {
				path := strings.NewReplacer("{game}", gameName, "{player}", player).Replace(pg.path)
				if !strings.Contains(pg.path, "{game}") && gameName != "magneton" {
					continue // a page of no game in particular, checked once
				}
				where := fmt.Sprintf("%s %s (%s)", lang, pg.name, path)
				p.goTo(base + path)
				// 30 s: the Spanish puzzles page once took over 15 s to draw
				// with another full test run on the same two cores.
				p.waitFor(where, `document.documentElement.lang === `+fmt.Sprintf("%q", lang)+` && (`+pg.ready+`)`, 30*time.Second)
				p.axeCheck(where)
			}
			axeGamePage(t, p, base, lang, gameName)
		}
	}
	p.checkConsole()
}

// axeGamePage checks a game against the computer while it is played and
// after the player resigns.
func axeGamePage(t *testing.T, p *page, base, lang, gameName string) {
	t.Helper()
	p.newGame(base, gameName, "computer", "1", "first", "")
	p.waitFor("the first turn", `window.magnetonGame.state.status === 'playing' && window.magnetonGame.state.turn === 0`, 15*time.Second)
	c := &chooser{t: t}
	p.play(c.move(p.state()))
	p.waitFor("the computer's reply", `window.magnetonGame.state.moves.length >= 2 || window.magnetonGame.state.status !== 'playing'`, 20*time.Second)
	p.axeCheck(fmt.Sprintf("%s %s game, playing", lang, gameName))
	if p.state().Status == "playing" {
		// The first press asks again, in the button's own words.
		before := eval[string](p, `document.querySelector('#resign').textContent`)
		p.click("#resign")
		p.waitFor("the confirmation", fmt.Sprintf(`document.querySelector('#resign').textContent !== %q`, before), 5*time.Second)
		p.click("#resign")
	}
	p.waitFor("the end", `window.magnetonGame.state.status !== 'playing' && document.querySelector('.status .result')`, 15*time.Second)
	p.axeCheck(fmt.Sprintf("%s %s game, ended", lang, gameName))
}
