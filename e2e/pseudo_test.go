package e2e

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// untransformed lists the visible words of the page that did not go
// through the pseudo-locale (js/i18n.js's xx, where every catalogue text
// is ⟦àççéñţéð⟧): every visible text node, and the title, aria-label,
// placeholder and alt of every visible element. What is left after the
// ⟦…⟧ parts are taken out may only be names (allow: the players' and the
// games' names), notation (squares, moves, results, clocks, ratings,
// position texts, rules settings) and symbols. Inputs and textareas (what a person typed,
// a record) are not read, nor is code (rules settings written as the API
// takes them), nor the language switch (each language's own name).
const untransformed = `((allow) => {
  const ok = new Set(allow.map((w) => w.toLowerCase()));
  const out = [];
  const visible = (e) => {
    if (!e || !e.getClientRects().length) return false;
    const cs = getComputedStyle(e);
    return cs.visibility !== 'hidden' && cs.display !== 'none';
  };
  const skip = (e) => !!e.closest('script, style, textarea, input, code, select#lang, .lang-switch, .chat-lines');
  const check = (text, where) => {
    let rest = text;
    for (let before = ''; before !== rest;) {
      before = rest;
      rest = rest.replace(/⟦[^⟦⟧]*⟧/g, ' '); // the innermost first: texts nest
    }
    // Rules settings (name=value,...) and position texts are notation.
    rest = rest.replace(/[\w-]+=[\w|,=-]+/g, ' ').replace(/\S*\/\S*/g, ' ');
    const words = (rest.match(/[A-Za-zÀ-ɏ]{2,}/g) || []).filter((w) => !ok.has(w.toLowerCase()));
    if (words.length) out.push(where + ': ' + JSON.stringify(text.trim().slice(0, 120)));
  };
  const path = (e) => {
    const parts = [];
    for (let n = e; n && n !== document.body && parts.length < 4; n = n.parentElement) {
      parts.unshift(n.tagName.toLowerCase() + (n.id ? '#' + n.id : '') + (n.classList.length ? '.' + [...n.classList].slice(0, 2).join('.') : ''));
    }
    return parts.join(' > ');
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const e = n.parentElement;
    if (!n.textContent.trim() || skip(e) || !visible(e)) continue;
    check(n.textContent, path(e));
  }
  for (const e of document.body.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
    if (skip(e) || !visible(e)) continue;
    for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
      const v = e.getAttribute(a);
      if (v && v.trim()) check(v, path(e) + '[' + a + ']');
    }
  }
  check(document.title, 'title');
  return out;
})`

// pseudoAllow are the words that stay as they are in every language: the
// site's and the games' names, the test's players (ann and a guest) and
// tournament (Weekly), the record formats' and image types' names.
var pseudoAllow = []string{"magneton", "tumbling", "down", "ann", "guest", "weekly", "pgn", "sgf", "svg", "png"}

// pseudoState is one page or state the pseudo-locale test visits: where
// to go (a path of the site), what shows that it is drawn (a JS
// condition), and what to do there first (optional).
type pseudoState struct {
	name, path, ready string
	then              func(p *page)
}

// offlineVisit names the states visited with the network off (cut by an
// earlier state).
var offlineVisit = map[string]bool{"a page that needs the network, offline": true}

// pseudoURL is the address u in the pseudo-locale: ?lang=xx added before
// its fragment.
func pseudoURL(u string) string {
	if strings.Contains(u, "?") {
		return strings.Replace(u, "?", "?lang=xx&", 1)
	}
	if i := strings.Index(u, "#"); i >= 0 {
		return u[:i] + "?lang=xx" + u[i:]
	}
	return u + "?lang=xx"
}

// routedOffline makes sure the page just visited is shown offline: when
// Chromium 148 forgot the emulation on the navigation (see stillOffline),
// the network is cut again and the page routed again, as it would be on
// the way back from another page.
func (p *page) routedOffline() {
	p.t.Helper()
	if eval[bool](p, `navigator.onLine`) {
		p.setOffline(true)
		eval[bool](p, `dispatchEvent(new PopStateEvent('popstate'))`)
	}
}

// TestBrowserPseudoLocale visits every page and state in the pseudo-locale
// and fails on each visible text that did not go through the catalogues.
// To cover a new page or state, add a row to the table.
func TestBrowserPseudoLocale(t *testing.T) {
	base, tabs := openTabs(t, "ann", "bob")
	p, bob := tabs[0], tabs[1]
	p.signUp(base, "ann", "ann-password-1")
	asked := pseudoTakeback(base, p, bob)
	playing := pseudoGame(p, base, "tumbling-down", "")
	resigned := pseudoGame(p, base, "magneton", "resign")
	aborted := pseudoGame(p, base, "magneton", "abort")
	tourney := pseudoTournament(p, base)
	board := `document.querySelector('.board')`
	analysis := `window.analysisBoard && window.analysisBoard.cur && document.querySelector('.analysis-board .board')`
	an := func(game, position, moves string) string {
		return "/analysis?" + url.Values{"game": {game}, "position": {position}, "moves": {moves}}.Encode()
	}
	states := []pseudoState{
		{"home", "/", `document.querySelector('#start') && document.querySelector('#live-list li') && document.querySelector('#mine-list li')`, nil},
		{"learn", "/learn", `document.querySelector('main h1')`, nil},
		{"a lesson of Tumbling Down", "/learn/tumbling-down", `document.querySelector('.lesson .board.interactive')`, nil},
		{"a lesson of Magneton", "/learn/magneton", `document.querySelector('.lesson .board.interactive')`, nil},
		{"puzzles", "/puzzles", `document.querySelector('.puzzles-page')`, nil},
		{"profile", "/@/ann", `document.querySelector('main h1') && document.querySelector('.profile-table tbody tr')`, nil},
		{"leaderboard", "/#/leaderboard", `document.querySelector('main .tab-family') && document.querySelector('#leaderboard-panel').childElementCount`, nil},
		{"archive", "/#/archive", `document.querySelector('table.games tbody tr')`, nil},
		{"tournaments", "/tournaments", `document.querySelector('#tn-create') && document.querySelector('.tournament-row')`, nil},
		{"a tournament", "/tournaments/" + tourney, `document.querySelector('#tn-standings tbody tr') && document.querySelector('#tn-withdraw')`, nil},
		{"a missing game", "/g/zzzzzzzz", `document.querySelector('main .not-found')`, nil},
		{"a game being played", "/g/" + playing, board, nil},
		{"the chooser on the game page", "/g/" + playing, `document.querySelector('.board.interactive')`, func(p *page) {
			p.clickSquare("a6")
			p.clickSquare("a5")
			p.waitFor("the chooser", `document.querySelector('.chooser .choose-tumble')`, 5*time.Second)
		}},
		{"a resigned game", "/g/" + resigned, board + ` && document.querySelector('.result, .game-result, [data-result]')`, nil},
		{"an aborted game", "/g/" + aborted, board, nil},
		{"a takeback asked", "/g/" + asked, `document.querySelector('#takeback-accept')`, nil},
		{"analysis of Magneton", "/analysis", analysis, nil},
		{"analysis of Tumbling Down", "/analysis?game=tumbling-down", analysis, nil},
		{"the chooser on the analysis board", "/analysis?game=tumbling-down", analysis, func(p *page) {
			p.clickSquare("a6")
			p.clickSquare("a5")
			p.waitFor("the chooser", `document.querySelector('.chooser .choose-tumble')`, 5*time.Second)
		}},
		{"a King captured", an("tumbling-down", "8/8/8/8/rr,7/8/8/bbb,7 b", "a1>a2"), analysis + ` && document.querySelector('.an-result')`, nil},
		{"a line of four", an("magneton", "WWBW1WB1/BWW3WB/2B3B1/2B5/8/B3B3/BW5W/BW2BW1W b 0 0", "e3-e8"), analysis + ` && document.querySelector('.an-result')`, nil},
		// Every ending of every game, as the result banner says it: won by
		// the viewer, by the opponent, seen by a spectator, and drawn.
		{"every game ending", "/learn", `document.querySelector('main h1')`, func(p *page) {
			p.do(chromedp.Evaluate[chromedp.Void](everyEnding, chromedp.EvalAwaitPromise))
			p.waitFor("the endings", `document.querySelectorAll('#every-ending p').length > 8`, 10*time.Second)
		}},
		{"a game against the computer in the browser", "/computer?game=tumbling-down", `window.computerGame && window.computerGame.state && document.querySelector('.cg-board .board.interactive')`, nil},
		{"a bad position", "/analysis?game=magneton", analysis, func(p *page) {
			p.click(".an-setup-box summary")
			p.typeInto("#an-pos", "8/8/8/8/8/8/8/9 w 12 12")
			p.click("#an-setup-go")
			p.waitFor("the server's message", `document.querySelector('#an-setup-error').textContent !== ''`, 10*time.Second)
		}},
		// Offline: the home page's offline choices and the banner, then a
		// page that needs the network (the service worker's kept page): last,
		// the network staying off.
		{"offline", "/", `document.querySelector('#start') && window.magnetonOffline.controlled`, func(p *page) {
			p.setOffline(true)
			p.waitFor("the offline home page", `document.querySelector('.offline-page .offline-choices') && !document.querySelector('.offline-banner').hidden`, 10*time.Second)
		}},
		{"a page that needs the network, offline", "/@/ann", `document.querySelector('.offline-page .offline-choices') && document.querySelector('.account .offline-tag')`, nil},
	}
	visitPseudo(t, p, base, states)
	p.checkConsole()
}

// visitPseudo visits each state in the pseudo-locale and fails on each
// visible text that did not go through the catalogues.
func visitPseudo(t *testing.T, p *page, base string, states []pseudoState) {
	t.Helper()
	for _, s := range states {
		p.goTo(pseudoURL(base + s.path))
		if offlineVisit[s.name] {
			p.routedOffline()
		}
		// The title too: the site's, as the server sent it in English, is
		// worded once the games' names are in.
		p.waitFor(s.name, "("+s.ready+") && !document.title.startsWith('Magneton · play')", 15*time.Second)
		if s.then != nil {
			s.then(p)
		}
		for _, bad := range eval[[]string](p, fmt.Sprintf(`%s(%s)`, untransformed, mustJSON(pseudoAllow))) {
			t.Errorf("%s: not through the catalogues: %s", s.name, bad)
		}
	}
}

// pseudoTournament makes a Swiss for next week that the player joins, and
// returns its id.
func pseudoTournament(p *page, base string) string {
	p.t.Helper()
	p.goTo(base + "/")
	p.waitFor("the home page", `document.querySelector('#start')`, 10*time.Second)
	return eval[string](p, `(async () => {
  const post = (path, body) => fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
  const t = await post('/api/tournaments', { name: 'Weekly', game: 'magneton', format: 'swiss', clock: '3+2', starts: Date.now() + 7 * 86400000 });
  await post('/api/tournaments/' + t.id + '/join', {});
  return t.id;
})()`)
}

// everyEnding writes, at the top of the page, the result sentence of
// every ending of every game the meta lists, with the game's own module
// (which words some endings itself), for a win of each side seen by
// either player and by a spectator, and for a draw.
const everyEnding = `(async () => {
  const [{ getMeta }, { loadGame, gameSpec }, { resultText }] = await Promise.all([import('/js/api.js'), import('/js/games.js'), import('/js/words.js')]);
  const meta = await getMeta();
  const box = document.createElement('div');
  box.id = 'every-ending';
  for (const g of meta.games) {
    const mod = await loadGame(g.name);
    const sides = g.sides.map((sd) => ({ name: sd.name, letter: sd.letter }));
    for (const e of g.endings) {
      for (const result of ['1-0', '0-1', '1/2-1/2']) {
        for (const seat of [0, 1, null]) {
          const p = document.createElement('p');
          p.textContent = resultText({ result, reason: e.word, sides, seat }, gameSpec(meta, g.name), mod);
          box.append(p);
        }
      }
    }
  }
  document.body.prepend(box);
})()`

// pseudoGame makes a game of name against the computer in English and
// returns its id: then resigned or aborted (end), or left being played.
func pseudoGame(p *page, base, name, end string) string {
	p.t.Helper()
	p.newGame(base, name, "computer", "1", "first", "")
	id := p.state().ID
	switch end {
	case "resign":
		p.play(p.state().Legal[0])
		p.waitFor("the computer's answer", `window.magnetonGame.state.moves.length === 2`, 20*time.Second)
		p.click("#resign")
		p.click("#resign") // the second press resigns
		p.waitFor("the resignation", `window.magnetonGame.state.status === 'finished'`, 15*time.Second)
	case "abort":
		p.click("#abort")
		p.waitFor("the abort", `window.magnetonGame.state.status === 'aborted'`, 15*time.Second)
	}
	return id
}

// pseudoTakeback makes a game of Magneton between a and b (a guest), in
// English, in which b asks to take back its first move; it returns its id.
func pseudoTakeback(base string, a, b *page) string {
	a.t.Helper()
	id := invite(base, a, b, "magneton", "")
	a.play(a.state().Legal[0])
	b.waitFor("a's move", `window.magnetonGame.state.moves.length === 1`, 10*time.Second)
	b.play(b.state().Legal[0])
	b.waitFor("the takeback button", `(e => e && !e.disabled)(document.querySelector('#takeback'))`, 10*time.Second)
	b.click("#takeback")
	a.waitFor("the takeback asked", `document.querySelector('#takeback-accept')`, 10*time.Second)
	return id
}
