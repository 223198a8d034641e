package e2e

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

// boardCase is a position of one game with what stands on its squares, as
// the position text says it (bottom to top for Tumbling Down's stacks), and
// the CSS selector of the game's pieces (not its badges and rings).
type boardCase struct {
	game     string
	position string
	contents map[string]string
	piece    string
}

var boardCases = []boardCase{
	{"magneton", "8/W1BB2W1/3W4/8/1B1W4/4B1B1/2W5/6B1 w 3 3", map[string]string{
		"a7": "w", "c7": "b", "d7": "b", "g7": "w", "d6": "w", "b4": "b", "d4": "w",
		"e3": "b", "g3": "b", "c2": "w", "g1": "b",
	}, ".piece.stone"},
	{"tumbling-down", "6,b,1/7,rrr/8/8/8/8/rb,7/1,b,r,5 r", map[string]string{
		"g8": "b", "h7": "rrr", "a2": "rb", "b1": "b", "c1": "r",
	}, ".piece.disk"},
}

// mountBoard is run in the page: it draws a position on a board of its
// own, fixed at the top left of the page, through the game's module (by
// the loader), with the legal moves so that it takes clicks; the moves it
// sends collect in window.testMoves.
const mountBoard = `async ({game, position, legal, orientation}) => {
  const [{ loadGame }, { Board }] = await Promise.all([import('/js/games.js'), import('/js/board.js')]);
  const mod = await loadGame(game);
  document.querySelector('#test-board')?.remove();
  const box = document.createElement('div');
  box.id = 'test-board';
  box.style.cssText = 'position: fixed; left: 10px; top: 10px; width: 480px; z-index: 50000';
  document.body.append(box);
  window.testMoves = [];
  window.testBoard = new Board(box, { game: mod, orientation, onMove: (m) => window.testMoves.push(m) });
  await window.testBoard.set(position, { legal });
  return true;
}`

// readBoard is run in the page: for every square element of the test
// board, its name, the row and column of the screen it is drawn in, the
// square the board finds under its centre, whether it takes a click, and
// the colours of the pieces drawn in that cell (bottom first; the piece's
// bottom edge tells its cell, since a disk is raised less than a square):
// the pieces are those of the selector piece, their colours the letters.
const readBoard = `({letters, piece}) => {
  const b = window.testBoard;
  const br = b.root.getBoundingClientRect();
  const w = br.width / b.grid.files, ht = br.height / b.grid.ranks;
  const at = (x, y) => [Math.floor((y - br.top) / ht), Math.floor((x - br.left) / w)];
  const pieces = new Map();
  for (const p of b.root.querySelectorAll('.pieces ' + piece)) {
    const colour = letters.find((l) => p.classList.contains(l)) || '?';
    const r = p.getBoundingClientRect();
    const key = at(r.left + 1, r.bottom - 1).join(',');
    pieces.set(key, (pieces.get(key) || '') + colour);
  }
  return [...b.root.querySelectorAll('.sq')].map((s) => {
    const r = s.getBoundingClientRect();
    const [row, col] = at(r.left + r.width / 2, r.top + r.height / 2);
    const hit = b.squareAt(r.left + r.width / 2, r.top + r.height / 2);
    return { name: s.dataset.sq, row, col, hit: hit >= 0 ? b.grid.sqName(hit) : '', movable: s.classList.contains('movable'), pieces: pieces.get(row + ',' + col) || '' };
  });
}`

type squareView struct {
	Name    string `json:"name"`
	Row     int    `json:"row"`
	Col     int    `json:"col"`
	Hit     string `json:"hit"`
	Movable bool   `json:"movable"`
	Pieces  string `json:"pieces"`
}

// TestBrowserSquareNumbering checks the one square numbering of both sides
// of the wire, and that squares and pieces land where they belong on the
// screen. The front end's square numbers are Go's game.Board.Square
// (file-major: a1 = 0, a2 = 1, b1 = the number of ranks), for the board
// size the meta gives each game. For a position of each game, in both
// orientations: every square element (data-sq) is drawn in its file's
// column and its rank's row; the board finds that square under the cell's
// centre; the pieces drawn in each cell are those the position text puts
// on that square; the squares that take a click are the starting squares
// of the rules engine's legal moves; and real clicks on the squares send
// the moves they name.
func TestBrowserSquareNumbering(t *testing.T) {
	bctx := browser(t)
	base := startServer(t)
	p := tab(t, bctx, "board")
	p.openArchive(base)
	for _, g := range games.All() {
		checkNumbering(t, p, g.Spec)
	}
	for _, c := range boardCases {
		rules, err := games.Rules(c.game)
		if err != nil {
			t.Fatal(err)
		}
		st, err := rules.ParsePosition(c.position)
		if err != nil {
			t.Fatalf("%s: %v", c.position, err)
		}
		if st.String() != c.position {
			t.Fatalf("%s reads back as %s", c.position, st.String())
		}
		for orientation := range 2 {
			checkBoardView(t, p, c, rules.Spec(), st.Moves(), orientation)
		}
	}
	p.checkConsole()
}

// boardSquare is a square as the tests number it, to compare with the
// front end's numbering.
type boardSquare struct {
	Name  string `json:"name"`
	Index int    `json:"index"`
	File  int    `json:"file"`
	Rank  int    `json:"rank"`
}

// boardSquares lists the squares of a board as Go names and numbers them
// (game.Board): a file letter from a and a rank number from 1.
func boardSquares(b game.Board) []boardSquare {
	var out []boardSquare
	for f := range b.Files {
		for r := range b.Ranks {
			out = append(out, boardSquare{fmt.Sprintf("%c%d", 'a'+f, r+1), b.Square(f, r), f, r})
		}
	}
	return out
}

// checkNumbering compares the front end's numbering of a game's board
// (notation.js's Grid, of the size the meta gives) with Go's: game.Board,
// which is game.Square on the 8x8 board.
func checkNumbering(t *testing.T, p *page, sp *game.Spec) {
	t.Helper()
	squares := boardSquares(sp.Board)
	if len(squares) != sp.Board.Squares() {
		t.Fatalf("%s: %d squares, Board.Squares says %d", sp.Name, len(squares), sp.Board.Squares())
	}
	if sp.Board == (game.Board{Files: 8, Ranks: 8}) {
		for _, s := range squares {
			sq := game.SquareAt(s.File, s.Rank)
			if back, ok := game.ParseSquare(s.Name); !ok || back != sq || int(sq) != s.Index || sq.String() != s.Name {
				t.Fatalf("%s: game.Square %d (%s) is not game.Board's %d (%s)", sp.Name, sq, sq, s.Index, s.Name)
			}
		}
	}
	bad := eval[[]string](p, fmt.Sprintf(`Promise.all([import('/js/notation.js'), import('/js/api.js')]).then(async ([n, api]) => {
		const meta = await api.getMeta();
		const g = n.gridOf(meta.games.find((x) => x.name === %q).board);
		const out = %s.filter((s) =>
			g.sqIndex(s.name) !== s.index || g.sqName(s.index) !== s.name || g.fileOf(s.index) !== s.file || g.rankOf(s.index) !== s.rank || g.squareAt(s.file, s.rank) !== s.index
		).map((s) => s.name + ': Go numbers it ' + s.index + ', the front end ' + g.sqIndex(s.name));
		if (g.squares !== %d) out.push('the front end counts ' + g.squares + ' squares');
		return out;
	})`, sp.Name, mustJSON(squares), len(squares)))
	for _, b := range bad {
		t.Errorf("%s: %s", sp.Name, b)
	}
}

// checkBoardView mounts a position of a game on a test board in one
// orientation and checks where its squares and pieces are drawn, which
// squares take a click, and the moves real clicks send.
func checkBoardView(t *testing.T, p *page, c boardCase, sp *game.Spec, legal []string, orientation int) {
	t.Helper()
	// The squares a click starts a move on: a drop's square, or the
	// square a piece moves from.
	starts := map[string]bool{}
	for _, m := range legal {
		starts[m[:2]] = true
	}
	name := fmt.Sprintf("%s, orientation %d", c.game, orientation)
	args, _ := json.Marshal(map[string]any{"game": c.game, "position": c.position, "legal": legal, "orientation": orientation})
	eval[bool](p, fmt.Sprintf(`(%s)(%s)`, mountBoard, args))
	view := eval[[]squareView](p, fmt.Sprintf(`(%s)(%s)`, readBoard, mustJSON(map[string]any{"letters": sp.SideLetters, "piece": c.piece})))
	if len(view) != sp.Board.Squares() {
		t.Fatalf("%s: %d squares, want %d", name, len(view), sp.Board.Squares())
	}
	seen := map[string]bool{}
	for _, v := range view {
		file, rank, ok := squareOf(sp.Board, v.Name)
		if !ok || seen[v.Name] {
			t.Errorf("%s: square element %q", name, v.Name)
			continue
		}
		seen[v.Name] = true
		row, col := sp.Board.Ranks-1-rank, file
		if orientation == 1 {
			row, col = rank, sp.Board.Files-1-file
		}
		if v.Row != row || v.Col != col {
			t.Errorf("%s: %s is drawn in row %d, column %d; want row %d, column %d", name, v.Name, v.Row, v.Col, row, col)
		}
		if v.Hit != v.Name {
			t.Errorf("%s: the board finds %q under the centre of %s", name, v.Hit, v.Name)
		}
		if v.Pieces != c.contents[v.Name] {
			t.Errorf("%s: the cell of %s shows %q; the position has %q there", name, v.Name, v.Pieces, c.contents[v.Name])
		}
		if v.Movable != starts[v.Name] {
			t.Errorf("%s: %s takes a click: %v; a legal move starts there: %v", name, v.Name, v.Movable, starts[v.Name])
		}
	}
	checkClicks(p, legal)
}

// squareOf reads a square's name on a board: its file and rank, from 0.
func squareOf(b game.Board, name string) (file, rank int, ok bool) {
	if len(name) != 2 {
		return 0, 0, false
	}
	file, rank = int(name[0]-'a'), int(name[1]-'1')
	return file, rank, file >= 0 && file < b.Files && rank >= 0 && rank < b.Ranks
}

// checkClicks plays, by real clicks on the test board, the first legal
// move of each kind, by the squares it names, and checks the board sends
// it.
func checkClicks(p *page, legal []string) {
	p.t.Helper()
	for _, m := range pickMoves(legal) {
		p.do(chromedp.Evaluate[chromedp.Void](`window.testMoves = []; window.testBoard.set(window.testBoard.position, { legal: ` + mustJSON(legal) + ` })`))
		p.click(fmt.Sprintf(`#test-board .sq[data-sq=%q]`, m[:2]))
		if len(m) > 2 {
			p.waitFor("the piece on "+m[:2]+" to be selected", fmt.Sprintf(`document.querySelector('#test-board .sq[data-sq=%q]').classList.contains('selected')`, m[:2]), 5*time.Second)
			p.click(fmt.Sprintf(`#test-board .sq[data-sq=%q]`, m[3:]))
			if slices.Contains(legal, m[:2]+"-"+m[3:]) && slices.Contains(legal, m[:2]+">"+m[3:]) {
				p.waitFor("the step-or-tumble chooser", `document.querySelector('#test-board .chooser')`, 5*time.Second)
				if m[2] == '>' {
					p.click("#test-board .chooser .choose-tumble")
				} else {
					p.click("#test-board .chooser .choose-step")
				}
			}
		}
		p.waitFor("the move "+m, fmt.Sprintf(`window.testMoves.length === 1 && window.testMoves[0] === %q`, m), 5*time.Second)
	}
}

// pickMoves returns, of a list of legal moves, the first of each kind (a
// drop "d4", a step "e5-f6", a tumble "e5>f6") and the first step and
// tumble that share their squares.
func pickMoves(legal []string) []string {
	var out []string
	kinds := map[string]bool{}
	for _, m := range legal {
		k := "drop"
		if len(m) > 2 {
			k = string(m[2])
		}
		if !kinds[k] {
			kinds[k] = true
			out = append(out, m)
		}
	}
	for _, m := range legal {
		if len(m) == 5 && m[2] == '>' && slices.Contains(legal, m[:2]+"-"+m[3:]) {
			out = append(out, m[:2]+"-"+m[3:], m)
			break
		}
	}
	return out
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestBrowserGameModules checks the loader of the games' front ends: a
// game's alias loads the module of its canonical name (the same one,
// loaded once); each module's style sheet is linked and draws its pieces;
// a name the server does not know, or a game without a module, is refused
// with a message that says so; and the game page of a game the front end
// has no module for shows that message instead of a broken board.
func TestBrowserGameModules(t *testing.T) {
	bctx := browser(t)
	base := startServer(t)
	p := tab(t, bctx, "loader")
	p.openArchive(base)
	for _, g := range games.All() {
		checkLoader(t, p, g.Spec)
	}
	// The style sheets draw the pieces: a stone and a disk have a body.
	for _, c := range boardCases {
		args, _ := json.Marshal(map[string]any{"game": c.game, "position": c.position, "legal": []string{}, "orientation": 0})
		eval[bool](p, fmt.Sprintf(`(%s)(%s)`, mountBoard, args))
		bg := eval[string](p, fmt.Sprintf(`getComputedStyle(document.querySelector('#test-board %s'), '::before').backgroundImage`, c.piece))
		if !strings.Contains(bg, "gradient") {
			t.Errorf("%s: a piece %s is drawn with background %q: its style sheet is not applied", c.game, c.piece, bg)
		}
	}
	checkRefusals(t, p)
	p.checkConsole()
	checkPageWithoutModule(t, tab(t, bctx, "a game without a module"), base)
}

// checkLoader checks that a game's name and aliases load one module, once,
// with its style sheet linked once when it has one.
func checkLoader(t *testing.T, p *page, sp *game.Spec) {
	t.Helper()
	name := sp.Name
	for _, alias := range append([]string{name}, sp.Aliases...) {
		got := eval[string](p, fmt.Sprintf(`import('/js/games.js').then(async (l) => {
			const a = await l.loadGame(%q), b = await l.loadGame(%q);
			return a === b ? a.name : 'two modules';
		})`, alias, name))
		if got != name {
			t.Errorf("loadGame(%q) gives the module of %q, want %q", alias, got, name)
		}
	}
	want := 0
	if eval[bool](p, fmt.Sprintf(`import('/js/games.js').then((l) => l.loadGame(%q)).then((m) => m.stylesheet === true)`, name)) {
		want = 1
	}
	links := eval[int](p, fmt.Sprintf(`document.querySelectorAll('link[rel=stylesheet][data-game-styles=%q]').length`, name))
	if links != want {
		t.Errorf("%s: %d style sheet links, want %d", name, links, want)
	}
}

// checkRefusals checks that the loader refuses, with a message that says
// why, a game the server does not know and one without a module.
func checkRefusals(t *testing.T, p *page) {
	t.Helper()
	msg := eval[string](p, `import('/js/games.js').then((l) => l.loadGame('no-such-game').then(() => 'loaded', (e) => e.message))`)
	if !strings.Contains(msg, "no-such-game") || msg == "loaded" {
		t.Errorf("loading an unknown game: %q", msg)
	}
	// A game the server has and the front end has no module for (added to
	// the page's copy of the meta): the module's import fails.
	msg = eval[string](p, `Promise.all([import('/js/api.js'), import('/js/games.js')]).then(async ([api, l]) => {
		const meta = await api.getMeta();
		meta.games.push({ name: 'third-game', title: 'Third Game', aliases: [], sides: meta.games[0].sides, board: meta.games[0].board, options: [], variants: [], endings: [], formats: [], start: '' });
		return l.loadGame('third-game').then(() => 'loaded', (e) => e.message);
	})`)
	if !strings.Contains(msg, "Third Game") || !strings.Contains(msg, "js/games/third-game.js") {
		t.Errorf("loading a game without a module: %q", msg)
	}
}

// renameMagneton is run in a tab before its pages: the server's answers
// (the meta and a game's state) call Magneton "third-game", a game the
// front end has no module for.
const renameMagneton = `(() => {
	const real = window.fetch.bind(window);
	const swap = (v) => {
		if (Array.isArray(v)) return v.map(swap);
		if (v && typeof v === 'object') {
			const o = {};
			for (const [k, x] of Object.entries(v)) o[k] = (k === 'game' || k === 'name') && x === 'magneton' ? 'third-game' : k === 'title' && x === 'Magneton' ? 'Third Game' : swap(x);
			return o;
		}
		return v;
	};
	window.fetch = async (input, init) => {
		const res = await real(input, init);
		const url = new URL(typeof input === 'string' ? input : input.url, location.href);
		if (!/^\/api\/(meta|games\/[^/]+)$/.test(url.pathname) || !res.ok) return res;
		const body = swap(await res.json());
		return new Response(JSON.stringify(body), { status: res.status, headers: { 'Content-Type': 'application/json' } });
	};
})()`

// checkPageWithoutModule opens, in tab q, the game page of a game the
// front end has no module for: it says so instead of showing a board.
func checkPageWithoutModule(t *testing.T, q *page, base string) {
	t.Helper()
	if _, err := chromedp.Call(q.ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: renameMagneton}); err != nil {
		t.Fatal(err)
	}
	q.openArchive(base)
	url := eval[string](q, `fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ game: 'magneton', opponent: 'computer', level: 1, color: 'first' }) }).then((r) => r.json()).then((r) => r.url)`)
	q.goTo(base + url)
	q.waitFor("the message instead of the board", `location.pathname.startsWith('/g/') && document.querySelector('.not-found h1')`, 10*time.Second)
	text := eval[string](q, `document.querySelector('.not-found').textContent`)
	if !strings.Contains(text, "Third Game cannot be shown here") || !strings.Contains(text, "js/games/third-game.js") {
		t.Errorf("the game page of a game without a module says %q", text)
	}
	if eval[bool](q, `!!document.querySelector('.board')`) {
		t.Error("the game page of a game without a module shows a board")
	}
	q.checkConsole()
}
