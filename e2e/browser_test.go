package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

// chromiumPath is Debian's Chromium, which CI installs.
const chromiumPath = "/usr/bin/chromium"

// browser starts a headless Chromium with a fresh profile and returns its
// context; tabs made from it with tab share the browser.
func browser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("the browser tests need Chromium at %s (apt-get install chromium)", chromiumPath)
	}
	profile := t.TempDir()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 860),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	bctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return bctx
}

// page is one browser tab with its own cookies (a person at their computer).
type page struct {
	t    *testing.T
	name string
	ctx  context.Context

	phone bool // a touch screen: squares are tapped, not clicked

	// choosing, if set, is called while the board's step/tumble chooser
	// is open, before play picks in it (the phone tests measure it).
	choosing func()

	mu   sync.Mutex
	errs []string
}

// asPhone turns the tab into a phone: a touch screen of 390 × 844 CSS
// pixels held upright, the size the phone layouts are designed for.
func (p *page) asPhone() {
	p.t.Helper()
	p.phone = true
	p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
}

// tab opens a tab in a new browser context, so that its cookies (the seat)
// are its own, and collects the page's console errors and exceptions.
func tab(t *testing.T, bctx context.Context, name string) *page {
	t.Helper()
	p := &page{t: t, name: name}
	listener := func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				p.addErr("console.error: " + strings.Join(parts, " "))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			p.addErr(fmt.Sprintf("exception: %s (%s:%d)", msg, d.URL, d.LineNumber))
		}
	}
	ctx, cancel := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext(), chromedp.WithListener(listener))
	t.Cleanup(cancel)
	p.ctx = ctx
	// The first run opens the tab, which lives as long as the context it is
	// given: so give it ctx itself, not a child with a time limit.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 860)); err != nil {
		t.Fatalf("%s: open a tab: %v", name, err)
	}
	// What the Content-Security-Policy blocks is an error too.
	if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: cspWatch}); err != nil {
		t.Fatalf("%s: watch the security policy: %v", name, err)
	}
	return p
}

// cspWatch reports each violation of the page's security policy as a
// console error.
const cspWatch = `document.addEventListener('securitypolicyviolation', (e) =>
	console.error('Content-Security-Policy blocked ' + e.blockedURI + ' (' + e.violatedDirective + ')'));`

func (p *page) addErr(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.errs = append(p.errs, s)
}

// checkConsole fails the test if the page logged an error or threw.
func (p *page) checkConsole() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.errs {
		p.t.Errorf("%s: %s", p.name, e)
	}
}

func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("%s: %v", p.name, err)
	}
}

// eval evaluates a JavaScript expression in the page, waiting for it if it
// is a promise, and decodes its value.
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	v, err := tryEval[T](p, expr)
	if err != nil {
		p.t.Fatalf("%s: evaluate %s: %v", p.name, expr, err)
	}
	return v
}

func tryEval[T any](p *page, expr string) (T, error) {
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
}

// navigating reports whether an evaluation failed only because the page was
// loading another document at that moment (a link just clicked): the
// condition could not be read yet, which is not a failure.
func navigating(err error) bool {
	msg := err.Error()
	for _, s := range []string{"navigated or closed", "Execution context was destroyed", "Cannot find context with specified id"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// waitFor polls a JavaScript condition until it is true. It may be called
// while the page is still following a link.
func (p *page) waitFor(what, cond string, timeout time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		ok, err := tryEval[bool](p, "!!("+cond+")")
		if err != nil && !navigating(err) {
			p.t.Fatalf("%s: waiting for %s: evaluate %s: %v", p.name, what, cond, err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			where, _ := tryEval[string](p, `location.pathname + location.hash + ': ' + (document.querySelector('#app') || document.body).innerText.slice(0, 300)`)
			p.t.Fatalf("%s: timed out after %v waiting for %s (%s); the page: %q", p.name, timeout, what, cond, where)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// state is the part of the server's state object the tests read.
type state struct {
	ID     string   `json:"id"`
	Game   string   `json:"game"`
	Rules  string   `json:"rules"`
	Seat   *int     `json:"seat"`
	Status string   `json:"status"`
	Start  string   `json:"start"`
	Moves  []string `json:"moves"`
	Turn   int      `json:"turn"`
	Legal  []string `json:"legal"`
	Result string   `json:"result"`
	Reason string   `json:"reason"`
}

// state returns the state the game page last received.
func (p *page) state() state {
	p.t.Helper()
	return eval[state](p, `(window.magnetonGame && window.magnetonGame.state) || {}`)
}

func (p *page) goTo(url string) {
	p.t.Helper()
	p.do(chromedp.Navigate(url))
}

// openArchive opens the archive page, a page that loads the front end's
// modules without a game of its own, and waits for its table.
func (p *page) openArchive(base string) {
	p.t.Helper()
	p.goTo(base + "/#/archive")
	p.waitFor("the archive", `document.querySelector('table.games')`, 10*time.Second)
}

func (p *page) click(css string) {
	p.t.Helper()
	for attempt := 1; ; attempt++ {
		ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
		err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(css), chromedp.NodeVisible))
		cancel()
		if err == nil {
			return
		}
		// The page may replace the node between the query and the mouse
		// events (a re-render on a server message); the click never
		// reached it, so finding it again is safe.
		if attempt < 3 && strings.Contains(err.Error(), "Could not find node") {
			p.t.Logf("%s: click %s: %v; again", p.name, css, err)
			continue
		}
		p.t.Fatalf("%s: click %s: %v", p.name, css, err)
	}
}

// clickSquare clicks a square of the board.
func (p *page) clickSquare(sq string) {
	p.t.Helper()
	p.press(fmt.Sprintf(`.board .sq[data-sq=%q]`, sq))
}

// press clicks an element of the page, or on a phone taps it.
func (p *page) press(css string) {
	p.t.Helper()
	if !p.phone {
		p.click(css)
		return
	}
	// Found, scrolled to and measured in one evaluation: the page may draw
	// the element anew at any server message, and a node found by one
	// command may be gone by the next. It is measured once it stands
	// still for a frame (at most 60 frames): the engine's lines, growing
	// above the analysis board's explorer, moved a button between its
	// measure and the tap on a loaded machine.
	p.waitFor(css, fmt.Sprintf(`document.querySelector(%q)`, css), 20*time.Second)
	xy := eval[[]float64](p, fmt.Sprintf(`new Promise((resolve) => {
		const at = () => { const e = document.querySelector(%q); if (!e) return null; e.scrollIntoView({ block: 'nearest', inline: 'nearest' }); return e.getBoundingClientRect(); };
		let last = at(), frames = 0;
		const same = (a, b) => a && b && a.left === b.left && a.top === b.top && a.width === b.width && a.height === b.height;
		const step = () => {
			const r = at();
			if (r && (same(r, last) || ++frames > 60)) resolve([r.left + r.width / 2, r.top + r.height / 2]);
			else { last = r; requestAnimationFrame(step); }
		};
		requestAnimationFrame(step);
	})`, css))
	p.do(chromedp.TapXY(xy[0], xy[1]))
}

// play makes a move with the mouse, as a person would: a drop is one click,
// a move a click on the piece and one on the target; when a Tumbling Down
// step and tumble share the target, it picks one in the popup. It waits for
// the server's new state.
func (p *page) play(move string) {
	p.t.Helper()
	p.playWith(move, false)
}

// drag makes a move by dragging the piece to its target with the mouse.
func (p *page) drag(move string) {
	p.t.Helper()
	p.playWith(move, true)
}

func (p *page) playWith(move string, drag bool) {
	p.t.Helper()
	before := len(p.state().Moves)
	if len(move) == 2 {
		p.clickSquare(move)
	} else {
		from, to := move[:2], move[3:]
		if drag {
			sq := func(s string) chromedp.CSS { return chromedp.CSS(fmt.Sprintf(`.board .sq[data-sq=%q]`, s)) }
			p.do(chromedp.DragAndDrop(sq(from), sq(to)))
		} else {
			p.clickSquare(from)
			p.waitFor("the piece on "+from+" to be selected", fmt.Sprintf(`document.querySelector('.sq[data-sq=%q]').classList.contains('selected')`, from), 5*time.Second)
			p.clickSquare(to)
		}
		if eval[bool](p, `!!document.querySelector('.chooser')`) {
			if p.choosing != nil {
				p.choosing()
			}
			if move[2] == '>' {
				p.press(".chooser .choose-tumble")
			} else {
				p.press(".chooser .choose-step")
			}
		}
	}
	p.waitFor("the move "+move+" to be played", fmt.Sprintf(`window.magnetonGame.state.moves.length > %d`, before), 10*time.Second)
}

// chooser picks the tests' moves with the project's own engine, so that a
// game against the computer ends soon.
type chooser struct {
	t      *testing.T
	player ai.Player
	quiet  int // play this many first moves with "greedy" (safe but aimless), for a game with some history
	played int
}

func (c *chooser) move(s state) string {
	c.t.Helper()
	rules, err := games.Rules(s.Game, s.Rules)
	if err != nil {
		c.t.Fatalf("rules %q: %v", s.Rules, err)
	}
	start, err := rules.ParsePosition(s.Start)
	if err != nil {
		c.t.Fatalf("start %q: %v", s.Start, err)
	}
	g := game.NewGame(start)
	for _, m := range s.Moves {
		if err := g.Play(m); err != nil {
			c.t.Fatalf("replay %v: %v", s.Moves, err)
		}
	}
	player := c.player
	if c.played++; c.played <= c.quiet {
		if player, err = games.NewPlayer("greedy", rules, ai.Config{}); err != nil {
			c.t.Fatal(err)
		}
	} else if player == nil {
		if player, err = games.NewPlayer("alphabeta", rules, ai.Config{}); err != nil {
			c.t.Fatal(err)
		}
		c.player = player
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	m, err := player.Move(ctx, g, ai.Limits{MoveTime: 40 * time.Millisecond, Depth: 4})
	if err != nil {
		c.t.Fatalf("choose a move: %v", err)
	}
	return m
}

// screenshots reports whether the tests should write docs/screenshot-*.png
// (UPDATE_SCREENSHOTS=1 go test ./e2e -run Browser).
func screenshots() bool { return os.Getenv("UPDATE_SCREENSHOTS") != "" }

// capture takes a picture of the page once the last move's animation is
// over; nil unless screenshots are wanted.
func (p *page) capture() []byte {
	p.t.Helper()
	if !screenshots() {
		return nil
	}
	time.Sleep(900 * time.Millisecond)
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('.toast').forEach(e => e.remove())`))
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	return buf
}

// save writes a picture taken by capture to docs/.
func save(t *testing.T, name string, png []byte) {
	t.Helper()
	if png == nil {
		return
	}
	path := filepath.Join("..", "docs", name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", path)
}

// reasonShown returns the sentence under the result banner.
func (p *page) reasonShown() string {
	p.t.Helper()
	p.waitFor("the result banner", `document.querySelector('.status .result .reason')`, 5*time.Second)
	return eval[string](p, `document.querySelector('.status .result .reason').textContent`)
}

// checkRecordLinks checks that the game page offers one download link per
// record format the server's meta lists for the game, in its order, each
// fetching that format.
func (p *page) checkRecordLinks(s state) {
	p.t.Helper()
	want := eval[[]string](p, fmt.Sprintf(`fetch('/api/meta').then((r) => r.json()).then((m) => m.games.find((g) => g.name === %q).formats.map((f) => f.name))`, s.Game))
	p.waitFor("the download links", `document.querySelector('.links a[download]')`, 5*time.Second)
	got := eval[[]string](p, `Array.from(document.querySelectorAll('.links a[download]')).map((a) => new URL(a.href).searchParams.get('format'))`)
	if strings.Join(got, ",") != strings.Join(want, ",") || len(want) == 0 {
		p.t.Errorf("%s: the download links fetch the formats %q; the meta lists %q", p.name, got, want)
	}
}

// levelRating returns a computer level's approximate rating in a game, as
// the server's meta gives it.
func levelRating(t *testing.T, base, gameName, level string) int {
	t.Helper()
	resp, err := http.Get(base + "/api/meta")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var meta struct {
		Games []struct {
			Name         string
			Aliases      []string
			LevelRatings []int `json:"level_ratings"`
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&meta); err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(level)
	for _, g := range meta.Games {
		if (g.Name == gameName || slices.Contains(g.Aliases, gameName)) && n >= 1 && n <= len(g.LevelRatings) {
			return g.LevelRatings[n-1]
		}
	}
	t.Fatalf("no rating of level %s of %s in the meta", level, gameName)
	return 0
}

// openTabs starts a server and a browser with a tab of each name.
func openTabs(t *testing.T, names ...string) (string, []*page) {
	t.Helper()
	bctx := browser(t)
	base := startServer(t)
	var tabs []*page
	for _, n := range names {
		tabs = append(tabs, tab(t, bctx, n))
	}
	return base, tabs
}

// newGame fills in the home page's form and starts the game.
func (p *page) newGame(base, gameName, opponent, level, color, clock string) {
	p.t.Helper()
	p.goTo(base + "/")
	p.waitFor("the new-game form", `document.querySelector('#start')`, 10*time.Second)
	p.click(fmt.Sprintf(`[data-name=game] input[value=%q] + label`, gameName))
	p.click(fmt.Sprintf(`[data-name=opponent] input[value=%q] + label`, opponent))
	if level != "" {
		p.click(fmt.Sprintf(`[data-name=level] input[value=%q] + label`, level))
		// The level's approximate rating, from the meta, under the picker.
		want := fmt.Sprintf("about %d", levelRating(p.t, base, gameName, level))
		// (Its words are checked in English.)
		p.waitFor("the level's rating", fmt.Sprintf(`(e => !!e && (document.documentElement.lang !== 'en' || e.textContent.startsWith('Level %s') && e.textContent.includes(%q)))(document.querySelector('.level-rating'))`, level, want), 10*time.Second)
	}
	p.click(fmt.Sprintf(`[data-name=color] input[value=%q] + label`, color))
	if clock != "" {
		p.do(chromedp.SetValue(chromedp.CSS(`#clock`), clock))
		p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#clock').dispatchEvent(new Event('change'))`))
	}
	p.click(`#start`)
	p.waitFor("the game page", `location.pathname.startsWith('/g/') && window.magnetonGame && window.magnetonGame.state`, 10*time.Second)
}

// TestBrowserGameAgainstComputer plays a whole game of Tumbling Down against
// the computer at level 1 by clicking on the board, until the result banner
// shows; then replays it with the keyboard and opens the analysis view.
func TestBrowserGameAgainstComputer(t *testing.T) {
	bctx := browser(t)
	base := startServer(t)
	p := tab(t, bctx, "player")
	p.newGame(base, "tumbling-down", "computer", "1", "first", "")
	checkFirstTurn(t, p)
	s := playAgainstComputer(t, p)
	checkResultShown(t, p, s)
	p.checkRecordLinks(s)
	checkReplayAndRecords(t, p, s)
	checkArchiveAndAnalysis(t, p, base, s)

	// A rematch against the computer starts at once, colours swapped.
	p.goTo(base + "/g/" + s.ID)
	p.waitFor("the finished game", `window.magnetonGame && window.magnetonGame.state && document.querySelector('#rematch')`, 10*time.Second)
	p.click("#rematch")
	p.waitFor("the rematch", fmt.Sprintf(`window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.id !== %q && window.magnetonGame.state.seat === %d && window.magnetonGame.state.status === 'playing'`, s.ID, 1-*s.Seat), 10*time.Second)
	p.checkConsole()
}

// checkFirstTurn checks, on the first player's first turn of Tumbling Down
// against the computer: the link to the rules; a move the rules refuse,
// typed in the move box, gets the server's error and the board still takes
// moves; the player bars show the Kings; the first player (Black, whose
// disks start in the upper half) sees the board turned round, and f flips
// it.
func checkFirstTurn(t *testing.T, p *page) {
	t.Helper()
	p.waitFor("my first turn", `(s => s.status === 'playing' && s.seat === s.turn && s.legal.length > 0)(window.magnetonGame.state)`, 10*time.Second)
	// Every game page leads to its game's rules and lessons.
	p.waitFor("the rules link", `(l => !!l && l.getAttribute('href') === '/learn/' + window.magnetonGame.state.game)(document.querySelector('.status .rules-link'))`, 5*time.Second)
	p.do(chromedp.SendKeys(chromedp.CSS("#move-input"), "h8-h7\n"))
	p.waitFor("the error message", `document.querySelector('.toast.error') && document.querySelector('.toast.error').textContent.includes('h8')`, 10*time.Second)
	p.waitFor("the board to take moves again", `document.querySelector('.board.interactive')`, 5*time.Second)
	if got := eval[[]string](p, `['.player.bottom .hand', '.player.top .hand'].map((q) => document.querySelector(q).textContent)`); strings.Join(got, "|") != "♛4 · a8|♛4 · h1" {
		t.Errorf("the player bars show %q, want Black's King on a8 and Red's on h1", got)
	}
	corner := `(() => { const b = document.querySelector('.board').getBoundingClientRect(), s = document.querySelector('.board .sq[data-sq="a8"]').getBoundingClientRect();
		return (s.left - b.left < b.width / 2 ? 'left' : 'right') + ' ' + (s.top - b.top < b.height / 2 ? 'top' : 'bottom'); })()`
	if got := eval[string](p, corner); got != "right bottom" {
		t.Errorf("a8 is at the %s of Black's board, want right bottom", got)
	}
	p.do(chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`)) // the key goes to the page, not the move box
	p.do(chromedp.KeyEvent("f"))
	p.waitFor("the board flipped", corner+` === 'left top'`, 5*time.Second)
	p.do(chromedp.KeyEvent("f"))
	p.waitFor("the board flipped back", corner+` === 'right bottom'`, 5*time.Second)
}

// playAgainstComputer plays the game to its end with the engine's moves,
// the first by a drag, the others by clicks, and returns the last state.
func playAgainstComputer(t *testing.T, p *page) state {
	t.Helper()
	c := &chooser{t: t}
	if screenshots() {
		c.quiet = 6 // a picture of a game with some history
	}
	var shot []byte // the last position with the game still going, up to move 16
	for ply := 0; ; ply++ {
		s, over := p.myTurn(ply)
		if over {
			break
		}
		if ply >= 3 && ply <= 7 {
			shot = p.capture()
		}
		if ply == 0 {
			p.drag(c.move(s))
		} else {
			p.play(c.move(s))
		}
	}
	save(t, "screenshot-tumbling.png", shot)
	s := p.state()
	t.Logf("game over after %d moves: %s (%s)", len(s.Moves), s.Result, s.Reason)
	if s.Result == "*" || s.Reason == "" {
		t.Errorf("finished without a result: %+v", s)
	}
	return s
}

// myTurn waits for the player's turn, or the end of the game, in a game
// against the computer; it returns the state and whether the game is over.
// It fails the test when ply, the player's moves so far, is too many.
func (p *page) myTurn(ply int) (state, bool) {
	p.t.Helper()
	p.waitFor("my turn or the end", `(s => s.status === 'finished' || (s.status === 'playing' && s.seat === s.turn && s.legal.length > 0))(window.magnetonGame.state)`, 30*time.Second)
	s := p.state()
	if s.Status != "finished" && ply > 120 {
		p.t.Fatalf("%s: no result after %d moves: %v", p.name, len(s.Moves), s.Moves)
	}
	return s, s.Status == "finished"
}

// checkResultShown checks the result banner of a finished Tumbling Down
// game: the result, and the reason in words: the meta's text of the
// ending, or the game's own sentence for the endings about one's own King.
func checkResultShown(t *testing.T, p *page, s state) {
	t.Helper()
	p.waitFor("the result banner", `document.querySelector('.status .result')`, 5*time.Second)
	banner := eval[string](p, `document.querySelector('.status .result').textContent`)
	if !strings.Contains(banner, s.Result) && !(s.Result == "1/2-1/2" && strings.Contains(banner, "½")) {
		t.Errorf("banner %q does not show the result %s", banner, s.Result)
	}
	why := eval[string](p, fmt.Sprintf(`fetch('/api/meta').then((r) => r.json()).then((m) => m.games.find((g) => g.name === %q).endings.find((e) => e.word === %q).text)`, s.Game, s.Reason))
	switch reason := p.reasonShown(); s.Reason {
	case "own king captured":
		if !strings.Contains(reason, "own King ·") {
			t.Errorf("the reason %q does not say whose own King was covered", reason)
		}
	case "no king":
		if !strings.Contains(reason, "no King left ·") {
			t.Errorf("the reason %q does not say who has no King left", reason)
		}
	default:
		if !strings.Contains(reason, why) {
			t.Errorf("the reason %q does not hold the meta's text %q of the ending %q", reason, why, s.Reason)
		}
	}
}

// checkReplayAndRecords replays a finished game with the keys (Home goes
// to the start, ArrowRight one move on) and reads its record as the
// download links fetch it: PGN and, for Tumbling Down, SGF.
func checkReplayAndRecords(t *testing.T, p *page, s state) {
	t.Helper()
	p.do(chromedp.KeyEvent(kb.Home))
	p.waitFor("the start position", `document.querySelectorAll('.mv[aria-current="true"]').length === 0`, 5*time.Second)
	p.do(chromedp.KeyEvent(kb.ArrowRight))
	p.waitFor("the first move", `document.querySelector('.mv[aria-current="true"]') && document.querySelector('.mv[aria-current="true"]').dataset.ply === '1'`, 5*time.Second)
	for _, f := range []struct{ format, want string }{{"pgn", s.Moves[0]}, {"sgf", "GM[33]"}} {
		href := eval[string](p, fmt.Sprintf(`document.querySelector('a[href$="format=%s"]').getAttribute('href')`, f.format))
		text := eval[string](p, fmt.Sprintf(`fetch(%q).then(r => r.text())`, href))
		if !strings.Contains(text, f.want) {
			t.Errorf("the %s record does not hold %q:\n%s", f.format, f.want, text)
		}
	}
}

// checkArchiveAndAnalysis finds the finished game in the archive, whose
// row opens the replay, goes one move back and opens the analysis view of
// that position: the engine's score and best move.
func checkArchiveAndAnalysis(t *testing.T, p *page, base string, s state) {
	t.Helper()
	p.goTo(base + "/#/archive")
	p.waitFor("the game in the archive", fmt.Sprintf(`document.querySelector('table.games a[href="/g/%s"]')`, s.ID), 10*time.Second)
	p.click(fmt.Sprintf(`table.games a[href="/g/%s"]`, s.ID))
	p.waitFor("the finished game", fmt.Sprintf(`window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'finished' && document.querySelectorAll('.moves .mv').length === %d`, len(s.Moves)), 10*time.Second)
	p.do(chromedp.KeyEvent(kb.ArrowLeft))
	p.waitFor("one move back", fmt.Sprintf(`document.querySelector('.mv[aria-current="true"]').dataset.ply === '%d'`, len(s.Moves)-1), 5*time.Second)
	p.click(`#analyse-link`)
	p.waitFor("the analysis", `location.pathname === '/analysis' && document.querySelector('.analysis-out .score') && document.querySelector('.analysis-out .best').textContent.length >= 2`, 15*time.Second)
}
