package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserOpenGame: a public game waits in the home page's list of open
// games until someone presses Join; the home page leads a player back to
// their game; a resignation ends it.
func TestBrowserOpenGame(t *testing.T) {
	bctx := browser(t)
	base := startServer(t)
	a := tab(t, bctx, "creator")
	b := tab(t, bctx, "joiner on a phone")
	b.asPhone()
	a.newGame(base, "tumbling-down", "human", "", "second", "")
	id := a.state().ID
	b.goTo(base + "/")
	b.waitFor("the open game", fmt.Sprintf(`document.querySelector('.game-row a[href="/g/%s"]')`, id), 10*time.Second)
	b.click(fmt.Sprintf(`.game-row:has(a[href="/g/%s"]) button`, id))
	b.waitFor("the first seat", `location.pathname.startsWith('/g/') && window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.seat === 0 && window.magnetonGame.state.status === 'playing'`, 10*time.Second)
	a.waitFor("the opponent", `window.magnetonGame.state.status === 'playing' && window.magnetonGame.state.sides[0].connected`, 10*time.Second)
	c := &chooser{t: t}
	b.play(c.move(b.state()))
	a.waitFor("the first move", `window.magnetonGame.state.moves.length === 1 && window.magnetonGame.state.seat === window.magnetonGame.state.turn`, 10*time.Second)
	// The first player's own move: before it, they could abort, not resign.
	a.play(c.move(a.state()))
	// The joiner leaves for the home page and comes back through "Your games".
	b.goTo(base + "/")
	mine := fmt.Sprintf(`#mine-title ~ .game-list a.btn[href="/g/%s"]`, id)
	b.waitFor("the game under Your games", fmt.Sprintf(`document.querySelector(%q)`, mine), 10*time.Second)
	b.click(mine)
	b.waitFor("the seat again", `window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.seat === 0`, 10*time.Second)
	// The first player resigns; both see the result.
	a.click("#resign")
	a.waitFor("the confirmation", `document.querySelector('#resign').textContent.includes('Really')`, 5*time.Second)
	a.click("#resign")
	for _, p := range []*page{a, b} {
		p.waitFor("the resignation", `window.magnetonGame.state.status === 'finished' && document.querySelector('.status .result')`, 10*time.Second)
		if s := p.state(); s.Result != "1-0" || s.Reason != "resignation" {
			t.Errorf("%s sees %s (%s), want 1-0 by resignation", p.name, s.Result, s.Reason)
		}
		want := map[*page]string{a: "You resigned · Black wins", b: "Red resigned · You win"}[p]
		if got := p.reasonShown(); got != want {
			t.Errorf("%s reads %q, want %q", p.name, got, want)
		}
		p.checkConsole()
	}
}

// TestBrowserTwoPlayersAndWatcher: one person creates a game against a
// person and sends the invitation link; the second opens it and the game
// starts; a third person watches. They play by clicks, the watcher sees
// every move as it happens and cannot move; a reload keeps the seat; the
// game ends in a draw offered by one and accepted by the other.
func TestBrowserTwoPlayersAndWatcher(t *testing.T) {
	base, tabs := openTabs(t, "first player", "second player", "watcher")
	a, b, w := tabs[0], tabs[1], tabs[2]
	id := startInvitedGame(t, base, a, b, w)
	c := &chooser{t: t}
	var moves []string
	for i := 0; i < 12; i++ {
		mover, other := a, b
		if i%2 == 1 {
			mover, other = b, a
		}
		moves = append(moves, playWatched(t, c, i, mover, other, w))
		if i == 1 {
			// The watcher's connection drops: the page reconnects by itself.
			w.do(chromedp.Evaluate[chromedp.Void](`window.magnetonGame.socket.ws.close()`))
			w.waitFor("the reconnection", `window.magnetonGame.socket.isOpen() && !document.querySelector('.game-page.offline')`, 10*time.Second)
		}
		if i == 3 {
			// The second player reloads: the seat comes back with the cookie.
			b.do(chromedp.Reload())
			b.waitFor("the seat after a reload", `window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.seat === 1`, 10*time.Second)
		}
	}
	if got := eval[string](w, `Array.from(document.querySelectorAll('.moves .mv')).map(e => e.textContent).join(' ')`); got != strings.Join(moves, " ") {
		t.Errorf("the watcher's move list is %q, want %q", got, strings.Join(moves, " "))
	}
	// The watcher cannot move: the board takes no input and offers no buttons.
	if eval[bool](w, `document.querySelector('.board').classList.contains('interactive') || !!document.querySelector('#resign')`) {
		t.Errorf("the watcher's board takes moves")
	}
	save(t, "screenshot-magneton.png", a.capture())
	drawSilently(t, a, b, w)
	rematchWatched(t, id, a, b, w)
	for _, p := range []*page{a, b, w} {
		p.checkConsole()
	}
}

// startInvitedGame has a create a Magneton game against a person and send
// its invitation link to b, which opens it, while w watches from the start;
// it returns the game's id once the game has begun for all three.
func startInvitedGame(t *testing.T, base string, a, b, w *page) string {
	t.Helper()
	a.newGame(base, "magneton", "human", "", "first", "5+3")
	a.waitFor("the invitation link", `document.querySelector('.invite-url')`, 10*time.Second)
	invite := eval[string](a, `document.querySelector('.invite-url').value`)
	id := a.state().ID
	if !strings.Contains(invite, "invite=") {
		t.Fatalf("invitation link %q", invite)
	}
	w.goTo(base + "/g/" + id)
	w.waitFor("the game as a spectator", `window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.seat === null`, 10*time.Second)
	if got := eval[[]string](w, `['.player.top .hand', '.player.bottom .hand'].map((q) => document.querySelector(q)).map((e) => e.textContent + ' ' + [...e.querySelector('.chip').classList].join(' '))`); len(got) != 2 || got[0] != "× 12 chip b" || got[1] != "× 12 chip w" {
		t.Errorf("the player bars show %q, want 12 stones in hand for each, Black's on top", got)
	}
	b.goTo(invite)
	b.waitFor("the seat", `window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.seat === 1 && window.magnetonGame.state.status === 'playing'`, 10*time.Second)
	a.waitFor("the game to start", `window.magnetonGame.state.status === 'playing'`, 10*time.Second)
	w.waitFor("the game to start", `window.magnetonGame.state.status === 'playing'`, 10*time.Second)
	if got := eval[string](b, `location.pathname + location.search`); got != "/g/"+id {
		t.Errorf("after joining the URL is %q, want /g/%s without the invitation", got, id)
	}
	return id
}

// playWatched has mover play move i (from 0) while other waits and w
// watches: only the mover's tab says it is their turn (its title and
// icon), all three see the move, the player to move next hears a tone and
// the watcher none. It returns the move.
func playWatched(t *testing.T, c *chooser, i int, mover, other, w *page) string {
	t.Helper()
	yourTurn := `document.title.startsWith('● Your turn')`
	iconTurn := `document.querySelector('link[rel="icon"]').dataset.turn === 'true' && document.querySelector('link[rel="icon"]').href.startsWith('data:image/svg+xml')`
	mover.waitFor("your turn in the tab's title", yourTurn, 10*time.Second)
	if eval[bool](other, yourTurn) || eval[bool](w, yourTurn) {
		t.Errorf("move %d: the title says 'your turn' to the player waiting or to the watcher", i+1)
	}
	// And so does the tab's icon, with a dot.
	mover.waitFor("your turn on the tab's icon", iconTurn, 5*time.Second)
	if eval[bool](other, iconTurn) || eval[bool](w, iconTurn) {
		t.Errorf("move %d: the tab's icon says 'your turn' to the player waiting or to the watcher", i+1)
	}
	heard := eval[int](other, `window.magnetonSounds || 0`)
	m := c.move(mover.state())
	mover.play(m)
	n := i + 1
	for _, p := range []*page{mover, other, w} {
		p.waitFor(fmt.Sprintf("move %d on the board", n), fmt.Sprintf(`document.querySelectorAll('.moves .mv').length === %d && window.magnetonGame.state.moves.length === %d`, n, n), 10*time.Second)
	}
	// The player now to move heard a tone; the watcher never does.
	other.waitFor("the tone of the opponent's move", fmt.Sprintf(`(window.magnetonSounds || 0) > %d`, heard), 10*time.Second)
	if got := eval[int](w, `window.magnetonSounds || 0`); got != 0 {
		t.Errorf("the watcher heard %d tones", got)
	}
	return m
}

// drawSilently: a turns the sounds off, offers a draw and b accepts it;
// all three see the draw, and the end is silent for a only.
func drawSilently(t *testing.T, a, b, w *page) {
	t.Helper()
	a.click(".sound-toggle")
	a.waitFor("the sounds off", `document.querySelector('.sound-toggle').getAttribute('aria-pressed') === 'false' && localStorage.getItem('sound') === 'off'`, 5*time.Second)
	heardA, heardB := eval[int](a, `window.magnetonSounds || 0`), eval[int](b, `window.magnetonSounds || 0`)
	a.click("#offer-draw")
	b.waitFor("the draw offer", `Array.from(document.querySelectorAll('.offer button')).some(e => e.textContent === 'Accept draw')`, 10*time.Second)
	b.click(".offer .btn.primary")
	for _, p := range []*page{a, b, w} {
		p.waitFor("the draw", `window.magnetonGame.state.status === 'finished' && document.querySelector('.status .result')`, 10*time.Second)
		if s := p.state(); s.Result != "1/2-1/2" || s.Reason != "agreement" {
			t.Errorf("%s sees %s (%s), want a draw by agreement", p.name, s.Result, s.Reason)
		}
		if got := p.reasonShown(); got != "Draw by agreement" {
			t.Errorf("%s reads %q, want Draw by agreement", p.name, got)
		}
		p.checkRecordLinks(p.state())
	}
	b.waitFor("the tone of the end", fmt.Sprintf(`(window.magnetonSounds || 0) > %d && window.magnetonSoundKinds.includes('offer') && window.magnetonSoundKinds[window.magnetonSoundKinds.length - 1] === 'end'`, heardB), 5*time.Second)
	if got := eval[int](a, `window.magnetonSounds || 0`); got != heardA {
		t.Errorf("the first player turned the sounds off and still heard %d", got-heardA)
	}
}

// rematchWatched: a asks for a rematch of game id, b sees it asked (a
// banner, the tab's title) and accepts; both go to the new game with the
// colours swapped, and the watcher is shown the way there.
func rematchWatched(t *testing.T, id string, a, b, w *page) {
	t.Helper()
	a.click("#rematch")
	b.waitFor("the rematch offer", `document.querySelector('#rematch') && document.querySelector('#rematch').textContent === 'Accept rematch'`, 10*time.Second)
	b.waitFor("the rematch banner and title", `(e => !!e && e.textContent.includes('Your opponent wants a rematch'))(document.querySelector('.offer.rematch-offer')) && document.title.startsWith('● Rematch?')`, 5*time.Second)
	b.click("#rematch")
	for i, p := range []*page{a, b} {
		p.waitFor("the rematch game", fmt.Sprintf(`location.pathname !== '/g/%s' && window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.id !== %q && window.magnetonGame.state.seat === %d && window.magnetonGame.state.status === 'playing'`, id, id, 1-i), 10*time.Second)
	}
	w.waitFor("the link to the rematch", `Array.from(document.querySelectorAll('.actions a')).some(e => e.textContent === 'Watch the rematch')`, 10*time.Second)
}
