package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The tests of the board by keyboard and for a screen reader (issue 28):
// the cursor moved with the arrow keys, Enter to pick and drop, Escape,
// the popup that asks which move, the squares' names, the live log that
// says every move and the end, and the read-out commands.

// pressKeys sends keys, one after the other, to the element that has the
// focus, as a keyboard does.
func (p *page) pressKeys(keys ...string) {
	p.t.Helper()
	for _, k := range keys {
		p.do(chromedp.KeyEvent(k))
	}
}

// focused is a condition: the element that has the focus matches css.
func focused(css string) string {
	return fmt.Sprintf(`!!document.activeElement && document.activeElement.matches(%q)`, css)
}

// tabToBoard presses Tab until the board has the focus, as a keyboard
// player reaches it.
func (p *page) tabToBoard() {
	p.t.Helper()
	for range 120 {
		if eval[bool](p, focused(".board")) {
			return
		}
		p.pressKeys(kb.Tab)
	}
	p.t.Fatalf("%s: Tab never reaches the board", p.name)
}

// cursorTo moves the cursor of the board sel to square sq with the arrow
// keys, counting the rows and columns between them on the screen.
func (p *page) cursorTo(sel, sq string) {
	p.t.Helper()
	d := eval[[]int](p, fmt.Sprintf(`((sel) => {
		const board = document.querySelector(sel), b = board.getBoundingClientRect();
		const at = (s) => { const r = s.getBoundingClientRect(); return [Math.round((r.top - b.top) / r.height), Math.round((r.left - b.left) / r.width)]; };
		const [r0, c0] = at(board.querySelector('.sq.cursor')), [r1, c1] = at(board.querySelector('.sq[data-sq=%q]'));
		return [r1 - r0, c1 - c0];
	})(%q)`, sq, sel))
	step := func(n int, less, more string) {
		for ; n < 0; n++ {
			p.pressKeys(less)
		}
		for ; n > 0; n-- {
			p.pressKeys(more)
		}
	}
	step(d[0], kb.ArrowUp, kb.ArrowDown)
	step(d[1], kb.ArrowLeft, kb.ArrowRight)
	p.waitFor("the cursor on "+sq, fmt.Sprintf(`(b => b.querySelector('.sq.cursor[data-sq=%q]') && b.getAttribute('aria-activedescendant') === b.querySelector('.sq.cursor').id)(document.querySelector(%q))`, sq, sel), 5*time.Second)
}

// keyPlay makes a move by keyboard alone on the game page's focused
// board (keyMove), and waits for the server's new state and the focus back
// on the board. It reports whether the board asked which move.
func (p *page) keyPlay(move string) (asked bool) {
	p.t.Helper()
	before := len(p.state().Moves)
	asked = p.keyMove(".board", move)
	p.waitFor("the move "+move+" to be played", fmt.Sprintf(`window.magnetonGame.state.moves.length > %d`, before), 10*time.Second)
	p.waitFor("the focus back on the board", focused(".board"), 5*time.Second)
	return asked
}

// keyMove makes a move by keyboard alone on the focused board sel: the
// cursor to the square and Enter for a drop; to the piece, Enter, to the
// target, Enter for a move, and, when the board asks step or tumble, the
// arrow to the one wanted and Enter. It reports whether the board asked.
func (p *page) keyMove(sel, move string) (asked bool) {
	p.t.Helper()
	if len(move) == 2 {
		p.cursorTo(sel, move)
		p.pressKeys(kb.Enter)
	} else {
		from, to := move[:2], move[3:]
		p.cursorTo(sel, from)
		p.pressKeys(kb.Enter)
		p.waitFor("the piece on "+from+" picked", fmt.Sprintf(`document.querySelector('%s .sq[data-sq=%q]').classList.contains('selected')`, sel, from), 5*time.Second)
		p.cursorTo(sel, to)
		p.pressKeys(kb.Enter)
		if asked = eval[bool](p, `!!document.querySelector('.chooser')`); asked {
			p.waitFor("the focus in the popup", focused(".chooser .choose-step"), 5*time.Second)
			if move[2] == '>' {
				p.pressKeys(kb.ArrowDown)
				p.waitFor("the tumble's button focused", focused(".chooser .choose-tumble"), 5*time.Second)
			}
			p.pressKeys(kb.Enter)
		}
	}
	return asked
}

// saidLines is what the game page's live log holds, oldest first.
const saidLines = `Array.from(document.querySelectorAll('.sr-log p')).map((e) => e.textContent)`

// waitSaid waits until one of the live log's lines matches re.
func (p *page) waitSaid(what string, re *regexp.Regexp) {
	p.t.Helper()
	defer func() {
		if p.t.Failed() {
			p.t.Logf("the log: %q; the moves %v", eval[[]string](p, saidLines), p.state().Moves)
		}
	}()
	p.waitFor(what+" said", fmt.Sprintf(`%s.some((l) => new RegExp(%q).test(l))`, saidLines, re.String()), 15*time.Second)
}

// command types a read-out command into the command box with the
// keyboard and returns what the page answers (and says).
func (p *page) command(cmd string) string {
	p.t.Helper()
	p.do(chromedp.SendKeys(chromedp.CSS("#sr-command"), cmd+"\n"))
	p.waitFor("the answer to "+cmd, fmt.Sprintf(`(l => l.length > 0 && l[l.length - 1] === document.querySelector('.sr-answer').textContent)(%s) && document.querySelector('#sr-command').value === ''`, saidLines), 5*time.Second)
	return eval[string](p, `document.querySelector('.sr-answer').textContent`)
}

// checkSquareNames checks that every square of the board sel has a name
// in words: its own name first, then what is on it.
func checkSquareNames(t *testing.T, p *page, sel string) {
	t.Helper()
	bad := eval[[]string](p, fmt.Sprintf(`Array.from(document.querySelectorAll('%s .sq')).filter((s) => !(s.getAttribute('role') === 'img' && (s.getAttribute('aria-label') || '').startsWith(s.dataset.sq + ', ') && s.getAttribute('aria-label').length > s.dataset.sq.length + 2)).map((s) => s.dataset.sq + ': ' + s.getAttribute('aria-label'))`, sel))
	n := eval[int](p, fmt.Sprintf(`document.querySelectorAll('%s .sq').length`, sel))
	if n == 0 || len(bad) > 0 {
		t.Errorf("%s: of %d squares, these have no name in words: %q", sel, n, bad)
	}
}

// keyGameStart is a game against the computer that a keyboard player
// starts, the site in lang, the player the first side, and the names in
// words its board and the player's clock have at the start.
type keyGameStart struct {
	lang, game, level, clock string
	board, myClock           string
}

// startKeyGame starts the game g from the home page of a new server in a
// new browser and checks, on the player's first turn, that every square,
// the board and the player's clock have their names in words.
func startKeyGame(t *testing.T, g keyGameStart) *page {
	t.Helper()
	base, tabs := openTabs(t, "player")
	p := tabs[0]
	p.goTo(base + "/")
	// The level through the form's kept choices: the form's own check of
	// the level's name (newGame's) reads English.
	p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`localStorage.setItem('lang', %q); localStorage.setItem('newgame', JSON.stringify({ level: %s }))`, g.lang, g.level)))
	p.newGame(base, g.game, "computer", "", "first", g.clock)
	p.waitFor("the computer at level "+g.level, fmt.Sprintf(`window.magnetonGame.state.sides.some((s) => s.player === 'computer (level %s)')`, g.level), 5*time.Second)
	p.waitFor("my first turn", myTurn, 10*time.Second)
	checkSquareNames(t, p, ".board")
	if got := eval[string](p, `document.querySelector('.board').getAttribute('aria-label')`); got != g.board {
		t.Errorf("the board is named %q, want %q", got, g.board)
	}
	if got := eval[string](p, `document.querySelector('.player.bottom .clock').getAttribute('aria-label')`); got != g.myClock {
		t.Errorf("my clock is named %q, want %q", got, g.myClock)
	}
	return p
}

// movePattern is how the log says a Tumbling Down move of side: a step,
// or a tumble (of a single disk, a step).
func movePattern(side, move string) *regexp.Regexp {
	from, to := move[:2], move[3:]
	if move[2] == '-' {
		return regexp.MustCompile(fmt.Sprintf(`^%s steps %s to %s$`, side, from, to))
	}
	return regexp.MustCompile(fmt.Sprintf(`^%s (topples the stack of \d+ from %s towards|steps %s to) %s$`, side, from, from, to))
}

// TestBrowserKeyboardTumbling plays a whole game of Tumbling Down against
// the computer by keyboard alone: the board reached with Tab, every move
// made with the arrow keys and Enter, step or tumble chosen in the popup
// with the keyboard; Escape drops a piece picked and closes the popup.
// The live log says each move in words, the player's and the computer's,
// and the end; the read-out commands read a stack, the clocks, the last
// move and the board; every square and the clocks have names in words.
func TestBrowserKeyboardTumbling(t *testing.T) {
	p := startKeyGame(t, keyGameStart{lang: "en", game: "tumbling-down", level: "1", clock: "15+10", board: "Tumbling Down board, Black to move", myClock: "Black's clock, 15 minutes"})

	// Screen-reader mode, turned on by keyboard, and its commands.
	p.do(chromedp.Focus(chromedp.CSS("#screen-reader")))
	p.pressKeys(" ")
	p.waitFor("the command box", `!document.querySelector('.sr-commands').hidden && localStorage.getItem('screenReader') === 'on'`, 5*time.Second)
	for _, c := range []struct{ cmd, want string }{
		{"/square a8", "a8, stack of 4, bottom to top: black, black, black, black, Black's King"},
		{"/clock", "Black's clock, 15 minutes. Red's clock, 15 minutes"},
		{"/last", "No move yet"},
		{"/turn", "Tumbling Down board, Black to move"},
		{"/square z9", "“z9” is not a square of this board"},
	} {
		if got := p.command(c.cmd); got != c.want {
			t.Errorf("%s reads %q, want %q", c.cmd, got, c.want)
		}
	}
	if got := p.command("/board"); !strings.HasPrefix(got, "Rank 1: ") || !strings.Contains(got, "a8, stack of 4, bottom to top: black, black, black, black, Black's King") {
		t.Errorf("/board reads %q", got)
	}

	p.tabToBoard()
	checkEscapes(t, p)
	asked := keyGame(t, p, func(m string) *regexp.Regexp { return movePattern("Black", m) }, func(m string) *regexp.Regexp { return movePattern("Red", m) }, func(ply int, s state) {
		if ply == 1 {
			if got := p.command("/last"); !strings.HasPrefix(got, "Last move: ") || !movePattern("Red", s.Moves[1]).MatchString(strings.TrimPrefix(got, "Last move: ")) {
				t.Errorf("/last reads %q after %v", got, s.Moves)
			}
			p.do(chromedp.Focus(chromedp.CSS(".board")))
		}
	})
	if asked == 0 {
		t.Error("the board never asked step or tumble")
	}
	p.checkConsole()
}

// checkEscapes checks, on the player's first turn of Tumbling Down, that
// Escape drops the piece picked and closes the popup that asks step or
// tumble, the focus back on the board, and that the board's status line
// says so.
func checkEscapes(t *testing.T, p *page) {
	t.Helper()
	s := p.state()
	var from, to string
	for _, m := range s.Legal {
		if m[2] == '>' && containsMove(s.Legal, m[:2]+"-"+m[3:]) {
			from, to = m[:2], m[3:]
			break
		}
	}
	if from == "" {
		t.Fatalf("no step and tumble share a target in %v", s.Legal)
	}
	p.cursorTo(".board", from)
	p.pressKeys(kb.Enter)
	p.waitFor("the stack picked", fmt.Sprintf(`document.querySelector('.sq[data-sq=%q]').classList.contains('selected') && /^%s picked: \d+ squares to go to$/.test(document.querySelector('.board-say').textContent)`, from, from), 5*time.Second)
	p.pressKeys(kb.Escape)
	p.waitFor("the stack dropped", `!document.querySelector('.sq.selected') && document.querySelector('.board-say').textContent === 'Cancelled'`, 5*time.Second)
	p.pressKeys(kb.Enter)
	p.cursorTo(".board", to)
	p.pressKeys(kb.Enter)
	p.waitFor("the popup", focused(".chooser .choose-step"), 5*time.Second)
	p.pressKeys(kb.Tab)
	p.waitFor("Tab to the tumble", focused(".chooser .choose-tumble"), 5*time.Second)
	p.pressKeys(kb.Escape)
	p.waitFor("the popup closed", `!document.querySelector('.chooser') && `+focused(".board"), 5*time.Second)
	if n := len(p.state().Moves); n != 0 {
		t.Errorf("Escape played a move: %d moves", n)
	}
	p.pressKeys(kb.Escape) // the stack, still picked, dropped
	p.waitFor("nothing picked", `!document.querySelector('.sq.selected')`, 5*time.Second)
}

func containsMove(legal []string, m string) bool {
	for _, x := range legal {
		if x == m {
			return true
		}
	}
	return false
}

// TestBrowserKeyboardMagnetonSpanish plays a whole game of Magneton
// against the computer by keyboard alone, with the site in Spanish: drops
// and moves with the arrow keys and Enter; the live log says each move in
// Spanish words, the player's and the computer's, and the end; the move
// box takes the read-out commands too.
func TestBrowserKeyboardMagnetonSpanish(t *testing.T) {
	p := startKeyGame(t, keyGameStart{lang: "es", game: "magneton", level: "1", clock: "5+3", board: "Tablero de Magneton, mueven las blancas", myClock: "Reloj de Blancas: 5 minutos"})
	p.do(chromedp.SendKeys(chromedp.CSS("#move-input"), "/square d4\n"))
	p.waitFor("d4 read", `document.querySelector('.sr-answer').textContent === 'd4, vacía'`, 5*time.Second)
	p.tabToBoard()
	said := func(side, move string) *regexp.Regexp {
		verb := fmt.Sprintf(`colocan en %s`, move)
		if len(move) > 2 {
			verb = fmt.Sprintf(`mueven de %s a %s`, move[:2], move[3:])
		}
		return regexp.MustCompile(fmt.Sprintf(`^Las %s %s(; el imán desplaza \d+ piedras?)?$`, side, verb))
	}
	keyGame(t, p, func(m string) *regexp.Regexp { return said("blancas", m) }, func(m string) *regexp.Regexp { return said("negras", m) }, func(ply int, s state) {
		if ply == 1 {
			p.do(chromedp.SendKeys(chromedp.CSS("#move-input"), "/last\n"))
			want := "Última jugada: " + strings.TrimPrefix(said("negras", s.Moves[1]).String(), "^")
			p.waitFor("the last move read", fmt.Sprintf(`new RegExp(%q).test(document.querySelector('.sr-answer').textContent)`, want), 5*time.Second)
			p.do(chromedp.Focus(chromedp.CSS(".board")))
		}
	})
	p.checkConsole()
}

// keyGame plays the first side's game against the computer to its end by
// keyboard alone, with the engine's moves, and checks that the live log
// says each move, the player's as mine(move) matches and the computer's as
// theirs(move), and then the end, as the result banner does; before(ply,
// s) runs before each of the player's moves. It returns how many times the
// board asked which move.
func keyGame(t *testing.T, p *page, mine, theirs func(string) *regexp.Regexp, before func(int, state)) int {
	t.Helper()
	c := &chooser{t: t}
	asked := 0
	for ply := 0; ; ply++ {
		p.waitFor("my turn or the end", `(s => s.status === 'finished' || (s.status === 'playing' && s.seat === s.turn && s.legal.length > 0))(window.magnetonGame.state)`, 30*time.Second)
		s := p.state()
		if n := len(s.Moves); n > 0 && n%2 == 0 {
			p.waitSaid("the computer's move", theirs(s.Moves[n-1]))
		}
		if s.Status == "finished" {
			break
		}
		if ply > 120 {
			t.Fatalf("no result after %d moves: %v", len(s.Moves), s.Moves)
		}
		before(ply, s)
		m := c.move(s)
		if p.keyPlay(m) {
			asked++
		}
		p.waitSaid("my move", mine(m))
	}
	reason := p.reasonShown()
	p.waitFor("the end said", fmt.Sprintf(`(l => l[l.length - 1] === %q)(%s)`, reason, saidLines), 10*time.Second)
	return asked
}

// TestBrowserSquareNames checks that the boards of the analysis page and
// of a lesson, in both games, name every square in words, name themselves
// in words, not by the position's text, and tell their keys.
func TestBrowserSquareNames(t *testing.T) {
	base, tabs := openTabs(t, "reader")
	p := tabs[0]
	for _, c := range []struct{ url, ready, board, name string }{
		{"/analysis?game=magneton", `window.analysisBoard && window.analysisBoard.cur`, ".analysis-board .board", "Magneton board, White to move"},
		{"/analysis?game=tumbling-down", `window.analysisBoard && window.analysisBoard.cur`, ".analysis-board .board", "Tumbling Down board, Black to move"},
		{"/learn/tumbling-down", `document.querySelector('.lesson[data-lesson="step"] .board')`, `.lesson[data-lesson="step"] .board`, "Tumbling Down board, Black to move"},
		{"/learn/magneton", `document.querySelector('.lesson .board')`, `.lesson .board`, "Magneton board, "},
	} {
		p.goTo(base + c.url)
		p.waitFor(c.url, c.ready+` && document.querySelector('`+c.board+` .sq[aria-label*=", "]')`, 10*time.Second)
		checkSquareNames(t, p, c.board)
		if got := eval[string](p, fmt.Sprintf(`(b => b.getAttribute('role') + ': ' + b.getAttribute('aria-label'))(document.querySelector('%s'))`, c.board)); !strings.HasPrefix(got, "application: "+c.name) {
			t.Errorf("%s: the board is %q, want an application named %q", c.url, got, c.name)
		}
		// Its description tells the keys.
		if got := eval[string](p, fmt.Sprintf(`(b => document.getElementById(b.getAttribute('aria-describedby').split(' ')[0]).textContent)(document.querySelector('%s'))`, c.board)); !strings.HasPrefix(got, "Arrow keys: move over the board") {
			t.Errorf("%s: the board is described as %q", c.url, got)
		}
	}
	p.checkConsole()
}

// TestBrowserKeyboardElsewhere plays by keyboard alone on the boards
// besides the game page's: a Tumbling Down lesson's step, chosen in the
// popup, and a drop and its answer on the analysis board, whose arrow keys
// then go to the board's cursor, not to the moves of its tree.
func TestBrowserKeyboardElsewhere(t *testing.T) {
	base, tabs := openTabs(t, "learner")
	p := tabs[0]
	p.goTo(base + "/learn/tumbling-down")
	p.openLesson("step")
	lesson := `.lesson[data-lesson="step"] .board`
	p.do(chromedp.Focus(chromedp.CSS(lesson)))
	if !p.keyMove(lesson, "d4-e5") {
		t.Error("the lesson's board did not ask step or tumble")
	}
	if msg := p.lessonMsg("right"); msg == "" {
		t.Error("the step was not accepted")
	}

	p.openAnalysis(base + "/analysis?game=magneton")
	an := ".analysis-board .board"
	p.do(chromedp.Focus(chromedp.CSS(an)))
	p.keyMove(an, "d4")
	p.waitFor("the drop in the tree", treeMoves+` === 1`, 10*time.Second)
	p.waitFor("the board to take the answer", `window.analysisBoard.cur.legal.length > 0 && document.querySelector('.analysis-board .board.interactive')`, 10*time.Second)
	p.keyMove(an, "e5")
	p.waitFor("the answer in the tree", treeMoves+` === 2 && document.querySelector('.an-tree .an-move[aria-current="true"]').textContent === 'e5'`, 10*time.Second)
	p.checkConsole()
}
