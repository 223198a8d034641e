package e2e

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server"
)

// analysisTree is what the analysis board's variation tree shows: the
// record it exports.
func (p *page) analysisRecord() string {
	p.t.Helper()
	return eval[string](p, `document.querySelector('#an-record').value`)
}

// captureSVG is run in the analysis page: the image its download button
// makes, caught on its way to the download.
const captureSVG = `(() => { let out = ''; const u = URL.createObjectURL; URL.createObjectURL = (b) => { out = b; return 'blob:x'; }; HTMLAnchorElement.prototype._click = HTMLAnchorElement.prototype.click; HTMLAnchorElement.prototype.click = function () {}; document.querySelector('#an-download-svg').click(); URL.createObjectURL = u; HTMLAnchorElement.prototype.click = HTMLAnchorElement.prototype._click; return out.text(); })()`

// treeMoves counts the moves in the analysis board's tree.
const treeMoves = `document.querySelectorAll('.an-tree .an-move').length`

// openAnalysis opens the analysis board at url and waits for its board.
func (p *page) openAnalysis(url string) {
	p.t.Helper()
	p.goTo(url)
	p.waitFor("the analysis board", `window.analysisBoard && window.analysisBoard.cur && window.analysisBoard.cur.legal && document.querySelector('.analysis-board .board')`, 10*time.Second)
	// The shortest thinking time, for the tests.
	p.do(chromedp.SetValue(chromedp.CSS(`#an-time`), "300"))
}

// anPlay makes a move on the analysis board by clicks and waits for the
// tree to show it as the current move.
func (p *page) anPlay(move string, tumble bool) {
	p.t.Helper()
	if len(move) == 2 {
		p.clickSquare(move)
	} else {
		p.clickSquare(move[:2])
		p.waitFor("the selection", fmt.Sprintf(`document.querySelector('.sq[data-sq=%q]').classList.contains('selected')`, move[:2]), 5*time.Second)
		p.clickSquare(move[3:])
		if eval[bool](p, `!!document.querySelector('.chooser')`) {
			if tumble {
				p.click(".chooser .choose-tumble")
			} else {
				p.click(".chooser .choose-step")
			}
		}
	}
	p.waitFor("the move "+move+" in the tree", fmt.Sprintf(`(e => !!e && e.textContent === %q)(document.querySelector('.an-tree .an-move[aria-current="true"]')) && window.analysisBoard.cur.legal`, move), 10*time.Second)
}

// TestBrowserAnalysisVariation: on the analysis board a player plays moves
// for both sides, goes back and plays another move (a variation), sees the
// engine's evaluation from a named side's point of view and its line,
// promotes the variation to the main line, and the exported record, with
// the variation, reads back into the same tree.
func TestBrowserAnalysisVariation(t *testing.T) {
	base, tabs := openTabs(t, "analyst")
	p := tabs[0]
	p.goTo(base + "/")
	p.waitFor("the menu", `document.querySelector('.site-nav a[data-nav=analysis]')`, 10*time.Second)
	p.click(`.site-nav a[data-nav=analysis]`)
	p.waitFor("the analysis board", `location.pathname === '/analysis' && window.analysisBoard && window.analysisBoard.cur && window.analysisBoard.cur.legal`, 10*time.Second)
	p.openAnalysis(base + "/analysis?game=magneton")
	playVariation(t, p)
	checkEngineLines(t, p)
	save(t, "screenshot-analysis.png", p.capture())
	promoteAndReadBack(t, p)
	checkMagnetonEditor(t, p)
	p.checkConsole()
}

// playVariation plays d4 e5 c6 on the analysis board, goes back and plays
// c3 for Black instead: a variation, in the tree and the record.
func playVariation(t *testing.T, p *page) {
	t.Helper()
	p.anPlay("d4", false)
	p.anPlay("e5", false)
	p.anPlay("c6", false)
	p.do(chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
	p.do(chromedp.KeyEvent(kb.ArrowLeft))
	p.do(chromedp.KeyEvent(kb.ArrowLeft))
	p.waitFor("the first move", `document.querySelector('.an-tree .an-move[aria-current="true"]').textContent === 'd4'`, 5*time.Second)
	p.anPlay("c3", false)
	if got := eval[int](p, `document.querySelectorAll('.an-tree .an-variation').length`); got != 1 {
		t.Errorf("%d variations shown, want 1", got)
	}
	if got := p.analysisRecord(); !strings.Contains(got, "1. d4 e5 (1... c3) 2. c6 *") {
		t.Errorf("the record before the promotion:\n%s", got)
	}
}

// checkEngineLines checks the engine's evaluation of the position shown:
// its line, the other lines (multi-PV), each with a score and other first
// moves, every score from the first side's view, which the panel states,
// and the best move marked on the board.
func checkEngineLines(t *testing.T, p *page) {
	t.Helper()
	p.waitFor("the engine's line", `(e => !!e && e.textContent.trim().length >= 2)(document.querySelector('.analysis-out .pv-moves')) && document.querySelector('.analysis-out .best').textContent.length >= 2`, 20*time.Second)
	p.waitFor("the other lines", `(() => {
		const alts = [...document.querySelectorAll('.analysis-out .alt-line')];
		const firsts = [document.querySelector('.analysis-out .best').textContent, ...alts.map((l) => l.querySelector('.pv-moves').textContent.split(' ')[0])];
		return alts.length === 2 && alts.every((l) => l.querySelector('.score').textContent.length > 0) && new Set(firsts).size === 3;
	})()`, 20*time.Second)
	// Every score, the best line's and the alternatives', from White's
	// view, as the panel says.
	scores := eval[[]string](p, `[...document.querySelectorAll('.analysis-out .score')].map((e) => e.textContent)`)
	for _, score := range scores {
		if !(strings.HasPrefix(score, "+") || strings.HasPrefix(score, "\u2212") || strings.HasPrefix(score, "equal") || strings.Contains(score, " wins in ")) {
			t.Errorf("the score %q is not from the first side's view", score)
		}
	}
	if got := eval[string](p, `(e => e ? e.textContent : '')(document.querySelector('.analysis-out .an-view'))`); !strings.HasPrefix(got, "Scores from White's view") {
		t.Errorf("the panel states the scores' view as %q", got)
	}
	if eval[int](p, `document.querySelectorAll('.analysis-board .sq.mark').length`) == 0 {
		t.Errorf("the engine's best move is not marked on the board")
	}
}

// promoteAndReadBack promotes the variation to the main line, comments a
// move, reads the exported record back in through the set-up box (the same
// tree), and deletes the variation.
func promoteAndReadBack(t *testing.T, p *page) {
	t.Helper()
	p.click("#an-promote")
	p.waitFor("the promotion", `document.querySelector('.an-main > .an-move-wrap:nth-of-type(2) .an-move').textContent === 'c3'`, 5*time.Second)
	rec := p.analysisRecord()
	if !strings.Contains(rec, "1. d4 c3 (1... e5 2. c6) *") {
		t.Errorf("the record after the promotion:\n%s", rec)
	}
	p.do(chromedp.SendKeys(chromedp.CSS("#an-comment"), "the quiet move"))
	rec = p.analysisRecord()
	if !strings.Contains(rec, "c3 {the quiet move}") {
		t.Errorf("the comment is not in the record:\n%s", rec)
	}
	p.click(".an-setup-box summary")
	p.do(chromedp.SetValue(chromedp.CSS("#an-pos"), rec))
	p.do(chromedp.Evaluate[chromedp.Void](`window.analysisBoard.root.old = true`))
	p.click("#an-setup-go")
	p.waitFor("the record read back", `window.analysisBoard.root && !window.analysisBoard.root.old && window.analysisBoard.cur === window.analysisBoard.root && document.querySelectorAll('.an-tree .an-move').length === 4`, 10*time.Second)
	if got := p.analysisRecord(); got != rec {
		t.Errorf("the record read back is\n%s\nwant\n%s", got, rec)
	}
	p.do(chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
	p.do(chromedp.KeyEvent(kb.ArrowRight))
	p.do(chromedp.KeyEvent(kb.ArrowRight))
	p.do(chromedp.KeyEvent(kb.ArrowDown))
	p.waitFor("the variation's move", `document.querySelector('.an-tree .an-move[aria-current="true"]').textContent === 'e5'`, 5*time.Second)
	p.click("#an-delete")
	p.waitFor("the variation deleted", treeMoves+` === 2 && document.querySelector('.an-tree .an-move[aria-current="true"]').textContent === 'd4'`, 5*time.Second)
}

// checkMagnetonEditor checks Magneton's module on the analysis board: the
// editor writes back what it reads (the rules' example), a stone put down
// by it comes from its side's hand; a drop's preview shows the stones the
// magnet would pull and push where the rules' example has them, and on the
// board under the pointer; the board's image has its stone.
func checkMagnetonEditor(t *testing.T, p *page) {
	t.Helper()
	for _, pos := range []string{"8/3B2W1/1W3B2/3W4/8/6B1/2W2B2/6B1 w 8 7", "8/8/8/8/8/8/8/8 w 12 12"} {
		if got := eval[string](p, fmt.Sprintf(`(a => a.game.format(a.game.parse(%q, a.board.grid)))(window.analysisBoard)`, pos)); got != pos {
			t.Errorf("the editor writes %q back as %q", pos, got)
		}
	}
	if got := eval[string](p, `(a => a.game.format(a.game.edit(a.game.parse('8/8/8/8/8/8/8/8 w 12 12', a.board.grid), 27, 'b')))(window.analysisBoard)`); got != "8/8/8/8/3B4/8/8/8 w 12 11" {
		t.Errorf("a black stone put on d4 makes %q", got)
	}
	before, after := "8/3B2W1/1W3B2/3W4/8/6B1/2W2B2/6B1 w 8 7", "8/W2B2W1/3W4/4B3/3W4/4B1B1/2W5/6B1 b 7 7"
	got := eval[string](p, fmt.Sprintf(`(a => { const g = a.game; const p = g.parse(%q, a.board.grid); const l = g.preview(p, 'd4', ''); const b = [...p.board]; b[27] = 'w'; for (const x of l) b[x.from] = ''; for (const x of l) b[x.sq] = x.pieces[0].endsWith('w') ? 'w' : 'b'; return g.format({ ...p, board: b, side: 1, hands: [7, 7] }); })(window.analysisBoard)`, before))
	if got != after {
		t.Errorf("the preview of the drop on d4 makes %q, want %q", got, after)
	}
	xy := eval[[]float64](p, `(r => [r.left + r.width / 2, r.top + r.height / 2])(document.querySelector('.board .sq[data-sq="d6"]').getBoundingClientRect())`)
	p.do(chromedp.MouseEvent("mouseMoved", xy[0], xy[1]))
	p.waitFor("the drop's preview", `document.querySelector('.board').dataset.preview === 'd6' && (n => !!n && n.dataset.sq === 'd5' && n.textContent === 'pulled')(document.querySelector('.board .board-note.landing'))`, 5*time.Second)
	svg := eval[string](p, captureSVG)
	if !strings.HasPrefix(svg, "<svg") || strings.Count(svg, "<circle") != 1 {
		t.Errorf("the board's image has %d stones, want 1: %.200s", strings.Count(svg, "<circle"), svg)
	}
}

// TestBrowserAnalysisSetup: a position set up in the editor (a wrong one
// gets the server's message), analysed by the engine (the side to move
// wins at once: said from a named side's point of view); a tall stack's
// inspector lists its 13 disks bottom to top; a tumble's preview shows
// where each disk lands, as the position after it has them; and the
// captured King is marked when the game ends on the board.
func TestBrowserAnalysisSetup(t *testing.T) {
	base, tabs := openTabs(t, "analyst")
	p := tabs[0]
	p.openAnalysis(base + "/analysis?game=tumbling-down")
	setUpInEditor(p)
	// Black's three disks on a1 tumble onto Red's King on a4 (the rules'
	// worked example), and a mixed stack of 13 stands on h8.
	const tall = "rbrbrbrbrbrbr"
	pos := "7," + tall + "/8/8/8/rr,7/8/8/bbb,7 b"
	checkWinInOne(t, p, pos)
	checkTallStack(t, p, tall)
	checkTumblePreview(t, p)
	checkTumbleEnd(t, p, pos)
	p.checkConsole()
}

// hoverSquare moves the mouse over the centre of a square of the board.
func (p *page) hoverSquare(sq string) {
	p.t.Helper()
	xy := eval[[]float64](p, fmt.Sprintf(`(r => [r.left + r.width / 2, r.top + r.height / 2])(document.querySelector('.board .sq[data-sq=%q]').getBoundingClientRect())`, sq))
	p.do(chromedp.MouseEvent("mouseMoved", xy[0], xy[1]))
}

// setUpInEditor: a wrong position text gets the server's message; disks
// put on the board by the editor's clicks write the position's text, which
// is set up.
func setUpInEditor(p *page) {
	p.t.Helper()
	p.click(".an-setup-box summary")
	p.do(chromedp.SetValue(chromedp.CSS("#an-pos"), "not a position"))
	p.click("#an-setup-go")
	p.waitFor("the server's message", `document.querySelector('#an-setup-error').textContent.startsWith('The position is not valid:')`, 10*time.Second)
	p.do(chromedp.SetValue(chromedp.CSS("#an-pos"), "8/8/8/8/8/8/8/8 b"))
	p.click("#an-edit")
	p.waitFor("the editor", `document.querySelector('.an-tool[data-tool="b"][aria-pressed="true"]')`, 5*time.Second)
	for _, sq := range []string{"a1", "a1", "a1", "c3"} {
		p.clickSquare(sq)
	}
	p.click(`.an-tool[data-tool="x"]`)
	p.clickSquare("c3")
	p.click(`.an-tool[data-tool="r"]`)
	p.clickSquare("a4")
	p.clickSquare("a4")
	p.waitFor("the edited position", `document.querySelector('#an-pos').value === '8/8/8/8/rr,7/8/8/bbb,7 b'`, 5*time.Second)
	p.click("#an-setup-go")
	p.waitFor("the edited position set up", `window.analysisBoard.root.position === '8/8/8/8/rr,7/8/8/bbb,7 b' && !document.querySelector('.board.editing')`, 10*time.Second)
}

// checkWinInOne sets up pos, where Black wins at once: the engine says so
// from a named side's point of view, with the best move, the proof
// searches' verdict (a win in one is the shortest, said without "or
// fewer"), and the exported position.
func checkWinInOne(t *testing.T, p *page, pos string) {
	t.Helper()
	p.do(chromedp.SetValue(chromedp.CSS("#an-pos"), pos))
	p.click("#an-setup-go")
	p.waitFor("the position", fmt.Sprintf(`window.analysisBoard.root.position === %q && document.querySelector('#an-setup-error').textContent === ''`, pos), 10*time.Second)
	p.waitFor("the engine's score", `(e => !!e && e.textContent.includes('Black wins in'))(document.querySelector('.analysis-out .score'))`, 20*time.Second)
	if got := eval[string](p, `document.querySelector('.analysis-out .best').textContent`); got != "a1>a2" {
		t.Errorf("the engine's best move is %q, want a1>a2", got)
	}
	p.waitFor("the proof", `(e => !!e && e.textContent === 'Proven: Black wins in 1')(document.querySelector('.analysis-out .proven'))`, 10*time.Second)
	if got := eval[string](p, `document.querySelector('#an-export-pos').value`); got != pos {
		t.Errorf("the exported position is %q, want %q", got, pos)
	}
}

// checkTallStack: the inspector of the tall stack on h8, by the pointer
// over it, lists its disks bottom to top, and its disks stand apart, each
// band below the next.
func checkTallStack(t *testing.T, p *page, tall string) {
	t.Helper()
	p.hoverSquare("h8")
	p.waitFor("the inspector", `(e => !!e && !e.hidden && e.dataset.sq === 'h8')(document.querySelector('.inspector'))`, 5*time.Second)
	items := eval[[]string](p, `Array.from(document.querySelectorAll('.inspector .inspector-item')).map((e) => e.querySelector('.inspector-chip').classList.contains('r') ? 'r' : 'b')`)
	if strings.Join(items, "") != tall {
		t.Errorf("the inspector lists %q bottom to top, want %q", strings.Join(items, ""), tall)
	}
	if !eval[bool](p, `(() => { const d = Array.from(document.querySelectorAll('.board .piece.disk.band')); if (d.length !== 13) return false; for (let i = 1; i < d.length; i++) { if (!(d[i].getBoundingClientRect().top < d[i - 1].getBoundingClientRect().top - 2)) return false; } return true; })()`) {
		t.Errorf("the 13 disks of h8 are not drawn as 13 separate bands")
	}
}

// checkTumblePreview: with a1 selected and the pointer on a2, the tumble's
// preview shows a disk landing on each of a2, a3 and a4, each note on its
// square.
func checkTumblePreview(t *testing.T, p *page) {
	t.Helper()
	p.clickSquare("a1")
	p.waitFor("a1 selected", `document.querySelector('.sq[data-sq="a1"]').classList.contains('selected')`, 5*time.Second)
	p.hoverSquare("a2")
	p.waitFor("the preview", `document.querySelectorAll('.board .board-note.landing').length === 3`, 5*time.Second)
	if screenshots() {
		p.hoverSquare("h8") // the inspector and the preview together
		p.waitFor("the inspector", `!document.querySelector('.inspector').hidden`, 5*time.Second)
		save(t, "screenshot-inspector.png", p.capture())
		p.hoverSquare("a2")
		p.waitFor("the preview", `document.querySelectorAll('.board .board-note.landing').length === 3`, 5*time.Second)
	}
	save(t, "screenshot-preview.png", p.capture())
	preview := eval[[]string](p, `Array.from(document.querySelectorAll('.board .board-note.landing')).map((n) => n.dataset.sq + ':' + Array.from(n.querySelectorAll('.note-chip')).map((c) => c.classList.contains('r') ? 'r' : 'b').join(''))`)
	if strings.Join(preview, " ") != "a2:b a3:b a4:b" {
		t.Errorf("the preview shows %q, want a disk on each of a2, a3 and a4", preview)
	}
	if !eval[bool](p, `Array.from(document.querySelectorAll('.board .board-note.landing')).every((n) => { const a = n.getBoundingClientRect(), b = document.querySelector('.board .sq[data-sq="' + n.dataset.sq + '"]').getBoundingClientRect(); return Math.abs(a.left - b.left) < 2 && Math.abs(a.top - b.top) < 2 && Math.abs(a.width - b.width) < 2; })`) {
		t.Errorf("the preview's notes do not stand on their squares")
	}
}

// checkTumbleEnd plays the tumble a1>a2 from pos, chosen in the board's
// question (a step fits too): the position after it is the rules
// engine's, with each previewed disk on top of its square; the game is
// over, the captured King marked and the result said.
func checkTumbleEnd(t *testing.T, p *page, pos string) {
	t.Helper()
	p.clickSquare("a2")
	p.waitFor("the question", `document.querySelector('.chooser .choose-tumble')`, 5*time.Second)
	p.click(".chooser .choose-tumble")
	p.waitFor("the tumble in the tree", `(e => !!e && e.textContent === 'a1>a2')(document.querySelector('.an-tree .an-move[aria-current="true"]')) && window.analysisBoard.cur.legal`, 10*time.Second)
	after := eval[string](p, `window.analysisBoard.cur.position`)
	rules, err := games.Rules("tumbling-down", "")
	if err != nil {
		t.Fatal(err)
	}
	st, err := rules.ParsePosition(pos)
	if err != nil {
		t.Fatal(err)
	}
	want, err := st.Play("a1>a2")
	if err != nil {
		t.Fatal(err)
	}
	if after != want.String() {
		t.Errorf("the position after the tumble is %q, want %q", after, want.String())
	}
	for _, want := range []string{"a4 rrb", "a3 b", "a2 b"} {
		f := strings.Fields(want)
		got := eval[string](p, fmt.Sprintf(`(a => a.game.parse(a.cur.position, a.board.grid).board[%d])(window.analysisBoard)`, sqIndex(f[0])))
		if got != f[1] {
			t.Errorf("after the tumble %s holds %q, want %q", f[0], got, f[1])
		}
	}
	p.waitFor("the captured King", `document.querySelector('.board .sq[data-sq="a4"]').classList.contains('end-king') && document.querySelector('.board').dataset.end === 'king captured'`, 5*time.Second)
	if got := eval[string](p, `document.querySelector('.board .board-note.end-note').textContent`); got != "King captured" {
		t.Errorf("the note on the King reads %q", got)
	}
	if got := eval[string](p, `document.querySelector('.an-result').textContent`); !strings.Contains(got, "Black wins") {
		t.Errorf("the result reads %q", got)
	}
}

// sqIndex numbers a square as notation.js does (a1 = 0, a2 = 1, b1 = 8).
func sqIndex(s string) int { return int(s[0]-'a')*8 + int(s[1]-'1') }

// blunderGame finds, by random Magneton games from a fixed seed, a short
// game whose mover at ply k could win at once but plays a move after
// which the opponent wins at once, which the opponent then does: the
// review must call move k a blunder, and the game ends with a line. It
// returns the moves and k.
func blunderGame(t *testing.T) ([]string, int) {
	t.Helper()
	rules, err := games.Rules("magneton", "")
	if err != nil {
		t.Fatal(err)
	}
	winsAt := func(s game.State) string {
		for _, m := range s.Moves() {
			next, err := s.Play(m)
			if err != nil {
				continue
			}
			if res, _ := next.Outcome(); res.Over() {
				return m
			}
		}
		return ""
	}
	for seed := uint64(1); seed < 5000; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		s := rules.Start()
		var moves []string
		for ply := 0; ply < 18; ply++ {
			if res, _ := s.Outcome(); res.Over() {
				break
			}
			if ply >= 4 && winsAt(s) != "" {
				for _, m := range s.Moves() {
					next, _ := s.Play(m)
					if res, _ := next.Outcome(); res.Over() {
						continue
					}
					if w := winsAt(next); w != "" {
						return append(moves, m, w), len(moves)
					}
				}
				break
			}
			m, ok := s.RandomMove(rng)
			if !ok {
				break
			}
			s, _ = s.Play(m)
			moves = append(moves, m)
		}
	}
	t.Fatal("no game with a blunder found")
	return nil, 0
}

// TestBrowserGameReview: two people play a known game of Magneton that
// ends with a line; both boards mark the line of four and the stone the
// magnet moved into it; the review, asked for once the game is over,
// shows its progress, then an evaluation graph, the blunder marked ?? in
// the move list with the better move, and each side's counts; a later
// visitor sees the review and may open the game on the analysis board.
func TestBrowserGameReview(t *testing.T) {
	moves, k := blunderGame(t)
	t.Logf("the game: %v; the blunder: move %d, %s", moves, k+1, moves[k])
	bctx := browser(t)
	srv := serve(t, filepath.Join(t.TempDir(), "games.db"), "127.0.0.1:0", func(c *server.Config) {
		c.ReviewMoveTime = 60 * time.Millisecond
	})
	base := srv.url
	a, b, w := tab(t, bctx, "White"), tab(t, bctx, "Black"), tab(t, bctx, "visitor")
	id := invite(base, a, b, "magneton", "")
	playKnownGame(t, moves, a, b)
	s := a.state()
	if s.Status != "finished" || s.Reason != "line" || s.Result != "0-1" && s.Result != "1-0" {
		t.Fatalf("the game ended %s %s (%s)", s.Status, s.Result, s.Reason)
	}
	for _, p := range []*page{a, b} {
		checkWinningLine(t, p, moves, s.Result)
	}
	checkReview(t, a, moves, k)
	if screenshots() {
		a.do(chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, document.body.scrollHeight)`))
		save(t, "screenshot-review.png", a.capture())
	}
	// A visitor replaying the game sees the review, and may analyse it.
	w.goTo(base + "/g/" + id)
	w.waitFor("the review", `document.querySelector('.review .eval-chart') && document.querySelectorAll('.moves .mv[data-class]').length > 0`, 10*time.Second)
	w.click("#analyse-link")
	w.waitFor("the analysis board", fmt.Sprintf(`location.pathname === '/analysis' && window.analysisBoard && window.analysisBoard.cur && document.querySelectorAll('.an-tree .an-move').length === %d`, len(moves)), 10*time.Second)
	for _, p := range []*page{a, b, w} {
		p.checkConsole()
	}
}

// playKnownGame plays moves by clicks, a moving first: no analysis is
// offered during the game; a move the server refuses shows its message
// off the board and off the player's own bar; the newest move stays in
// view in the other's move list.
func playKnownGame(t *testing.T, moves []string, a, b *page) {
	t.Helper()
	for i, m := range moves {
		mover, other := a, b
		if i%2 == 1 {
			mover, other = b, a
		}
		mover.waitFor("my turn", fmt.Sprintf(`window.magnetonGame.state.moves.length === %d && window.magnetonGame.state.turn === window.magnetonGame.state.seat && document.querySelector('.board.interactive')`, i), 10*time.Second)
		if i == 2 && eval[bool](mover, `!!document.querySelector('#analyse-link')`) {
			t.Errorf("the game page offers the analysis board during the game")
		}
		if i == 0 {
			mover.do(chromedp.SendKeys(chromedp.CSS("#move-input"), "a1-a2\n"))
			mover.waitFor("the error", `document.querySelector('.toast.error')`, 10*time.Second)
			if got := eval[string](mover, overlaps); got != "" {
				t.Errorf("the error message covers %s", got)
			}
			mover.do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('.toast').forEach((e) => e.remove())`))
			mover.waitFor("the board to take moves again", `document.querySelector('.board.interactive')`, 5*time.Second)
		}
		mover.play(m)
		other.waitFor("the move", fmt.Sprintf(`window.magnetonGame.state.moves.length === %d`, i+1), 10*time.Second)
		other.waitFor("the newest move in view", `(() => { const box = document.querySelector('.moves'), mv = Array.from(box.querySelectorAll('.mv')).pop(); const b = box.getBoundingClientRect(), r = mv.getBoundingClientRect(); return r.bottom <= b.bottom + 1 && r.top >= b.top - 1; })()`, 5*time.Second)
	}
}

// checkWinningLine checks that p's board marks the winning line of the
// Magneton game of moves (won with result), with the stone the magnet moved
// into it and its note: every marked square holds the winner's stone.
func checkWinningLine(t *testing.T, p *page, moves []string, result string) {
	t.Helper()
	rules, _ := games.Rules("magneton", "")
	g := game.NewGame(rules.Start())
	for _, m := range moves {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	p.waitFor("the winning line", `document.querySelectorAll('.board .sq.end-line, .board .sq.end-moved').length >= 4 && document.querySelectorAll('.board .sq.end-moved').length >= 1 && document.querySelector('.board').dataset.end === 'line'`, 5*time.Second)
	marked := eval[[]string](p, `Array.from(document.querySelectorAll('.board .sq.end-line, .board .sq.end-moved')).map((e) => e.dataset.sq)`)
	winner := "W"
	if result == "0-1" {
		winner = "B"
	}
	board := strings.Fields(g.Position().String())[0]
	for _, sq := range marked {
		if c := stoneAt(board, sq); c != winner {
			t.Errorf("%s: the marked square %s holds %q, not the winner's stone", p.name, sq, c)
		}
	}
	if got := eval[string](p, `document.querySelector('.board .board-note.end-note').textContent`); got != "pushed" && got != "pulled" {
		t.Errorf("%s: the moved stone's note reads %q", p.name, got)
	}
}

// checkReview asks, in a's page, for the review of the finished game of
// moves: the graph, the blunder (move k) marked ?? with a better move than
// the one played, and the blunder counted for its side.
func checkReview(t *testing.T, a *page, moves []string, k int) {
	t.Helper()
	a.waitFor("the review button", `document.querySelector('#request-review')`, 10*time.Second)
	a.click("#request-review")
	a.waitFor("the review", `document.querySelector('.review .eval-chart')`, 60*time.Second)
	a.waitFor("the marks", `document.querySelectorAll('.moves .mv[data-class]').length > 0`, 5*time.Second)
	blunder := fmt.Sprintf(`document.querySelector('.moves .mv[data-ply="%d"]')`, k+1)
	if got := eval[string](a, blunder+`.dataset.class`); got != "blunder" {
		t.Errorf("move %d %s is marked %q, want blunder", k+1, moves[k], got)
	}
	if got := eval[string](a, blunder+`.querySelector('.glyph').textContent`); got != "??" {
		t.Errorf("the blunder's mark is %q", got)
	}
	a.click(fmt.Sprintf(`.moves .mv[data-ply="%d"]`, k+1))
	a.waitFor("the better move", `(e => !!e && e.textContent.length >= 2)(document.querySelector('.review-note .better'))`, 5*time.Second)
	if got := eval[string](a, `document.querySelector('.review-note .better').textContent`); got == moves[k] {
		t.Errorf("the better move is the move played, %s", got)
	}
	mover := k % 2
	if got := eval[string](a, fmt.Sprintf(`document.querySelector('.review-counts tr[data-side="%d"] .blunders').textContent`, mover)); got == "0" || got == "" {
		t.Errorf("the counts give side %d %q blunders", mover, got)
	}
}

// overlaps names what of the board and the player's own bar (the bottom
// one) the page's toasts cover, or "".
const overlaps = `(() => {
	const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
	const out = [];
	for (const t of document.querySelectorAll('.toast')) {
		const r = t.getBoundingClientRect();
		for (const [name, q] of [['the board', '.board'], ['the own bar', '.player.bottom']]) {
			const e = document.querySelector(q);
			if (e && hit(r, e.getBoundingClientRect()) && !out.includes(name)) out.push(name);
		}
	}
	return out.join(' and ');
})()`

// stoneAt reads a Magneton board text's stone on a square: "W", "B" or "".
func stoneAt(board, sq string) string {
	ranks := strings.Split(board, "/")
	row := ranks[7-int(sq[1]-'1')]
	f := 0
	for _, c := range row {
		if c >= '1' && c <= '8' {
			f += int(c - '0')
			continue
		}
		if f == int(sq[0]-'a') {
			return string(c)
		}
		f++
	}
	return ""
}
