package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server"
	"github.com/magneton-games/magneton/server/archive/archivetest"
	"github.com/magneton-games/magneton/store"
)

// explorerSeed is what explorerSite puts in the archive: Tumbling Down
// games from its start, whose first move the book of proven positions
// proves a win for the first player (win, proven in winIn after it) with
// rated games, and imported games of another first move (other).
type explorerSeed struct {
	base       string
	st         store.Store
	gameName   string // Tumbling Down's name in URLs
	win, other string
	winIn      int      // the winner's moves after win, by the book
	replies    []string // the replies to win in the games
	sides      [2]string
}

// explorerSite starts the play server and archives the seed's games in it.
func explorerSite(t *testing.T) *explorerSeed {
	t.Helper()
	var st store.Store
	srv := serve(t, filepath.Join(t.TempDir(), "games.db"), "127.0.0.1:0", func(cfg *server.Config) { st = cfg.Store })
	gm, err := games.Lookup("tumbling")
	if err != nil {
		t.Fatal(err)
	}
	rules := gm.Spec.New(gm.Spec.Defaults())
	b, err := games.ProvenBook()
	if err != nil {
		t.Fatal(err)
	}
	start := rules.Start()
	pf, ok := b.Lookup(start, nil)
	if !ok {
		t.Fatal("the book does not know Tumbling Down's start")
	}
	seed := &explorerSeed{base: srv.url, st: st, gameName: gm.Spec.Name, win: pf.Move, winIn: pf.Moves - 1, sides: gm.Spec.SideNames}
	after, err := start.Play(seed.win)
	if err != nil {
		t.Fatal(err)
	}
	// Three replies, the first three in the order of the legal moves.
	seed.replies = after.Moves()[:3]
	for _, m := range start.Moves() {
		if next, _ := start.Play(m); m != seed.win {
			if _, known := b.Lookup(next, []uint64{start.Hash()}); !known {
				seed.other = m
				break
			}
		}
	}
	var gs []archivetest.Game
	for i, r := range seed.replies {
		gs = append(gs, archivetest.Game{ID: fmt.Sprintf("win%013d", i), Game: gm.Spec.Name, Moves: []string{seed.win, r}, Result: "1-0",
			Players: [2]string{"ann", "bob"}, Ratings: [2]string{"1500", "1700"}, Rated: true, Initial: 3 * time.Minute, Increment: 2 * time.Second})
	}
	for i := range 2 {
		gs = append(gs, archivetest.Game{ID: fmt.Sprintf("imp%013d", i), Game: gm.Spec.Name, Moves: []string{seed.other}, Result: "0-1",
			Players: [2]string{"kim", "lee"}, Source: store.SourceImport})
	}
	if err := archivetest.Add(context.Background(), st, gs...); err != nil {
		t.Fatal(err)
	}
	return seed
}

// explorerRows is a condition: the explorer's table lists n moves and its
// answer counts games games.
func explorerRows(n, games int) string {
	return fmt.Sprintf(`document.querySelectorAll('#explorer tbody tr').length === %d && document.querySelector('#explorer').dataset.games === '%d' && !document.querySelector('#explorer').hasAttribute('aria-busy')`, n, games)
}

// explorerRow is a JavaScript expression: the row of a move in the
// explorer's table, or null.
func explorerRow(move string) string {
	return fmt.Sprintf(`document.querySelector('#explorer tbody tr[data-move=%q]')`, move)
}

// TestBrowserExplorer: the analysis board's opening explorer, closed at
// first and asking nothing; opened, the moves played from Tumbling Down's
// start with their counts, results in words for screen readers and the
// proven value of the book's move; a filter changes the counts; a click
// plays a move, and so does Enter on a move's button, the focus staying in
// the explorer; the panel stays open over a reload; its link lists every
// game that reached the position.
func TestBrowserExplorer(t *testing.T) {
	seed := explorerSite(t)
	p := tab(t, browser(t), "explorer")
	p.openAnalysis(seed.base + "/analysis?game=" + seed.gameName)
	if eval[bool](p, `document.querySelector('#explorer').open || performance.getEntriesByType('resource').some((e) => e.name.includes('/api/explorer'))`) {
		t.Error("the explorer is open, or asked the server, before it is opened")
	}
	p.click(`#explorer > summary`)
	p.waitFor("the start's moves", explorerRows(2, 5), 10*time.Second)
	win := eval[string](p, explorerRow(seed.win)+`.innerText`)
	wantProven := fmt.Sprintf("%s wins in ≤ %d", seed.sides[0], seed.winIn)
	for _, want := range []string{seed.win, "3", "60%", "1600", wantProven, fmt.Sprintf("%s won 100%%, draws 0%%, %s won 0%%", seed.sides[0], seed.sides[1])} {
		if !strings.Contains(win, want) {
			t.Errorf("the row of %s says %q, without %q", seed.win, win, want)
		}
	}
	other := eval[string](p, explorerRow(seed.other)+`.innerText`)
	if !strings.Contains(other, "2") || strings.Contains(other, "wins in") || !strings.Contains(other, "no rating") {
		t.Errorf("the row of %s says %q", seed.other, other)
	}
	// Rated games only: the imported games go.
	p.click(`#ex-rated`)
	p.waitFor("the rated games' moves", explorerRows(1, 3), 10*time.Second)
	p.do(chromedp.SetValue(chromedp.CSS(`#ex-sources`), "imported"))
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#ex-sources').dispatchEvent(new Event('change'))`))
	p.waitFor("no rated imported game", explorerRows(0, 0)+` && /No game/.test(document.querySelector('#explorer .ex-status').textContent)`, 10*time.Second)
	p.click(`#ex-rated`)
	p.waitFor("the imported games' moves", explorerRows(1, 2)+` && `+explorerRow(seed.other), 10*time.Second)
	p.do(chromedp.SetValue(chromedp.CSS(`#ex-sources`), ""))
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#ex-sources').dispatchEvent(new Event('change'))`))
	p.waitFor("every game again", explorerRows(2, 5), 10*time.Second)

	// A click plays a move.
	p.click(fmt.Sprintf(`#explorer button.ex-move[data-move=%q]`, seed.other))
	p.waitFor("the move played", fmt.Sprintf(`window.analysisBoard.cur.move === %q && /No game/.test(document.querySelector('#explorer .ex-status').textContent)`, seed.other), 10*time.Second)
	p.do(chromedp.KeyEvent(kb.ArrowLeft))
	p.waitFor("the start again", `window.analysisBoard.cur === window.analysisBoard.root && `+explorerRows(2, 5), 10*time.Second)
	// Enter on a move's button plays it; the focus stays in the explorer,
	// on the next position's first move.
	p.do(chromedp.Focus(chromedp.CSS(fmt.Sprintf(`#explorer button.ex-move[data-move=%q]`, seed.win))))
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitFor("the book's move played and its replies", fmt.Sprintf(`window.analysisBoard.cur.move === %q && `, seed.win)+explorerRows(len(seed.replies), len(seed.replies)), 10*time.Second)
	p.waitFor("the focus on a move of the explorer", focused(`#explorer button.ex-move`), 5*time.Second)
	for _, r := range seed.replies {
		text := eval[string](p, explorerRow(r)+`.innerText`)
		if !strings.Contains(text, wantProven[:strings.Index(wantProven, "≤")]) {
			t.Errorf("the reply %s says %q: the book proves the first player's win after it", r, text)
		}
	}
	p.axeCheck("the analysis board with its explorer")

	// The panel stays open, and its filters as chosen, over a reload.
	p.openAnalysis(seed.base + "/analysis?game=" + seed.gameName)
	p.waitFor("the explorer open again", `document.querySelector('#explorer').open && `+explorerRows(2, 5), 10*time.Second)

	// Every game that reached the position after the book's move.
	p.click(fmt.Sprintf(`#explorer button.ex-move[data-move=%q]`, seed.win))
	p.waitFor("the book's move played", fmt.Sprintf(`window.analysisBoard.cur.move === %q && `, seed.win)+explorerRows(len(seed.replies), len(seed.replies)), 10*time.Second)
	p.click(`#explorer a.ex-search`)
	p.waitFor("the games that reached it", fmt.Sprintf(`location.hash.startsWith('#/archive?') && document.querySelectorAll('table.games tbody tr').length === %d && document.querySelector('.se-position code').textContent.length > 0`, len(seed.replies)), 10*time.Second)
	for i := range seed.replies {
		if !eval[bool](p, fmt.Sprintf(`!!document.querySelector('table.games tr[data-id="win%013d"] a.se-at[href$="ply=1"]')`, i)) {
			t.Errorf("game win%013d is not listed with its link to the position", i)
		}
	}
	// A game's link to the position opens the analysis board there.
	first := fmt.Sprintf("win%013d", 0)
	p.click(fmt.Sprintf(`tr[data-id=%q] a.se-at`, first))
	p.waitFor("the game at the position", fmt.Sprintf(`location.pathname === '/analysis' && window.analysisBoard && window.analysisBoard.cur && window.analysisBoard.cur.move === %q && `, seed.win)+explorerRows(len(seed.replies), len(seed.replies)), 10*time.Second)
	// Closed, the panel stays closed; the finished game's page opens the
	// analysis board with the explorer open.
	p.click(`#explorer > summary`)
	p.waitFor("the explorer closed", `!document.querySelector('#explorer').open && localStorage.getItem('explorer') === 'off'`, 5*time.Second)
	p.goTo(seed.base + "/g/" + first)
	p.waitFor("the finished game", `window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'finished' && document.querySelector('#explore-link')`, 10*time.Second)
	p.click(`#explore-link`)
	p.waitFor("the explorer at the game's end", fmt.Sprintf(`location.search.includes('explorer=1') && window.analysisBoard && window.analysisBoard.cur && window.analysisBoard.cur.move === %q && document.querySelector('#explorer').open && `, seed.replies[0])+explorerRows(0, 0), 10*time.Second)
	p.checkConsole()
}

// TestBrowserExplorerPhoneSpanish: the explorer on a phone of 390 px, in
// Spanish: its words, the proven value in Spanish, nothing sticking out
// sideways, and a tap that plays a move.
func TestBrowserExplorerPhoneSpanish(t *testing.T) {
	seed := explorerSite(t)
	p := tab(t, browser(t), "phone")
	p.asPhone()
	p.goTo(seed.base + "/")
	p.waitFor("the home page", `document.querySelector('#lang')`, 10*time.Second)
	p.chooseLang("es")
	p.waitFor("the page in Spanish", `document.documentElement.lang === 'es'`, 10*time.Second)
	p.openAnalysis(seed.base + "/analysis?explorer=1&game=" + seed.gameName)
	p.waitFor("the start's moves", explorerRows(2, 5), 10*time.Second)
	if got := eval[string](p, `document.querySelector('#explorer > summary').textContent`); got != "Explorador de aperturas" {
		t.Errorf("the explorer is called %q in Spanish", got)
	}
	sides := eval[[]string](p, `window.analysisBoard.sides().map((s) => s.name)`)
	first := eval[string](p, fmt.Sprintf(`import('/js/i18n.js').then((m) => m.sideText(%q))`, sides[0]))
	want := fmt.Sprintf("Las %s ganan en ≤ %d", first, seed.winIn)
	if got := eval[string](p, explorerRow(seed.win)+`.querySelector('.ex-proven').textContent`); got != want {
		t.Errorf("the proven value in Spanish: %q, want %q", got, want)
	}
	if got := eval[string](p, explorerRow(seed.win)+`.querySelector('.visually-hidden').textContent`); !strings.Contains(got, "ganaron las "+first+" el 100 %") {
		t.Errorf("the results in words in Spanish: %q", got)
	}
	p.cleanPage(t, "the explorer in Spanish")
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#explorer').scrollIntoView()`))
	p.checkFits("the explorer")
	p.press(fmt.Sprintf(`#explorer button.ex-move[data-move=%q]`, seed.win))
	p.waitFor("the move tapped played", fmt.Sprintf(`window.analysisBoard.cur.move === %q && `, seed.win)+explorerRows(len(seed.replies), len(seed.replies)), 10*time.Second)
	p.checkFits("the explorer after a move")
	p.checkConsole()
}

// TestBrowserGameSearch: the archive's search form finds a player's games,
// the search is the page's address (a link that gives the same results),
// the results come a page at a time with a link to the next, and an
// imported game's link opens its page.
func TestBrowserGameSearch(t *testing.T) {
	var st store.Store
	srv := serve(t, filepath.Join(t.TempDir(), "games.db"), "127.0.0.1:0", func(cfg *server.Config) { st = cfg.Store })
	var gs []archivetest.Game
	moves := []string{"d4", "e5"}
	for i := range 53 {
		players := [2]string{"ann", fmt.Sprintf("p%02d", i)}
		if i%2 == 1 {
			players = [2]string{players[1], players[0]}
		}
		gs = append(gs, archivetest.Game{ID: fmt.Sprintf("game%012d", i), Game: "magneton", Moves: moves, Result: []string{"1-0", "0-1", "1/2-1/2"}[i%3], Players: players})
	}
	gs = append(gs, archivetest.Game{ID: "othergame0000000", Game: "magneton", Moves: moves, Result: "1-0", Players: [2]string{"bob", "cat"}},
		archivetest.Game{ID: "importedgame0000", Game: "magneton", Moves: []string{"c2", "f6"}, Result: "0-1", Players: [2]string{"Ann", "dan"}, Source: store.SourceImport})
	if err := archivetest.Add(context.Background(), st, gs...); err != nil {
		t.Fatal(err)
	}
	p := tab(t, browser(t), "search")
	p.openArchive(srv.url)
	p.waitFor("the archive's first page", `document.querySelectorAll('table.games tbody tr').length === 50 && document.querySelector('#se-next')`, 10*time.Second)
	// The search form, by keyboard: the player and Enter.
	if !eval[bool](p, `document.querySelector('.se-box').open`) {
		p.click(`.se-box > summary`)
	}
	p.do(chromedp.SendKeys(chromedp.CSS(`#se-player`), "ANN"+kb.Enter))
	p.waitFor("Ann's games, the first page", `location.hash === '#/archive?player=ANN' && document.querySelectorAll('table.games tbody tr').length === 50 && document.querySelector('#se-next')`, 10*time.Second)
	p.waitFor("the focus on the results", focused(`#archive-results`), 5*time.Second)
	p.click(`#se-next`)
	p.waitFor("Ann's games, the second page", `location.hash === '#/archive?player=ANN&page=2' && document.querySelectorAll('table.games tbody tr').length === 4 && document.querySelector('#se-prev') && !document.querySelector('#se-next')`, 10*time.Second)
	rows := eval[[]string](p, `[...document.querySelectorAll('table.games tbody tr')].map((r) => r.dataset.id + ' ' + r.querySelector('td.players').textContent)`)
	for _, r := range rows {
		if !strings.Contains(strings.ToLower(r), "ann") {
			t.Errorf("a game without Ann: %s", r)
		}
	}
	// The address is the search: opened again, the same rows.
	p.goTo(srv.url + "/#/archive?player=ann&result=win&sort=oldest")
	p.waitFor("Ann's wins, the oldest first", `document.querySelectorAll('table.games tbody tr').length > 0`, 10*time.Second)
	wins := eval[[]string](p, `[...document.querySelectorAll('table.games tbody tr')].map((r) => r.dataset.id)`)
	var want []string
	for _, g := range gs {
		if g.Source != "" {
			continue
		}
		if won := (g.Result == "1-0") == (g.Players[0] == "ann") && g.Result != "1/2-1/2"; won && (g.Players[0] == "ann" || g.Players[1] == "ann") {
			want = append(want, g.ID)
		}
	}
	if fmt.Sprint(wins) != fmt.Sprint(want) {
		t.Errorf("Ann's wins, the oldest first: %v, want %v", wins, want)
	}
	if got := eval[string](p, `document.querySelector('#se-result').value + ' ' + document.querySelector('#se-sort').value + ' ' + document.querySelector('#se-player').value`); got != "win oldest ann" {
		t.Errorf("the form shows the search as %q", got)
	}
	p.axeCheck("the archive's search")
	// The imported game, and its page.
	p.goTo(srv.url + "/#/archive?source=import")
	p.waitFor("the imported game", `document.querySelectorAll('table.games tbody tr').length === 1 && document.querySelector('tr[data-id="importedgame0000"]')`, 10*time.Second)
	p.click(`tr[data-id="importedgame0000"] a.btn`)
	p.waitFor("the imported game's page", `location.pathname === '/g/importedgame0000' && window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'finished' && document.querySelectorAll('.moves .mv').length === 2`, 10*time.Second)
	p.checkConsole()
}
