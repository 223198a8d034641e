package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/magneton-games/magneton/server"
)

// The tests of what a player does at the board besides moving (issue 12):
// chat, takebacks, aborts, claims after the opponent left, and
// correspondence games.

// invite makes a game against a person from a's home page and has b open
// its invitation; it returns the game's id once both are seated and the
// game has begun. a plays the first side.
func invite(base string, a, b *page, gameName, clock string) string {
	a.t.Helper()
	a.newGame(base, gameName, "human", "", "first", clock)
	a.waitFor("the invitation link", `document.querySelector('.invite-url')`, 10*time.Second)
	link := eval[string](a, `document.querySelector('.invite-url').value`)
	id := a.state().ID
	b.goTo(link)
	b.waitFor("the seat", `window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.seat === 1 && window.magnetonGame.state.status === 'playing'`, 10*time.Second)
	a.waitFor("the game to start", `window.magnetonGame.state.status === 'playing'`, 10*time.Second)
	return id
}

// say types a line into the chat and sends it with Enter.
func (p *page) say(text string) {
	p.t.Helper()
	p.do(chromedp.SendKeys(chromedp.CSS("#chat-input"), text+"\n"))
}

// chatShows is a condition: a line of the chat shows text (as text).
func chatShows(text string) string {
	return fmt.Sprintf(`Array.from(document.querySelectorAll('.chat-lines .chat-text')).some((e) => e.textContent === %q)`, text)
}

// chatCount is how many lines the page's chat holds, shown or hidden.
const chatCount = `window.magnetonGame.chat.count`

// myTurn is a condition: the page's player may move now.
const myTurn = `(s => s.status === 'playing' && s.seat === s.turn && s.legal.length > 0)(window.magnetonGame.state)`

// TestBrowserChat: two players chat beside the board; a spectator's line
// stays in the spectators' room while the game is going on; a link and
// HTML typed in a line are shown as text; a player mutes the opponent and
// turns the chat off (both kept in the browser); once the game is over the
// players see the spectators' room too, and a replay shows the whole chat.
func TestBrowserChat(t *testing.T) {
	base, tabs := openTabs(t, "ann", "bob", "watcher", "later visitor")
	a, b, w, x := tabs[0], tabs[1], tabs[2], tabs[3]
	id := invite(base, a, b, "magneton", "")
	// A move each: past the opening, when a player can resign (not abort).
	c := &chooser{t: t}
	for i, p := range []*page{a, b} {
		p.waitFor("my turn", myTurn, 10*time.Second)
		p.play(c.move(p.state()))
		tabs[1-i].waitFor("the move seen", fmt.Sprintf(`window.magnetonGame.state.moves.length === %d`, i+1), 10*time.Second)
	}
	w.goTo(base + "/") // a guest's name, to chat with
	w.waitGuest()
	w.goTo(base + "/g/" + id)
	w.waitFor("the game as a spectator", `window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.seat === null && document.querySelector('#chat-input')`, 10*time.Second)
	for _, p := range []*page{a, b, w} {
		room := map[*page]string{a: "players", b: "players", w: "spectators"}[p]
		// No maxlength, which would cut a long line silently: the
		// counter refuses it (TestBrowserPromptsKeepRoom).
		p.waitFor("the chat's room", fmt.Sprintf(`document.querySelector('.chat-room').textContent === %q && !document.querySelector('#chat-input').hasAttribute('maxlength')`, room), 10*time.Second)
	}
	chatBetweenPlayers(t, a, b)
	chatOfSpectators(t, a, b, w)
	muteAndChatOff(t, a, b)

	// The game ends: the players now see the spectators' line too.
	a.click("#resign")
	a.waitFor("the confirmation", `document.querySelector('#resign').textContent.includes('Really')`, 5*time.Second)
	a.click("#resign")
	for _, p := range []*page{a, b} {
		p.waitFor("the end", `window.magnetonGame.state.status === 'finished'`, 10*time.Second)
		p.waitFor("the spectators' line after the end", chatShows("spectator here"), 10*time.Second)
	}
	// Someone who comes later replays the game with its chat.
	x.goTo(base + "/g/" + id)
	x.waitFor("the replay's chat", `window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'finished' && `+
		strings.Join([]string{chatShows(chatHello), chatShows("hi ann"), chatShows("spectator here"), chatShows("can you hear me")}, " && "), 10*time.Second)
	for _, p := range tabs {
		p.checkConsole()
	}
}

// chatHello is Ann's first line, with HTML and a link in it.
const chatHello = `hello <b>bob</b> <a href="https://example.com">https://example.com</a>`

// chatBetweenPlayers: Ann's line, with HTML and a link in it, is shown as
// typed to both players, with her name, and sounds for Bob; Bob answers.
func chatBetweenPlayers(t *testing.T, a, b *page) {
	t.Helper()
	b.do(chromedp.Evaluate[chromedp.Void](`window.magnetonSoundKinds = []`))
	a.say(chatHello)
	for _, p := range []*page{a, b} {
		p.waitFor("Ann's line", chatShows(chatHello), 10*time.Second)
		if eval[bool](p, `!!document.querySelector('.chat-lines b, .chat-lines a')`) {
			t.Errorf("%s: the chat made elements of the HTML in a line", p.name)
		}
	}
	b.waitFor("the chat's tone", `(window.magnetonSoundKinds || []).includes('chat')`, 5*time.Second)
	if got := eval[string](b, `document.querySelector('.chat-line .chat-name').textContent`); got == "" {
		t.Errorf("Ann's line has no name")
	}
	b.say("hi ann")
	a.waitFor("Bob's line", chatShows("hi ann"), 10*time.Second)
}

// chatOfSpectators: the watcher's line reaches the spectators' room only:
// once the watcher's page has it back from the server, a line Bob sends
// after it reaches Ann, and the watcher's has not.
func chatOfSpectators(t *testing.T, a, b, w *page) {
	t.Helper()
	w.say("spectator here")
	w.waitFor("the watcher's line", chatShows("spectator here"), 10*time.Second)
	b.say("after the watcher")
	a.waitFor("Bob's second line", chatShows("after the watcher"), 10*time.Second)
	for _, p := range []*page{a, b} {
		if eval[bool](p, chatShows("spectator here")) {
			t.Errorf("%s sees the spectators' room during the game", p.name)
		}
	}
}

// muteAndChatOff: Bob mutes Ann: her lines are hidden in his browser, and
// a new one arrives but is not shown; the choice outlives a reload. Ann
// turns the chat off: no lines, no input; kept over a reload.
func muteAndChatOff(t *testing.T, a, b *page) {
	t.Helper()
	b.click("#chat-mute")
	b.waitFor("Ann's lines hidden", `!(`+chatShows(chatHello)+`) && document.querySelector('#chat-mute').getAttribute('aria-pressed') === 'true'`, 5*time.Second)
	before := eval[int](b, chatCount)
	a.say("can you hear me")
	a.waitFor("Ann's own line", chatShows("can you hear me"), 10*time.Second)
	b.waitFor("Ann's muted line received", fmt.Sprintf(`%s > %d`, chatCount, before), 10*time.Second)
	if eval[bool](b, chatShows("can you hear me")) {
		t.Error("Bob muted Ann and still sees her new line")
	}
	b.do(chromedp.Reload())
	b.waitFor("the chat after a reload", `window.magnetonGame && window.magnetonGame.state && window.magnetonGame.chat.count > 0 && `+chatShows("hi ann"), 10*time.Second)
	if eval[bool](b, chatShows(chatHello)) {
		t.Error("Ann is muted no longer after Bob's reload")
	}
	b.click("#chat-mute")
	b.waitFor("Ann's lines back", chatShows(chatHello)+` && `+chatShows("can you hear me"), 5*time.Second)

	a.click("#chat-on")
	a.waitFor("the chat off", `document.querySelector('.chat-lines').hidden && document.querySelector('.chat-form').hidden && localStorage.getItem('chat') === 'off'`, 5*time.Second)
	a.do(chromedp.Reload())
	a.waitFor("the chat still off", `window.magnetonGame && window.magnetonGame.state && document.querySelector('.chat-lines').hidden && !document.querySelector('.chat-off').hidden`, 10*time.Second)
	a.click("#chat-on")
	a.waitFor("the chat on again", chatShows("hi ann"), 5*time.Second)
}

// TestBrowserTakeback: in a casual game one player asks to take back their
// move and the other, told by a banner, a toast and a tone, accepts it; a
// second request is declined. Against the computer a takeback is granted
// at once, back to the player's turn. The live log says the game begun
// and the moves taken back.
func TestBrowserTakeback(t *testing.T) {
	base, tabs := openTabs(t, "ann", "bob", "solo")
	a, b, solo := tabs[0], tabs[1], tabs[2]
	invite(base, a, b, "magneton", "")
	a.waitFor("the start said", saidLines+`.includes('Your opponent is here: the game has begun.')`, 5*time.Second)
	c := &chooser{t: t}
	for i, p := range []*page{a, b, a} {
		p.waitFor("my turn", myTurn, 10*time.Second)
		p.play(c.move(p.state()))
		next := map[int]*page{0: b, 1: a, 2: b}[i]
		next.waitFor("the move seen", fmt.Sprintf(`window.magnetonGame.state.moves.length === %d`, i+1), 10*time.Second)
	}
	a.waitFor("the takeback button", `(e => e && !e.disabled)(document.querySelector('#takeback'))`, 10*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](`window.magnetonSoundKinds = []`))
	a.click("#takeback")
	a.waitFor("the request sent", `document.querySelector('#takeback').disabled`, 10*time.Second)
	b.waitFor("the takeback banner", `(e => !!e && e.textContent.includes('take back'))(document.querySelector('.offer.takeback-offer')) && `+
		`Array.from(document.querySelectorAll('.toast')).some((e) => e.textContent.includes('takeback')) && (window.magnetonSoundKinds || []).includes('offer') && document.title.startsWith('● Takeback?')`, 10*time.Second)
	b.click("#takeback-accept")
	for _, p := range []*page{a, b} {
		p.waitFor("the move taken back", `window.magnetonGame.state.moves.length === 2 && document.querySelectorAll('.moves .mv').length === 2 && !document.querySelector('.offer.takeback-offer')`, 10*time.Second)
		p.waitFor("the takeback said", saidLines+`.includes('1 move taken back')`, 5*time.Second)
	}
	a.waitFor("Ann's turn again", myTurn+` && document.title.startsWith('● Your turn')`, 10*time.Second)

	// Ann plays again and asks again; Bob declines this time.
	a.play(c.move(a.state()))
	a.waitFor("the takeback button", `(e => e && !e.disabled)(document.querySelector('#takeback'))`, 10*time.Second)
	a.click("#takeback")
	b.waitFor("the second request", `document.querySelector('#takeback-decline')`, 10*time.Second)
	b.click("#takeback-decline")
	b.waitFor("the title after the answer", `document.title.startsWith('● Your turn')`, 10*time.Second)
	a.waitFor("the refusal", `Array.from(document.querySelectorAll('.toast')).some((e) => e.textContent.includes('declined')) && !window.magnetonGame.state.takeback`, 10*time.Second)
	if n := len(a.state().Moves); n != 3 {
		t.Errorf("after a declined takeback the game has %d moves, want 3", n)
	}

	// Against the computer: the computer's reply and one's own move go.
	solo.newGame(base, "magneton", "computer", "1", "first", "")
	for i := 0; i < 2; i++ {
		solo.waitFor("my turn", myTurn, 10*time.Second)
		solo.play(c.move(solo.state()))
	}
	solo.waitFor("the computer's reply", myTurn+` && window.magnetonGame.state.moves.length === 4`, 10*time.Second)
	solo.click("#takeback")
	solo.waitFor("the takeback", myTurn+` && window.magnetonGame.state.moves.length === 2 && document.querySelectorAll('.moves .mv').length === 2`, 10*time.Second)
	solo.waitFor("the takeback said", saidLines+`.includes('2 moves taken back')`, 5*time.Second)
	for _, p := range tabs {
		p.checkConsole()
	}
}

// TestBrowserClaim: a player closes the tab mid-game; the other sees on
// their bar that the opponent left and a countdown to the claim, then the
// buttons, and claims the win.
func TestBrowserClaim(t *testing.T) {
	ts := serve(t, filepath.Join(t.TempDir(), "games.db"), "127.0.0.1:0", func(c *server.Config) {
		c.ClaimAfter = 5 * time.Second
	})
	bctx := browser(t)
	a, b := tab(t, bctx, "ann"), tab(t, bctx, "bob")
	invite(ts.url, a, b, "magneton", "5+3")
	c := &chooser{t: t}
	for _, p := range []*page{a, b} {
		p.waitFor("my turn", myTurn, 10*time.Second)
		p.play(c.move(p.state()))
	}
	a.waitFor("Bob's move seen", `window.magnetonGame.state.moves.length === 2`, 10*time.Second)
	// Ann's clock runs now. Moved on by the page's own reckoning to under
	// 20 s, it turns red and warns once with the low-time tone.
	a.waitFor("Ann's clock running", `document.querySelector('.player.bottom .clock.running')`, 5*time.Second)
	a.do(chromedp.Evaluate[chromedp.Void](`window.magnetonSoundKinds = []; window.magnetonGame.clockBase -= 285000`))
	a.waitFor("the low-time warning", `document.querySelector('.player.bottom .clock.low') && window.magnetonSoundKinds.filter((k) => k === 'low').length === 1`, 5*time.Second)
	if err := chromedp.Cancel(b.ctx); err != nil { // Bob closes the tab
		t.Fatalf("close Bob's tab: %v", err)
	}
	a.waitFor("Bob gone, and the countdown", `document.querySelector('.player.top .away') && /claim victory in \d+ s/.test(document.querySelector('.offer.claim.waiting').textContent)`, 10*time.Second)
	if eval[bool](a, `!!document.querySelector('#claim-win')`) {
		t.Error("the claim is offered before the countdown has run out")
	}
	a.waitFor("the claim's buttons", `document.querySelector('#claim-win') && document.querySelector('#claim-draw')`, 10*time.Second)
	a.click("#claim-win")
	a.waitFor("the win", `window.magnetonGame.state.status === 'finished'`, 10*time.Second)
	if s := a.state(); s.Result != "1-0" || s.Reason != "abandonment" {
		t.Errorf("Ann sees %s (%s), want 1-0 by abandonment", s.Result, s.Reason)
	}
	if got := a.reasonShown(); !strings.Contains(got, "left the game") || !strings.Contains(got, "You win") {
		t.Errorf("Ann reads %q, want that Black left and she wins", got)
	}
	a.checkConsole()
}

// TestBrowserAbort: before their first move a player aborts instead of
// resigning; until each side's first move the clocks stand still and a
// countdown says how long the side to move has; a side that never moves
// has the game aborted.
func TestBrowserAbort(t *testing.T) {
	base, tabs := openTabs(t, "ann", "bob")
	a, b := tabs[0], tabs[1]
	invite(base, a, b, "magneton", "5+3")
	a.waitFor("Ann's abort and countdown", `document.querySelector('#abort') && !document.querySelector('#resign') && /^You must move within \d+ s or the game is aborted$/.test(document.querySelector('.status .first-move').textContent)`, 10*time.Second)
	b.waitFor("Bob's countdown", `document.querySelector('#abort') && /^White must move within \d+ s/.test(document.querySelector('.status .first-move').textContent)`, 10*time.Second)
	if eval[bool](a, `!!document.querySelector('.clock.running')`) {
		t.Error("a clock runs before the first move")
	}
	c := &chooser{t: t}
	a.play(c.move(a.state()))
	// After her first move Ann can no longer abort; Bob, who has not
	// moved, still can, and does.
	a.waitFor("Ann's resign back", `document.querySelector('#resign') && !document.querySelector('#abort')`, 10*time.Second)
	b.waitFor("Bob to move", myTurn+` && document.querySelector('#abort')`, 10*time.Second)
	b.click("#abort")
	for _, p := range []*page{a, b} {
		p.waitFor("the abort", `window.magnetonGame.state.status === 'aborted' && document.querySelector('.status .result[data-result="aborted"]')`, 10*time.Second)
		if got := eval[string](p, `document.querySelector('.status .result .reason').textContent`); !strings.Contains(got, "no result") {
			t.Errorf("%s reads %q about the abort", p.name, got)
		}
		p.checkConsole()
	}

	// A second server gives the first move two seconds: Ann never moves.
	ts := serve(t, filepath.Join(t.TempDir(), "games.db"), "127.0.0.1:0", func(c *server.Config) {
		c.FirstMoveTimeout = 4 * time.Second
	})
	// As invite does, but the game may be over before a page sees it
	// begin.
	a.newGame(ts.url, "magneton", "human", "", "first", "5+3")
	a.waitFor("the invitation link", `document.querySelector('.invite-url')`, 10*time.Second)
	b.goTo(eval[string](a, `document.querySelector('.invite-url').value`))
	for _, p := range []*page{a, b} {
		p.waitFor("the game aborted for want of a first move", `window.magnetonGame.state.status === 'aborted' && window.magnetonGame.state.reason === 'no first move'`, 15*time.Second)
		want := map[*page]string{a: "You did not make your first move in time", b: "White did not make their first move in time"}[p]
		if got := eval[string](p, `document.querySelector('.status .result .reason').textContent`); !strings.Contains(got, want) {
			t.Errorf("%s reads %q, want %q", p.name, got, want)
		}
		p.checkConsole()
	}
}

// TestBrowserCorrespondence: a game with days a move, played over a
// restart of the server: the pages reconnect by themselves and the game
// goes on; the clock shows days and hours; a player's home page lists the
// games where it is their turn first, and a move is made from there.
func TestBrowserCorrespondence(t *testing.T) {
	db, ts, id, a, b := gameOnDisk(t, "3d")
	a.waitFor("the clock in days", `document.querySelector('.status .rules').textContent.includes('3 days a move') && /^\d+d \d+h$/.test(document.querySelector('.player.bottom .clock').textContent)`, 10*time.Second)
	c := &chooser{t: t}
	for _, p := range []*page{a, b} {
		p.waitFor("my turn", myTurn, 10*time.Second)
		p.play(c.move(p.state()))
	}
	a.waitFor("Bob's move seen", `window.magnetonGame.state.moves.length === 2`, 10*time.Second)

	// The server stops and starts again on the same database and port.
	ts = restart(t, ts, db, func() {}, a, b)
	for _, p := range []*page{a, b} {
		p.waitFor("the game as it was", `window.magnetonGame.state.moves.length === 2`, 10*time.Second)
	}
	a.waitFor("my turn", myTurn, 10*time.Second)
	a.play(c.move(a.state()))
	b.waitFor("Ann's move after the restart", `window.magnetonGame.state.moves.length === 3`, 10*time.Second)

	// A second game, where Ann is to move: Bob's home page lists first
	// the one where it is his turn.
	other := invite(ts.url, a, b, "magneton", "1d")
	b.goTo(ts.url + "/")
	rows := `Array.from(document.querySelectorAll('#mine-list .game-row')).map((e) => e.querySelector('a.row-link').getAttribute('href') + ' ' + e.dataset.yourTurn).join(',')`
	want := fmt.Sprintf("/g/%s true,/g/%s false", id, other)
	b.waitFor("Bob's games, his turn first", fmt.Sprintf(`%s === %q`, rows, want), 10*time.Second)
	b.click(fmt.Sprintf(`#mine-list a.btn[href="/g/%s"]`, id))
	b.waitFor("the game from the list", fmt.Sprintf(`location.pathname === '/g/%s' && window.magnetonGame && window.magnetonGame.state && %s`, id, myTurn), 10*time.Second)
	b.play(c.move(b.state()))
	a.goTo(ts.url + "/g/" + id)
	a.waitFor("Bob's move", `window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.moves.length === 4 && `+myTurn, 10*time.Second)
	for _, p := range []*page{a, b} {
		p.checkConsole()
	}
}

// enter makes a move on the board with clicks without waiting for it to
// be played (a drop is one click, a move two).
func (p *page) enter(move string) {
	p.t.Helper()
	if len(move) == 2 {
		p.clickSquare(move)
		return
	}
	from := move[:2]
	p.clickSquare(from)
	p.waitFor("the piece on "+from+" to be selected", fmt.Sprintf(`document.querySelector('.sq[data-sq=%q]').classList.contains('selected')`, from), 5*time.Second)
	p.clickSquare(move[3:])
}

// TestBrowserConfirmAndPremove: with "Confirm moves" on, a move made on
// the board waits, marked, for Confirm (Cancel takes it back); a move typed
// during the opponent's turn is played the moment the turn comes, unless
// cancelled; a player who allowed notifications gets one for their turn
// when the tab is hidden; the volume is kept.
func TestBrowserConfirmAndPremove(t *testing.T) {
	base, tabs := openTabs(t, "ann", "bob")
	a, b := tabs[0], tabs[1]
	invite(base, a, b, "magneton", "")
	a.waitFor("my turn", myTurn, 10*time.Second)
	a.click("#confirm-moves + label")
	a.waitFor("confirm moves on", `document.querySelector('#confirm-moves').checked && localStorage.getItem('confirmMove') === 'on'`, 5*time.Second)

	c := &chooser{t: t}
	m1 := c.move(a.state())
	a.enter(m1)
	a.waitFor("the move waiting for Confirm", fmt.Sprintf(`document.querySelector('#confirm-move') && document.querySelector('.pending-move').textContent === %q && document.querySelector('.sq.mark') && !document.querySelector('.board').classList.contains('interactive')`, m1), 5*time.Second)
	a.click("#cancel-move")
	a.waitFor("the move cancelled", `!document.querySelector('#confirm-move') && document.querySelector('.board').classList.contains('interactive') && !document.querySelector('.sq.mark')`, 5*time.Second)
	// Escape takes it back too.
	a.enter(m1)
	a.waitFor("the move waiting for Confirm", `document.querySelector('#confirm-move')`, 5*time.Second)
	a.do(chromedp.KeyEvent(kb.Escape))
	a.waitFor("the move cancelled by Escape", `!document.querySelector('#confirm-move') && document.querySelector('.board').classList.contains('interactive')`, 5*time.Second)
	if n := len(a.state().Moves); n != 0 {
		t.Fatalf("a cancelled move was played: %d moves", n)
	}
	a.enter(m1)
	a.waitFor("the move waiting again", `document.querySelector('#confirm-move')`, 5*time.Second)
	a.click("#confirm-move")
	a.waitFor("the move played", fmt.Sprintf(`window.magnetonGame.state.moves.length === 1 && window.magnetonGame.state.moves[0] === %q`, m1), 10*time.Second)
	b.waitFor("Ann's move", `window.magnetonGame.state.moves.length === 1`, 10*time.Second)

	// Bob's next move is known to the test, and so Ann's answer to it,
	// which she types ahead while Bob thinks.
	m2 := c.move(b.state())
	after := b.state()
	after.Moves = append(after.Moves, m2)
	m3 := c.move(after)
	a.waitFor("the premove box", `!document.querySelector('.move-form').hidden && document.querySelector('.move-form label').textContent === 'Premove'`, 5*time.Second)
	a.do(chromedp.SendKeys(chromedp.CSS("#move-input"), m3+"\n"))
	a.waitFor("the premove shown", fmt.Sprintf(`document.querySelector('.premove') && document.querySelector('.premove').textContent === %q`, m3), 5*time.Second)
	// Ann's tab is hidden now, and she allowed notifications (a stand-in
	// for the browser's, which a headless browser does not show).
	a.do(chromedp.Evaluate[chromedp.Void](`window.notes = [];
		window.Notification = class { constructor(title, o) { window.notes.push(title + ': ' + o.body); } close() {} };
		window.Notification.permission = 'granted';
		Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });`))
	b.play(m2)
	a.waitFor("the premove played at once", fmt.Sprintf(`window.magnetonGame.state.moves.length === 3 && window.magnetonGame.state.moves[2] === %q && !document.querySelector('.premove')`, m3), 10*time.Second)
	if got := eval[[]string](a, `window.notes`); len(got) != 1 || !strings.HasPrefix(got[0], "Your turn: ") || !strings.Contains(got[0], m2) {
		t.Errorf("Ann's notifications: %q, want one for her turn after %s", got, m2)
	}
	a.do(chromedp.Evaluate[chromedp.Void](`delete document.visibilityState`))

	// A premove cancelled is not played.
	b.waitFor("Bob's turn", myTurn, 10*time.Second)
	m4 := c.move(b.state())
	after = b.state()
	after.Moves = append(after.Moves, m4)
	a.do(chromedp.SendKeys(chromedp.CSS("#move-input"), c.move(after)+"\n"))
	a.waitFor("the premove shown", `document.querySelector('#cancel-premove')`, 5*time.Second)
	a.click("#cancel-premove")
	a.waitFor("the premove gone", `!document.querySelector('.premove')`, 5*time.Second)
	b.play(m4)
	a.waitFor("Ann's turn, her premove not played", myTurn+` && window.magnetonGame.state.moves.length === 4`, 10*time.Second)

	// The volume is kept in the browser.
	a.do(chromedp.SetValue(chromedp.CSS("#volume"), "30"), chromedp.Evaluate[chromedp.Void](`document.querySelector('#volume').dispatchEvent(new Event('change'))`))
	a.waitFor("the volume kept", `localStorage.getItem('volume') === '0.3'`, 5*time.Second)
	a.do(chromedp.Reload())
	a.waitFor("the volume after a reload", `document.querySelector('#volume') && document.querySelector('#volume').value === '30'`, 10*time.Second)
	for _, p := range tabs {
		p.checkConsole()
	}
}

// openingMoves plays a move for each side, whoever is to move, each seen
// by every page before the next: past the opening, a player resigns (no
// longer aborts), and the first-move deadline of a game with a clock is
// met.
func openingMoves(c *chooser, pages ...*page) {
	for i := 0; i < 2; i++ {
		for _, p := range pages {
			p.waitFor("the game going on", `window.magnetonGame.state.status === 'playing' && window.magnetonGame.state.seat !== null`, 10*time.Second)
		}
		s := pages[0].state()
		mover := pages[0]
		for _, p := range pages {
			if seat := p.state().Seat; seat != nil && *seat == s.Turn {
				mover = p
			}
		}
		mover.waitFor("my turn", myTurn, 10*time.Second)
		n := len(s.Moves)
		mover.play(c.move(mover.state()))
		for _, p := range pages {
			p.waitFor("the move seen", fmt.Sprintf(`window.magnetonGame.state.moves.length === %d`, n+1), 10*time.Second)
		}
	}
}
