package e2e

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/magneton-games/magneton/game"
)

// toyBoard is the toy game's board, as its Spec gives it.
var toyBoard = game.Board{Files: 3, Ranks: 3}

// boardShape is what boardGeometry reads of a board.
type boardShape struct {
	Files   int `json:"files"`
	Ranks   int `json:"ranks"`
	Squares []struct {
		Name string  `json:"name"`
		Row  int     `json:"row"`
		Col  int     `json:"col"`
		W    float64 `json:"w"`
		H    float64 `json:"h"`
	} `json:"squares"`
	FileCoords []string `json:"fileCoords"`
	RankCoords []string `json:"rankCoords"`
}

// boardGeometry is run in the page: of the board sel, the size it says it
// has, the coordinates it writes along its edges (files left to right,
// ranks top to bottom), and for each square element its name, the cell it
// is drawn in (counted in square sizes from the board's top left corner)
// and its width and height as parts of the board's.
const boardGeometry = `(sel) => {
  const b = document.querySelector(sel);
  const br = b.getBoundingClientRect();
  const squares = [...b.querySelectorAll('.squares .sq')].map((s) => {
    const r = s.getBoundingClientRect();
    return { name: s.dataset.sq, row: Math.round((r.top - br.top) / r.height), col: Math.round((r.left - br.left) / r.width), w: r.width / br.width, h: r.height / br.height };
  });
  const coords = (cls) => [...b.querySelectorAll('.coords .coord.' + cls)].map((e) => e.textContent);
  return { files: Number(b.dataset.files), ranks: Number(b.dataset.ranks), squares, fileCoords: coords('file'), rankCoords: coords('rank') };
}`

// checkToyBoard checks that the board sel is the toy game's own: nine
// squares a1 to c3 laid out three by three, rank 1 at the bottom, each a
// third of the board wide and high, with the coordinates a to c and 1 to 3.
func checkToyBoard(t *testing.T, p *page, sel string) {
	t.Helper()
	p.waitFor("the board "+sel, fmt.Sprintf(`document.querySelector(%q)`, sel), 10*time.Second)
	g := eval[boardShape](p, fmt.Sprintf(`(%s)(%q)`, boardGeometry, sel))
	if g.Files != 3 || g.Ranks != 3 || len(g.Squares) != 9 {
		t.Fatalf("%s: a board of %dx%d with %d squares, want 3x3 with 9", sel, g.Files, g.Ranks, len(g.Squares))
	}
	seen := map[string]bool{}
	for _, s := range g.Squares {
		file, rank, ok := squareOf(toyBoard, s.Name)
		if !ok || seen[s.Name] {
			t.Errorf("%s: square element %q", sel, s.Name)
			continue
		}
		seen[s.Name] = true
		if s.Row != 2-rank || s.Col != file {
			t.Errorf("%s: %s is drawn in row %d, column %d; want row %d, column %d", sel, s.Name, s.Row, s.Col, 2-rank, file)
		}
		if math.Abs(s.W-1.0/3) > 0.01 || math.Abs(s.H-1.0/3) > 0.01 {
			t.Errorf("%s: %s is %.3f of the board wide and %.3f high, want a third", sel, s.Name, s.W, s.H)
		}
	}
	if got := strings.Join(g.FileCoords, ""); got != "abc" {
		t.Errorf("%s: the files are marked %q, want abc", sel, got)
	}
	if got := strings.Join(g.RankCoords, ""); got != "321" {
		t.Errorf("%s: the ranks are marked %q from the top, want 321", sel, got)
	}
}

// markOn is a condition: a mark of letter c is drawn in the cell of square
// sq of the board sel.
func markOn(sel, c, sq string) string {
	return fmt.Sprintf(`(() => {
		const b = document.querySelector(%q);
		const s = b.querySelector('.sq[data-sq=%q]').getBoundingClientRect();
		return [...b.querySelectorAll('.pieces .piece.mark.%s')].some((m) => {
			const r = m.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
			return x > s.left && x < s.right && y > s.top && y < s.bottom;
		});
	})()`, sel, sq, c)
}

// TestBrowserToyGame: the toy third game, internal/tictactoe, registered
// in the real server, is played in the browser against the computer to its
// end, on its own board of three by three: nine squares laid out 3x3, the
// coordinates a to c and 1 to 3, moves played by clicks on the squares
// (each mark drawn on its square), and the result shown, with the line of
// three marked when there is one. The analysis board shows the game on
// the same board, draws it as a 3x3 image and edits it; the game's lesson
// is solved on a 3x3 board too.
func TestBrowserToyGame(t *testing.T) {
	registerToyGame(t)
	bctx := browser(t)
	base := startServer(t)
	p := tab(t, bctx, "toy player")
	p.newGame(base, "tictactoe", "computer", "1", "first", "")
	if got := p.state(); got.Game != "tictactoe" || strings.Contains(got.Rules, "three-loses") {
		t.Fatalf("the game started is %q with the rules %q, want tictactoe, three in a row winning", got.Game, got.Rules)
	}
	checkToyBoard(t, p, ".game-page .board")
	if n := eval[int](p, `document.querySelectorAll('.game-page .board .piece').length`); n != 0 {
		t.Errorf("the empty board shows %d pieces", n)
	}
	s := playToyGame(t, p)
	checkToyResult(t, p, s)
	checkToyAnalysis(t, p)
	checkToyLesson(t, p, base)
	p.checkConsole()
}

// playToyGame plays the toy game by clicks on the board, b2 first, until
// it is over, and returns the last state.
func playToyGame(t *testing.T, p *page) state {
	t.Helper()
	c := &chooser{t: t}
	for ply := 0; ; ply++ {
		p.waitFor("my turn or the end", `(s => s.status === 'finished' || (s.status === 'playing' && s.seat === s.turn && s.legal.length > 0))(window.magnetonGame.state)`, 30*time.Second)
		s := p.state()
		if s.Status == "finished" {
			return s
		}
		if ply > 4 {
			t.Fatalf("no result after %d moves: %v", len(s.Moves), s.Moves)
		}
		m := c.move(s)
		if ply == 0 {
			m = "b2"
		}
		p.play(m)
		p.waitFor("the mark on "+m, markOn(".game-page .board", "x", m), 5*time.Second)
	}
}

// checkToyResult checks the result banner of the finished toy game and,
// for three in a row, the line marked on the board.
func checkToyResult(t *testing.T, p *page, s state) {
	t.Helper()
	t.Logf("game over after %d moves: %s (%s) %v", len(s.Moves), s.Result, s.Reason, s.Moves)
	p.waitFor("the result banner", `document.querySelector('.status .result')`, 5*time.Second)
	banner := eval[string](p, `document.querySelector('.status .result').textContent`)
	if s.Result == "*" || !strings.Contains(banner, s.Result) && !(s.Result == "1/2-1/2" && strings.Contains(banner, "½")) {
		t.Errorf("banner %q does not show the result %s", banner, s.Result)
	}
	reason := p.reasonShown()
	switch s.Reason {
	case "three in a row":
		if !strings.Contains(reason, "three in a row") {
			t.Errorf("the reason %q does not say three in a row", reason)
		}
		p.waitFor("the line of three", `document.querySelector('.game-page .board').dataset.end === 'three in a row' && document.querySelectorAll('.game-page .board .sq.end-line').length >= 3`, 5*time.Second)
	case "full board":
		if reason != "Draw by a full board" {
			t.Errorf("the reason %q, want Draw by a full board", reason)
		}
	default:
		t.Errorf("the game ended by %q", s.Reason)
	}
}

// checkToyAnalysis opens the finished toy game on the analysis board: the
// 3x3 board, its 3x3 image with the game's marks, and the editor, whose
// clicks write a 3x3 position the server sets up.
func checkToyAnalysis(t *testing.T, p *page) {
	t.Helper()
	p.click(`#analyse-link`)
	p.waitFor("the analysis board", `location.pathname === '/analysis' && window.analysisBoard && window.analysisBoard.cur && window.analysisBoard.cur.legal && document.querySelector('.analysis-board .board')`, 10*time.Second)
	checkToyBoard(t, p, ".analysis-board .board")
	pos := eval[string](p, `window.analysisBoard.cur.position`)
	svg := eval[string](p, captureSVG)
	marks := strings.Fields(pos)[0]
	x, o := strings.Count(marks, "x"), strings.Count(marks, "o")
	if !strings.Contains(svg, `viewBox="0 0 180 180"`) || strings.Count(svg, "<rect") != 9 || strings.Count(svg, "<line") != 2*x || strings.Count(svg, "<circle") != o {
		t.Errorf("the image of %s is not a 3x3 board with %d crosses and %d rings: %.300s", pos, x, o, svg)
	}
	p.click(".an-setup-box summary")
	p.do(chromedp.SetValue(chromedp.CSS("#an-pos"), ".../.../... x"))
	p.click("#an-edit")
	p.waitFor("the editor", `document.querySelector('.an-tool[data-tool="x"][aria-pressed="true"]')`, 5*time.Second)
	if got := eval[string](p, `[...document.querySelectorAll('.an-tool')].map((b) => b.textContent).join('|')`); got != "An X|An O|Erase" {
		t.Errorf("the editor's tools are %q", got)
	}
	p.clickSquare("b2")
	p.click("#an-edit-side")
	p.waitFor("the edited position", `document.querySelector('#an-pos').value === '.../.x./... o'`, 5*time.Second)
	p.waitFor("the edited mark", markOn(".analysis-board .board", "x", "b2"), 5*time.Second)
	p.click("#an-setup-go")
	p.waitFor("the edited position set up", `window.analysisBoard.root.position === '.../.x./... o' && document.querySelector('#an-setup-error').textContent === '' && window.analysisBoard.cur.legal.length === 8`, 10*time.Second)
}

// checkToyLesson solves the toy game's first lesson on its 3x3 board: a
// wrong mark explained and refuted by O's row, then the winning mark.
func checkToyLesson(t *testing.T, p *page, base string) {
	t.Helper()
	p.goTo(base + "/learn/tictactoe")
	p.openLesson("win")
	checkToyBoard(t, p, ".lesson .board")
	checkToyBoard(t, p, ".rules .diagram .board")
	p.boardPlay(".lesson", "a1")
	if msg := p.lessonMsg("wrong"); !strings.Contains(msg, "O makes its own row next") {
		t.Errorf("the wrong mark is explained as %q", msg)
	}
	// The refutation played on the board before the position comes back.
	p.waitFor("O's answer", `(e => e && e.textContent.includes('O answers c2 and wins'))(document.querySelector('.lesson .lesson-msg'))`, 10*time.Second)
	p.waitFor("the mark on c2", markOn(".lesson", "o", "c2"), 5*time.Second)
	p.click(".lesson .retry")
	p.openLesson("win")
	p.boardPlay(".lesson", "c3")
	if msg := p.lessonMsg("right"); !strings.Contains(msg, "c3 completes a3–c3") {
		t.Errorf("the winning mark is explained as %q", msg)
	}
	p.waitFor("the mark on c3", markOn(".lesson", "x", "c3"), 5*time.Second)
}
