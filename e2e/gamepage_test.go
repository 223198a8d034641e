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

// The tests of the game page's rough edges (issue 28): the room the
// questions get, the toasts, the player rows, the ways forward after a game,
// the rematch of an old game, premoves on the board, the clock after a
// restart, and the words.

// layout is where the game page's move list and chat stand, and whether
// its replay buttons and the last move can be seen.
type layout struct {
	Moves, Chat []int
	Nav, Last   bool
}

// layoutJS measures a layout.
const layoutJS = `(() => {
	const r = (q) => { const b = document.querySelector(q).getBoundingClientRect(); return [b.left, b.top, b.width, b.height].map(Math.round); };
	const shown = (e, box) => { const b = e.getBoundingClientRect(); return b.height > 10 && b.top >= box.top - 1 && b.bottom <= box.bottom + 1 && getComputedStyle(e).visibility !== 'hidden'; };
	const view = { top: 0, bottom: innerHeight };
	const nav = Array.from(document.querySelectorAll('.replay-nav button'));
	const list = document.querySelector('.moves');
	const last = Array.from(list.querySelectorAll('.mv')).pop();
	return { Moves: r('.moves'), Chat: r('.chat'), Nav: nav.length === 5 && nav.every((b) => shown(b, view)), Last: !!last && shown(last, list.getBoundingClientRect()) };
})()`

// layout measures the page's layout.
func (p *page) layout() layout {
	p.t.Helper()
	return eval[layout](p, layoutJS)
}

// sameLayout fails the test when the layout during a question differs from
// the one before it.
func (p *page) sameLayout(what string, before layout) {
	p.t.Helper()
	now := p.layout()
	if fmt.Sprint(now) != fmt.Sprint(before) || !now.Nav || !now.Last {
		p.t.Errorf("%s: %s: the moves, chat and replay buttons %+v, before it %+v", p.name, what, now, before)
	}
}

// toastsClearJS says what a toast shown covers of the account menu, the
// board, the players' names and their clocks: "clear" when nothing.
const toastsClearJS = `(() => {
	const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
	const keep = Array.from(document.querySelectorAll('.account, .board, .review, .player .player-name, .player .side-name, .player .clock'));
	for (const t of document.querySelectorAll('#toasts .toast')) {
		for (const k of keep) if (hit(t.getBoundingClientRect(), k.getBoundingClientRect())) return 'covers ' + k.className + ' ' + k.textContent;
	}
	return 'clear';
})()`

// toastClear waits for a toast that says text and checks that no toast
// covers the account menu, the board, a name or a clock.
func (p *page) toastClear(text string) {
	p.t.Helper()
	p.waitFor("the toast "+text, fmt.Sprintf(`Array.from(document.querySelectorAll('#toasts .toast')).some((e) => e.textContent.includes(%q))`, text), 10*time.Second)
	if got := eval[string](p, toastsClearJS); got != "clear" {
		p.t.Errorf("%s: the toast %q %s", p.name, text, got)
	}
}

// oneLineJS is a condition: each player row's parts stand on one line, and
// each clock's text on one line.
const oneLineJS = `Array.from(document.querySelectorAll('.player')).every((p) => {
	const mids = Array.from(p.querySelectorAll('.who > *')).map((c) => c.getBoundingClientRect()).filter((b) => b.height > 0).map((b) => b.top + b.height / 2);
	const c = p.querySelector('.clock');
	return Math.max(...mids) - Math.min(...mids) < 8 && (!c || c.getBoundingClientRect().height < parseFloat(getComputedStyle(c).fontSize) * 2);
})`

// asked: by presses ask (an offer), and to sees the question's button
// answer in the questions' room, with the moves, chat and replay buttons
// as they were (before), and a toast that says word and covers nothing.
func asked(by, to *page, ask, answer, word string, before layout) {
	by.t.Helper()
	by.click(ask)
	to.waitFor("the "+word+" asked", fmt.Sprintf(`document.querySelector(%q)`, answer), 10*time.Second)
	to.sameLayout("the "+word+" asked", before)
	to.toastClear(word)
}

// TestBrowserPromptsKeepRoom: a move to confirm, a takeback asked, a draw
// offered, a premove made on the board and a claim offered each stand in
// the questions' own room: the move list and the chat keep their size, the
// replay buttons and the last move stay in sight; the toasts that come
// with them cover no name, clock or account menu. The premove, made by
// clicks on the opponent's turn, is shown, cancellable, and played when
// the turn comes. A chat line too long is refused with a word, not cut;
// the tab is named after the players.
func TestBrowserPromptsKeepRoom(t *testing.T) {
	ts := serve(t, filepath.Join(t.TempDir(), "games.db"), "127.0.0.1:0", func(c *server.Config) {
		c.ClaimAfter = 4 * time.Second
	})
	bctx := browser(t)
	a, b := tab(t, bctx, "ann"), tab(t, bctx, "bob")
	invite(ts.url, a, b, "magneton", "")
	c := &chooser{t: t}
	openingMoves(c, a, b)
	la, lb := a.layout(), b.layout()
	if !la.Nav || !la.Last || !lb.Nav || !lb.Last {
		t.Fatalf("before any question: %+v, %+v", la, lb)
	}
	bob := eval[string](a, `window.magnetonGame.state.sides[1].player`)
	if title := eval[string](a, `document.title`); !strings.Contains(title, bob) || strings.Contains(title, "White vs Black") {
		t.Errorf("the tab is named %q, not after the players", title)
	}

	// A move to confirm.
	a.waitFor("my turn", myTurn, 10*time.Second)
	a.click("#confirm-moves + label")
	a.enter(c.move(a.state()))
	a.waitFor("the move waiting for Confirm", `document.querySelector('#confirm-move')`, 5*time.Second)
	a.sameLayout("a move to confirm", la)
	a.do(chromedp.KeyEvent(kb.Escape))
	a.click("#confirm-moves + label")
	a.waitFor("confirm moves off", `!document.querySelector('#confirm-move') && !document.querySelector('#confirm-moves').checked`, 5*time.Second)

	// A takeback asked, then a draw offered, both declined.
	asked(b, a, "#takeback", "#takeback-decline", "takeback", la)
	a.click("#takeback-decline")
	asked(b, a, "#offer-draw", "#draw-decline", "draw", la)
	a.click("#draw-decline")
	b.toastClear("declined")

	premoveByClicks(t, c, a, b, la)
	chatTooLong(t, a)

	// Bob leaves: Ann's claim, once its countdown has run out.
	if err := chromedp.Cancel(b.ctx); err != nil {
		t.Fatalf("close Bob's tab: %v", err)
	}
	a.waitFor("the claim's countdown", `document.querySelector('.offer.claim.waiting')`, 10*time.Second)
	a.sameLayout("the claim's countdown", la)
	a.waitFor("the claim", `document.querySelector('#claim-win')`, 10*time.Second)
	a.sameLayout("the claim offered", la)
	if !eval[bool](a, oneLineJS) {
		t.Error("a player row takes more than one line")
	}
	a.checkConsole()
}

// premoveByClicks: on Bob's turn Ann makes her answer on the board, which
// shows it queued without moving the list or chat; it is played the
// moment Bob has moved. A second premove is cancelled with Escape and not
// played.
func premoveByClicks(t *testing.T, c *chooser, a, b *page, la layout) {
	t.Helper()
	a.waitFor("my turn", myTurn, 10*time.Second)
	a.play(c.move(a.state()))
	b.waitFor("Bob's turn", myTurn, 10*time.Second)
	bobs := c.move(b.state())
	after := b.state()
	after.Moves = append(after.Moves, bobs)
	answer := c.move(after)
	a.waitFor("the board taking premoves", `document.querySelector('.board.interactive')`, 10*time.Second)
	a.enter(answer)
	a.waitFor("the premove queued", fmt.Sprintf(`(e => !!e && e.textContent === %q)(document.querySelector('.premove')) && document.querySelector('.sq.mark') && document.querySelector('#cancel-premove')`, answer), 5*time.Second)
	a.sameLayout("a premove queued", la)
	n := len(a.state().Moves)
	b.play(bobs)
	a.waitFor("the premove played", fmt.Sprintf(`window.magnetonGame.state.moves.length === %d && window.magnetonGame.state.moves[%d] === %q && !document.querySelector('.premove')`, n+2, n+1, answer), 10*time.Second)

	b.waitFor("Bob's turn", myTurn, 10*time.Second)
	bobs = c.move(b.state())
	after = b.state()
	after.Moves = append(after.Moves, bobs)
	a.enter(c.move(after))
	a.waitFor("the second premove queued", `document.querySelector('#cancel-premove')`, 5*time.Second)
	a.do(chromedp.KeyEvent(kb.Escape))
	a.waitFor("the premove cancelled", `!document.querySelector('.premove') && !document.querySelector('.sq.mark')`, 5*time.Second)
	b.play(bobs)
	a.waitFor("Ann's turn, nothing played for her", myTurn+fmt.Sprintf(` && window.magnetonGame.state.moves.length === %d`, n+3), 10*time.Second)
}

// chatTooLong: a line of 320 characters is not cut to the server's 300:
// the counter says how many are too many, and Enter sends nothing.
func chatTooLong(t *testing.T, a *page) {
	t.Helper()
	long := strings.Repeat("abcdefghij", 32)
	before := eval[int](a, chatCount)
	a.do(chromedp.SendKeys(chromedp.CSS("#chat-input"), long+"\n"))
	a.waitFor("the counter", `(e => e.textContent.startsWith('20 characters too many') && e.classList.contains('over'))(document.querySelector('.chat-count'))`, 5*time.Second)
	if got := eval[int](a, `document.querySelector('#chat-input').value.length`); got != len(long) {
		t.Errorf("the chat box holds %d characters of the %d typed", got, len(long))
	}
	if got := eval[int](a, chatCount); got != before {
		t.Errorf("a line too long was sent: %d lines, %d before", got, before)
	}
	a.do(chromedp.Evaluate[chromedp.Void](`(e => { e.value = ''; e.dispatchEvent(new Event('input')); })(document.querySelector('#chat-input'))`))
}

// TestBrowserWaysForward: after a resignation a rematch offer can be
// declined (the asker is told) or accepted (both players follow); the old
// game opened again stays, with a link to the rematch; an aborted game
// offers a new game and a rematch; a waiting game has Cancel on its page,
// and a quick-pairing seek says that an opponent is looked for.
func TestBrowserWaysForward(t *testing.T) {
	base, tabs := openTabs(t, "ann", "bob")
	a, b := tabs[0], tabs[1]
	first := invite(base, a, b, "magneton", "")
	c := &chooser{t: t}
	openingMoves(c, a, b)
	a.click("#resign")
	a.click("#resign")
	for _, p := range []*page{a, b} {
		p.waitFor("the end", `window.magnetonGame.state.status === 'finished' && document.querySelector('#rematch') && document.querySelector('.actions a.btn[href="/"]')`, 10*time.Second)
	}
	la := a.layout()
	asked(b, a, "#rematch", ".rematch-offer #rematch-decline", "rematch", la)
	a.click("#rematch-decline")
	b.toastClear("declined the rematch")
	b.waitFor("Rematch again", `(e => !!e && !e.disabled)(document.querySelector('#rematch'))`, 10*time.Second)
	b.click("#rematch")
	a.waitFor("the rematch offered again", `document.querySelector('.rematch-offer #rematch')`, 10*time.Second)
	a.click(".rematch-offer #rematch")
	for _, p := range []*page{a, b} {
		p.waitFor("the rematch", fmt.Sprintf(`location.pathname !== '/g/%s' && window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'playing'`, first), 10*time.Second)
	}
	second := a.state().ID

	// The first game, opened again (a replay from a profile): it stays.
	a.goTo(base + "/g/" + first)
	a.waitFor("the old game with its rematch's link", `window.magnetonGame && window.magnetonGame.state && window.magnetonGame.socket && window.magnetonGame.socket.isOpen() && document.querySelector('#rematch-link')`, 10*time.Second)
	if eval[bool](a, `window.magnetonGame.joiningRematch`) || eval[string](a, `location.pathname`) != "/g/"+first {
		t.Errorf("opening the old game went on to its rematch")
	}

	// Bob, to move first in the rematch, aborts it: both may start again.
	b.waitFor("Bob's abort", `document.querySelector('#abort')`, 10*time.Second)
	b.click("#abort")
	a.goTo(base + "/g/" + second)
	a.waitFor("the aborted game's ways forward", `window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'aborted' && document.querySelector('.actions a.btn[href="/"]') && document.querySelector('#rematch')`, 10*time.Second)
	a.click("#rematch")
	b.waitFor("the rematch of the aborted game offered", `document.querySelector('.rematch-offer #rematch')`, 10*time.Second)
	b.click(".rematch-offer #rematch")
	for _, p := range []*page{a, b} {
		p.waitFor("the rematch of the aborted game", fmt.Sprintf(`!['/g/%s', '/g/%s'].includes(location.pathname) && window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'playing'`, first, second), 10*time.Second)
	}

	// An invitation not taken: Cancel on its page.
	a.newGame(base, "magneton", "human", "", "first", "")
	a.waitFor("the invitation and Cancel", `document.querySelector('.invite-url') && document.querySelector('#cancel-game')`, 10*time.Second)
	a.click("#cancel-game")
	a.waitFor("the game cancelled", `window.magnetonGame.state.status === 'aborted' && document.querySelector('.actions a.btn[href="/"]') && !document.querySelector('#rematch')`, 10*time.Second)

	// A quick-pairing seek: no link to send, an opponent looked for.
	a.goTo(base + "/")
	a.waitFor("the quick pairing", `document.querySelector('.quick-btn[data-game="magneton"][data-clock="5+3"]')`, 10*time.Second)
	a.click(`.quick-btn[data-game="magneton"][data-clock="5+3"]`)
	a.waitFor("the seek's page", `location.pathname.startsWith('/g/') && window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'waiting' && document.querySelector('#cancel-game')`, 10*time.Second)
	if got := eval[string](a, `document.querySelector('.area-actions').textContent`); !strings.Contains(got, "Looking for an opponent") || strings.Contains(got, "Send this link") {
		t.Errorf("the seek's page says %q", got)
	}
	a.click("#cancel-game")
	a.waitFor("the seek cancelled", `window.magnetonGame.state.status === 'aborted'`, 10*time.Second)
	for _, p := range tabs {
		p.checkConsole()
	}
}

// TestBrowserPlayerRows: the computer's bar ("Computer (level 4)") and a
// correspondence clock under a day ("23h 59m") keep one line.
func TestBrowserPlayerRows(t *testing.T) {
	base, tabs := openTabs(t, "ann", "bob")
	a, b := tabs[0], tabs[1]
	a.newGame(base, "magneton", "computer", "4", "first", "5+3")
	a.waitFor("the computer's bar", `document.querySelector('.player.top').textContent.includes('level 4')`, 10*time.Second)
	if !eval[bool](a, oneLineJS) {
		t.Errorf("a player row against the computer takes two lines: %q", eval[string](a, `document.querySelector('.player.top').textContent`))
	}
	invite(base, a, b, "magneton", "1d")
	openingMoves(&chooser{t: t}, a, b)
	a.waitFor("Ann's clock running", `document.querySelector('.player.bottom .clock.running')`, 10*time.Second)
	a.do(chromedp.Evaluate[chromedp.Void](`window.magnetonGame.clockBase -= 61000`))
	a.waitFor("hours and minutes", `/^23h 5\dm$/.test(document.querySelector('.player.bottom .clock').textContent)`, 5*time.Second)
	if !eval[bool](a, oneLineJS) {
		t.Errorf("a clock of hours and minutes takes two lines")
	}
	a.checkConsole()
}

// TestBrowserClockAfterRestart: the server is down for some seconds while
// a live clock runs; when the page is back, it says that the time was not
// charged, instead of letting the clock jump back unexplained.
func TestBrowserClockAfterRestart(t *testing.T) {
	db, ts, _, a, b := gameOnDisk(t, "5+3")
	openingMoves(&chooser{t: t}, a, b)
	a.waitFor("Ann's clock running", `document.querySelector('.player.bottom .clock.running')`, 10*time.Second)
	restart(t, ts, db, func() {
		a.do(chromedp.Evaluate[chromedp.Void](`window.downAt = Date.now()`))
		a.waitFor("three seconds down", `Date.now() - window.downAt > 3000`, 10*time.Second)
	}, a, b)
	a.toastClear("was not charged")
	a.checkConsole()
}

// restart stops the server ts, and once every page has seen it go and
// down has returned, starts it again on the same database and port; it
// returns the new server once every page is connected again.
func restart(t *testing.T, ts *testServer, db string, down func(), pages ...*page) *testServer {
	t.Helper()
	ts.stop()
	for _, p := range pages {
		p.waitFor("the connection lost", `document.querySelector('.game-page.offline')`, 10*time.Second)
	}
	down()
	ts = serve(t, db, ts.addr, nil)
	for _, p := range pages {
		p.waitFor("the connection back", `window.magnetonGame.socket.isOpen() && !document.querySelector('.game-page.offline')`, 20*time.Second)
	}
	return ts
}

// gameOnDisk starts a server on a database of its own, for a restart,
// and has Ann invite Bob to a Magneton game with clock; it returns the
// database, the server, the game's id and the two tabs.
func gameOnDisk(t *testing.T, clock string) (string, *testServer, string, *page, *page) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "games.db")
	ts := serve(t, db, "127.0.0.1:0", nil)
	bctx := browser(t)
	a, b := tab(t, bctx, "ann"), tab(t, bctx, "bob")
	return db, ts, invite(ts.url, a, b, "magneton", clock), a, b
}

// TestBrowserWordsAndNotes: a game waiting in one's list says so without
// "vs"; the profile and the archive count a game's moves as its page
// numbers them (3 plies are 2 moves) and name an ending in the same
// words; an end note on an edge file ("King captured" on a8) stays on the
// board.
func TestBrowserWordsAndNotes(t *testing.T) {
	base, tabs := openTabs(t, "ann", "bob")
	a, b := tabs[0], tabs[1]
	a.signUp(base, "ann", "correct horse")
	a.newGame(base, "magneton", "human", "", "first", "")
	a.waitFor("the invitation link", `document.querySelector('.invite-url')`, 10*time.Second)
	link := eval[string](a, `document.querySelector('.invite-url').value`)
	id := a.state().ID
	a.goTo(base + "/")
	a.waitFor("the game waiting in Ann's list", `(e => !!e && e.textContent === 'waiting for an opponent')(document.querySelector('#mine-list .row-players'))`, 10*time.Second)

	b.goTo(link)
	b.waitFor("the seat", `window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'playing'`, 10*time.Second)
	a.goTo(base + "/g/" + id)
	a.waitFor("the game", `window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'playing'`, 10*time.Second)
	c := &chooser{t: t}
	openingMoves(c, a, b)
	a.waitFor("my turn", myTurn, 10*time.Second)
	a.play(c.move(a.state()))
	a.click("#resign")
	a.click("#resign")
	a.waitFor("the end", `window.magnetonGame.state.status === 'finished'`, 10*time.Second)
	a.goTo(base + "/@/ann")
	a.waitFor("the game on Ann's profile, its moves", fmt.Sprintf(`(r => !!r && r.querySelector('.col-moves').textContent === '2')(document.querySelector('tr[data-id=%q]'))`, id), 10*time.Second)
	a.openArchive(base)
	a.waitFor("the game in the archive, its moves", fmt.Sprintf(`(a => !!a && a.closest('tr').children[3].textContent === '2')(document.querySelector('table.games a[href="/g/%s"]'))`, id), 10*time.Second)
	if got := eval[string](a, `import('/js/words.js').then((m) => m.endingWords('time forfeit'))`); got != "time forfeit" {
		t.Errorf("the archive and the profile call a time forfeit %q", got)
	}

	// A King captured on a8, an edge file: its note stays on the board.
	a.newGame(base, "tumbling-down", "computer", "1", "first", "")
	a.waitFor("the board", `window.magnetonGame.board.board && document.querySelector('.board .sq[data-sq="a8"]')`, 10*time.Second)
	inside := eval[bool](a, `import('/js/board-notes.js').then((m) => {
		const b = window.magnetonGame.board.board;
		b.end = { marks: [], notes: [{ sq: b.grid.sqIndex('a8'), text: 'King captured' }, { sq: b.grid.sqIndex('h1'), text: 'King captured' }] };
		m.drawNotes(b);
		const box = document.querySelector('.board').getBoundingClientRect();
		return Array.from(document.querySelectorAll('.board-note .note-text')).every((e) => { const r = e.getBoundingClientRect(); return r.left >= box.left - 1 && r.right <= box.right + 1; });
	})`)
	if !inside {
		t.Error("an end note on an edge file spills past the board")
	}
	for _, p := range tabs {
		p.checkConsole()
	}
}
