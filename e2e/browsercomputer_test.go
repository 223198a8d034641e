package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/magneton-games/magneton/server"
)

// errorToasts reports every error toast the page shows as a console
// error, so that checkConsole fails on one however briefly it showed.
const errorToasts = `new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (n.nodeType === 1 && n.matches('.toast.error')) console.error('error toast: ' + n.textContent);
  }
}).observe(document, { childList: true, subtree: true });`

// thinkingShown counts, in window.thinkingShown, the times the page
// shows that the computer is thinking.
const thinkingShown = `window.thinkingShown = 0;
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (n.nodeType === 1 && n.matches('.computer-thinking')) window.thinkingShown++;
  }
}).observe(document, { childList: true, subtree: true });`

// onNewDocument runs a script in each document the tab opens from now on.
func (p *page) onNewDocument(src string) {
	p.t.Helper()
	if _, err := chromedp.Call(p.ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
		p.t.Fatalf("%s: add a script: %v", p.name, err)
	}
}

// recorded is the server's record of a game: its state as anyone reads
// it (GET /api/games/<id>).
func recorded(t *testing.T, base, id string) state {
	t.Helper()
	resp, err := http.Get(base + "/api/games/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var s state
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// computerWhere waits for the game page's state to say where the
// computer thinks and at which level.
func (p *page) computerWhere(where string, level int) {
	p.t.Helper()
	p.waitFor("the computer "+where, fmt.Sprintf(`(s => !!s && !!s.computer && s.computer.where === %q && s.computer.level === %d)(window.magnetonGame && window.magnetonGame.state)`, where, level), 10*time.Second)
}

// TestBrowserComputerGame plays a whole game of Magneton against the
// computer at level 3 on a server whose computer is off: the page's
// engine plays every one of the computer's moves, the server checks and
// records each, and the game ends with a result that the page shows and
// the server keeps, move for move, in the archive.
func TestBrowserComputerGame(t *testing.T) {
	bctx := browser(t)
	// A game ends by the rules, or drawn at 160 moves (a long one takes
	// minutes here), which is an end the server records as any.
	srv := serve(t, filepath.Join(t.TempDir(), "games.db"), "127.0.0.1:0", func(cfg *server.Config) {
		cfg.NoServerComputer, cfg.MaxPlies = true, 160
	})
	p := tab(t, bctx, "player")
	p.onNewDocument(errorToasts)
	p.onNewDocument(thinkingShown)
	p.newGame(srv.url, "magneton", "computer", "3", "first", "")
	p.computerWhere("browser", 3)
	s := playToTheEnd(t, p, &chooser{t: t})
	// As for the server's computer, the page said it was thinking at its turns.
	if n := eval[int](p, `window.thinkingShown`); n < len(s.Moves)/2-1 {
		t.Errorf("the page said the computer was thinking %d times in %d moves", n, len(s.Moves))
	}
	checkResultShown(t, p, s)
	got := recorded(t, srv.url, s.ID)
	if got.Status != "finished" || got.Result != s.Result || got.Reason != s.Reason || !slices.Equal(got.Moves, s.Moves) {
		t.Errorf("the server recorded %s %s %s %v; the page played %s %s %v", got.Status, got.Result, got.Reason, got.Moves, s.Result, s.Reason, s.Moves)
	}
	p.goTo(srv.url + "/#/archive")
	p.waitFor("the game in the archive", fmt.Sprintf(`document.querySelector('table.games a[href="/g/%s"]')`, s.ID), 10*time.Second)
	p.checkConsole()
}

// playToTheEnd plays the player's moves, chosen by c, until the game is
// over (within the server's ply limit), and returns the last state. The
// first moves are clicked on the board; the others the page sends as its
// board would, so that a long game takes no longer than the computer's
// thinking in the browser, which the test is about.
func playToTheEnd(t *testing.T, p *page, c *chooser) state {
	t.Helper()
	for {
		p.waitFor("my turn or the end", `(s => s.status === 'finished' || (s.status === 'playing' && s.seat === s.turn && s.legal.length > 0))(window.magnetonGame.state)`, 30*time.Second)
		s := p.state()
		if s.Status == "finished" {
			break
		}
		if len(s.Moves) > 1000 {
			t.Fatalf("no result after %d moves", len(s.Moves))
		}
		if mv := c.move(s); len(s.Moves) < 6 {
			p.play(mv)
		} else {
			p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`window.magnetonGame.sendMove(%q)`, mv)))
			p.waitFor("the move "+mv, fmt.Sprintf(`window.magnetonGame.state.moves.length > %d`, len(s.Moves)), 10*time.Second)
		}
	}
	s := p.state()
	t.Logf("game over after %d moves: %s (%s)", len(s.Moves), s.Result, s.Reason)
	if s.Result == "*" || s.Reason == "" {
		t.Errorf("finished without a result: %+v", s)
	}
	return s
}

// TestBrowserComputerSetting: the new-game form's setting says where the
// computer thinks and is kept; a game made for the server's computer is
// the server's. A browser game's page whose player now wants the server
// hands the computer over, and a page that cannot run the engine does so
// too, saying why; two tabs of the player thinking at once show no error.
func TestBrowserComputerSetting(t *testing.T) {
	bctx := browser(t)
	base := startServer(t)
	p := tab(t, bctx, "player")
	p.onNewDocument(errorToasts)
	p.goTo(base + "/")
	p.waitFor("the new-game form", `document.querySelector('#start')`, 10*time.Second)
	p.click(`[data-name=opponent] input[value="computer"] + label`)
	p.waitFor("the place's setting, in this browser", `document.querySelector('[data-name=computer-place] input[value="browser"]:checked')`, 5*time.Second)
	p.click(`[data-name=computer-place] input[value="server"] + label`)
	p.newGame(base, "magneton", "computer", "2", "first", "")
	p.computerWhere("server", 2)
	p.goTo(base + "/")
	p.waitFor("the setting kept", `document.querySelector('[data-name=computer-place] input[value="server"]:checked')`, 10*time.Second)
	p.click(`[data-name=computer-place] input[value="browser"] + label`)
	p.newGame(base, "magneton", "computer", "2", "first", "")
	p.computerWhere("browser", 2)
	id := p.state().ID

	// A second tab of the same player: both think, one move is taken.
	ctx, cancel := chromedp.NewContext(p.ctx)
	defer cancel()
	q := &page{t: t, name: "second tab", ctx: ctx}
	q.onNewDocument(errorToasts)
	q.goTo(base + "/g/" + id)
	q.waitFor("the second tab's seat", `window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.seat === 0`, 10*time.Second)
	c := &chooser{t: t}
	for ply := 0; ply < 3; ply++ {
		s, over := p.myTurn(ply)
		if over {
			break
		}
		p.play(c.move(s))
	}
	q.waitFor("the second tab to follow", fmt.Sprintf(`window.magnetonGame.state.moves.length >= %d`, len(p.state().Moves)), 10*time.Second)
	q.checkConsole()
	cancel()

	// The player's setting is now the server: the page hands the computer over.
	eval[bool](p, `import('/js/prefs.js').then((m) => { m.setEnginePlace('server'); return true; })`)
	s, _ := p.myTurn(3)
	p.play(c.move(s))
	p.computerWhere("server", 2)
	p.myTurn(4)

	// A page without Workers cannot run the engine: the server takes over.
	eval[bool](p, `import('/js/prefs.js').then((m) => { m.setEnginePlace('browser'); return true; })`)
	p.newGame(base, "magneton", "computer", "2", "first", "")
	p.computerWhere("browser", 2)
	p.onNewDocument(`delete window.Worker; window.Worker = undefined;`)
	p.do(chromedp.Reload())
	p.waitFor("the game again", `window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.seat === 0`, 10*time.Second)
	s, _ = p.myTurn(0)
	p.play(c.move(s))
	p.waitFor("the hand-over's words", `[...document.querySelectorAll('.toast')].some((e) => e.textContent.includes('the server’s computer plays on'))`, 10*time.Second)
	p.computerWhere("server", 2)
	p.myTurn(1)
	p.checkConsole()
}
