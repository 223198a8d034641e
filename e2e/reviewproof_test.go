package e2e

import (
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/magneton-games/magneton/server"
)

// proofBlunderGame is a real Tumbling Down game of two level 2 players:
// Red's 14th move, h3>g3, lets Black win in 2 by proof, as Black does.
var proofBlunderGame = []string{"a6>b7", "h2-h1", "a7>a8", "h1>h2", "a8>b7", "f2>e1", "a4-b3", "g1>g2", "b8-c8", "g2>f3", "b7>c6", "h4>g4", "c7>d7", "h3>g3", "d5>e4", "d1-c1", "e4>e3"}

// TestBrowserReviewProof: two people play that game through the server;
// its review marks h3>g3 "??" and says it lets Black win in 2, with the
// refutation; the game's SGF download, pasted into the analysis board,
// shows the game's moves and final position; Clear board empties the
// editor's board and says which sides have no King, and the evaluation
// shown goes the moment the position is edited.
func TestBrowserReviewProof(t *testing.T) {
	bctx := browser(t)
	srv := serve(t, filepath.Join(t.TempDir(), "games.db"), "127.0.0.1:0", func(c *server.Config) {
		c.ReviewMoveTime = 60 * time.Millisecond
	})
	a, b := tab(t, bctx, "Black"), tab(t, bctx, "Red")
	id := invite(srv.url, a, b, "tumbling-down", "")
	for i, m := range proofBlunderGame {
		mover := a
		if i%2 == 1 {
			mover = b
		}
		mover.waitFor("my turn", fmt.Sprintf(`window.magnetonGame.state.moves.length === %d && window.magnetonGame.state.turn === window.magnetonGame.state.seat`, i), 10*time.Second)
		mover.do(chromedp.SendKeys(chromedp.CSS("#move-input"), m+"\n"))
		mover.waitFor("the move", fmt.Sprintf(`window.magnetonGame.state.moves.length === %d`, i+1), 10*time.Second)
	}
	if s := a.state(); s.Status != "finished" || s.Result != "1-0" {
		t.Fatalf("the game ended %s %s", s.Status, s.Result)
	}
	a.waitFor("the review button", `document.querySelector('#request-review')`, 10*time.Second)
	asked := time.Now()
	a.click("#request-review")
	a.waitFor("the review", `document.querySelector('.review .eval-chart') && document.querySelectorAll('.moves .mv[data-class]').length > 0`, 120*time.Second)
	t.Logf("the review of %d positions took %s", len(proofBlunderGame)+1, time.Since(asked).Round(10*time.Millisecond))
	blunder := `document.querySelector('.moves .mv[data-ply="14"]')`
	if got := eval[string](a, blunder+`.dataset.class + ' ' + `+blunder+`.querySelector('.glyph').textContent`); got != "blunder ??" {
		t.Errorf("h3>g3 is marked %q, want a blunder ??", got)
	}
	a.click(`.moves .mv[data-ply="14"]`)
	a.waitFor("the proof's note", `!!document.querySelector('.review-note .review-lets')`, 5*time.Second)
	if got := eval[string](a, `document.querySelector('.review-note .review-lets').textContent`); !strings.Contains(got, "lets Black win in 2") {
		t.Errorf("the note says %q, want lets Black win in 2", got)
	}
	if got := eval[string](a, `(e => e ? e.textContent : '')(document.querySelector('.review-note .review-refutation .pv-moves'))`); len(strings.Fields(got)) < 3 {
		t.Errorf("the refutation reads %q, want the win in 2 and the reply between", got)
	}
	// The game's SGF download, imported into the analysis board.
	sgf := download(t, srv.url+"/api/games/"+id+"/record?format=sgf")
	final := eval[string](a, `window.magnetonGame.state.position`)
	p := tab(t, bctx, "analyst")
	p.goTo(srv.url + "/analysis?game=tumbling-down&setup=1")
	p.waitFor("the analysis board", `window.analysisBoard && window.analysisBoard.cur && window.analysisBoard.cur.legal`, 20*time.Second)
	p.do(chromedp.SetValue(chromedp.CSS("#an-pos"), sgf))
	p.click("#an-setup-go")
	p.waitFor("the game's moves", fmt.Sprintf(`document.querySelectorAll('.an-tree .an-move').length === %d`, len(proofBlunderGame)), 20*time.Second)
	p.waitFor("the final position", fmt.Sprintf(mainLineEnd+` === %q`, final), 10*time.Second)
	// The PGN download too, the same.
	p.goTo(srv.url + "/analysis?game=magneton&setup=1")
	p.waitFor("the analysis board", `window.analysisBoard && window.analysisBoard.cur && window.analysisBoard.cur.legal`, 20*time.Second)
	p.do(chromedp.SetValue(chromedp.CSS("#an-pos"), download(t, srv.url+"/api/games/"+id+"/record?format=pgn")))
	p.click("#an-setup-go")
	p.waitFor("the game's moves from the PGN", fmt.Sprintf(`window.analysisBoard.spec.name === 'tumbling-down' && document.querySelectorAll('.an-tree .an-move').length === %d`, len(proofBlunderGame)), 20*time.Second)
	p.waitFor("the final position", fmt.Sprintf(mainLineEnd+` === %q`, final), 10*time.Second)
	// An evaluation of the position before the end, then the editor.
	p.goTo(srv.url + "/analysis?game=tumbling-down")
	p.waitFor("an evaluation", `!!document.querySelector('.analysis-out .eval .score')`, 30*time.Second)
	// Clicked by script: the engine's lines above the editor grow as
	// they deepen, and a click by position could miss the button.
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('.an-setup-box').open = true; document.querySelector('#an-edit').click()`))
	p.waitFor("the evaluation gone", `!document.querySelector('.analysis-out .eval') && !!document.querySelector('.analysis-out .an-editing')`, 2*time.Second)
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#an-edit-clear').click()`))
	p.waitFor("an empty board", `document.querySelector('#an-pos').value.startsWith('8/8/8/8/8/8/8/8')`, 5*time.Second)
	if got := eval[string](p, `document.querySelector('.an-edit-missing').textContent`); !strings.Contains(got, "Black has no King") || !strings.Contains(got, "Red has no King") {
		t.Errorf("after Clear board the editor says %q", got)
	}
	for _, x := range []*page{a, b, p} {
		x.checkConsole()
	}
}

// download is the text at url, as the game page's download links give it.
func download(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
	return string(b)
}

// mainLineEnd is the position at the end of the analysis board's main line.
const mainLineEnd = `(n => { while (n.children.length) n = n.children[0]; return n.position; })(window.analysisBoard.root)`
