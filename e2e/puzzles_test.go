package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"
)

// refutation is the server's answer to a wrong move of a puzzle.
type refutation struct {
	Move        string `json:"move"`
	Reply       string `json:"reply"`
	Ends        bool   `json:"ends"`
	ReplyWinsIn int    `json:"reply_wins_in"`
}

func postJSON(t *testing.T, url string, body, v any) int {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusOK {
		if err := json.NewDecoder(res.Body).Decode(v); err != nil {
			t.Fatalf("POST %s: %v", url, err)
		}
	}
	return res.StatusCode
}

// refutedPuzzle finds a Magneton win in 3 with a wrong first move that
// the opponent's proven win refutes (the same answer every time, unlike
// the engine's timed move): the puzzle, the move and its refutation.
func refutedPuzzle(t *testing.T, base string) (puzzleInfo, string, refutation) {
	t.Helper()
	var list struct {
		Puzzles []puzzleInfo `json:"puzzles"`
	}
	getJSON(t, base+"/api/puzzles?game=magneton", &list)
	tries := 0
	for _, s := range list.Puzzles {
		if s.WinIn != 3 || tries > 40 {
			continue
		}
		var pz puzzleInfo
		getJSON(t, base+"/api/puzzles/"+s.ID, &pz)
		for _, m := range pz.Legal[0] {
			if slices.Contains(pz.Accept[0], m) {
				continue
			}
			tries++
			var ref refutation
			if code := postJSON(t, base+"/api/puzzles/"+pz.ID+"/refute", map[string]any{"ply": 0, "move": m}, &ref); code != http.StatusOK {
				t.Fatalf("refute %s of %s: %d", m, pz.ID, code)
			}
			if !ref.Ends && ref.ReplyWinsIn > 0 {
				return pz, m, ref
			}
			break
		}
	}
	t.Fatal("no Magneton win in 3 with a wrong move refuted by a proven win")
	return puzzleInfo{}, "", refutation{}
}

// TestBrowserPuzzleRetry: an account's wrong move in a win in 3 is
// answered on the board by the reply that refutes it, said in words, and
// the first attempt is rated; "Retry" says the new attempt is not rated,
// the puzzle is solved against the loser's two replies, the winning line
// is marked with arrows and the page says it was not rated; the history
// page shows both attempts and the rating graph.
func TestBrowserPuzzleRetry(t *testing.T) {
	base := startServer(t)
	p := tab(t, browser(t), "retrier")
	p.signUp(base, "retrier", "puzzle-pass-2")
	pz, wrong, ref := refutedPuzzle(t, base)
	p.goTo(base + "/puzzles?id=" + pz.ID)
	p.shownPuzzle(base)
	p.boardPlay(".pz-board", wrong)
	p.waitFor("the refutation", fmt.Sprintf(`[...document.querySelectorAll('.pz-msg.wrong .pz-refutation')].some(e => e.textContent.includes('answers %s and wins'))`, ref.Reply), 20*time.Second)
	p.waitFor("the retry offered, unrated", `(b => b && !b.hidden && b.textContent.includes('unrated'))(document.querySelector('.pz-retry'))`, 10*time.Second)
	p.waitFor("the first attempt rated", `/Your puzzle rating: \d+\?? \(-\d+\)/.test((document.querySelector('.pz-rating') || {}).textContent)`, 10*time.Second)
	p.click(".pz-retry")
	p.waitFor("the retry said unrated", `(e => e && e.textContent.includes('not rated'))(document.querySelector('.pz-msg.retry'))`, 10*time.Second)
	for i := 0; i < len(pz.Line); i += 2 {
		p.boardPlay(".pz-board", pz.Line[i])
		if i+1 < len(pz.Line) {
			p.waitFor("the reply "+pz.Line[i+1], fmt.Sprintf(`(e => e && e.textContent.includes('Reply: %s'))(document.querySelector('.pz-msg')) && document.querySelector('.pz-board .board.interactive')`, pz.Line[i+1]), 10*time.Second)
		}
	}
	p.waitFor("the puzzle solved, unrated", `(e => e && e.textContent.includes('Solved') && e.textContent.includes('Not rated'))(document.querySelector('.pz-msg.right'))`, 10*time.Second)
	last := pz.Line[len(pz.Line)-1]
	p.waitFor("the winning line's arrows", fmt.Sprintf(`document.querySelector('.pz-board .arrows .arrow-best[data-move=%q]') && document.querySelectorAll('.pz-board .arrows .arrow').length === 3`, last), 10*time.Second)
	p.waitFor("the rating line to say unrated", `(e => e && e.textContent.includes('Not rated'))(document.querySelector('.pz-rating .pz-unrated'))`, 10*time.Second)

	p.click(".pz-history-link")
	p.waitFor("the history's two attempts", fmt.Sprintf(`(rows => rows.length === 2
		&& rows[0].dataset.puzzle === %[1]q && rows[0].dataset.solved === 'true' && rows[0].dataset.rated === 'false'
		&& rows[1].dataset.puzzle === %[1]q && rows[1].dataset.solved === 'false' && rows[1].dataset.rated === 'true'
		&& /^-\d+$/.test(rows[1].querySelector('.pzh-change').textContent))([...document.querySelectorAll('.pzh-play')])`, pz.ID), 10*time.Second)
	p.waitFor("the rating graph", `document.querySelector('.pzh-chart[data-game="magneton"] svg.chart')`, 10*time.Second)
	p.cleanPage(t, "the history")
	p.checkConsole()
}

// shownSide is the side to move of the puzzle shown, by the server.
func (p *page) shownSide(base string) (string, int, string) {
	p.t.Helper()
	id := eval[string](p, `document.querySelector('.puzzles-page').dataset.puzzle`)
	var pz struct {
		Side   int    `json:"side"`
		Record string `json:"record"`
	}
	getJSON(p.t, base+"/api/puzzles/"+id, &pz)
	return id, pz.Side, pz.Record
}

// a1Row is the row of the board's a1 square on screen (1 at the top).
func (p *page) a1Row() string {
	return eval[string](p, `document.querySelector('.pz-board .sq[data-sq="a1"]').style.gridRow`)
}

// TestBrowserPuzzleNextOrientation: after "Next" the board is turned to
// the new puzzle's side to move, as when the puzzle is opened by its id,
// even when the side to move differs from the previous puzzle's; no two
// puzzles in a row come from the same game record.
func TestBrowserPuzzleNextOrientation(t *testing.T) {
	base := startServer(t)
	p := tab(t, browser(t), "turner")
	p.goTo(base + "/puzzles?game=magneton")
	p.shownPuzzle(base)
	id, side, record := p.shownSide(base)
	changed := false
	for i := 0; i < 30 && !changed; i++ {
		p.click(".pz-next")
		p.waitFor("another puzzle", fmt.Sprintf(`(d => d && d !== %q)(document.querySelector('.puzzles-page').dataset.puzzle) && document.querySelector('.pz-board .board.interactive')`, id), 10*time.Second)
		nid, nside, nrecord := p.shownSide(base)
		if nrecord == record {
			t.Errorf("%s after %s: both of the record %s", nid, id, record)
		}
		changed = nside != side
		id, side, record = nid, nside, nrecord
	}
	if !changed {
		t.Fatal("thirty puzzles in a row with the same side to move")
	}
	// Magneton turns the board for Black (side 1): a1 at the top.
	want := map[int]string{0: "8", 1: "1"}[side]
	if got := p.a1Row(); got != want {
		t.Errorf("after Next, puzzle %s (side %d to move): a1 on row %s, want %s", id, side, got, want)
	}
	p.goTo(base + "/puzzles?id=" + id)
	p.shownPuzzle(base)
	if got := p.a1Row(); got != want {
		t.Errorf("opened by id, puzzle %s: a1 on row %s, want %s", id, got, want)
	}
	p.checkConsole()
}

// solveShown plays the solution of the puzzle shown, the loser's replies
// between its moves, and returns it.
func (p *page) solveShown(base string) puzzleInfo {
	p.t.Helper()
	pz := p.shownPuzzle(base)
	for i := 0; i < len(pz.Line); i += 2 {
		p.boardPlay(".pz-board", pz.Line[i])
		if i+1 < len(pz.Line) {
			p.waitFor("the reply "+pz.Line[i+1], fmt.Sprintf(`(e => e && e.textContent.includes('Reply: %s'))(document.querySelector('.pz-msg')) && document.querySelector('.pz-board .board.interactive')`, pz.Line[i+1]), 10*time.Second)
		}
	}
	return pz
}

// TestBrowserPuzzleStreak: a streak goes from puzzle to puzzle by itself,
// each rated at least as the last, counting the solved ones; a wrong move
// ends it with its count and offers a new one, and no retry.
func TestBrowserPuzzleStreak(t *testing.T) {
	base := startServer(t)
	p := tab(t, browser(t), "streaker")
	p.goTo(base + "/puzzles?streak=1&game=magneton")
	prev := puzzleInfo{}
	lastRating := 0
	for n := 1; n <= 2; n++ {
		if prev.ID != "" {
			p.waitFor("the streak's next puzzle", fmt.Sprintf(`(d => d && d !== %q)(document.querySelector('.puzzles-page').dataset.puzzle)`, prev.ID), 10*time.Second)
		}
		pz := p.solveShown(base)
		var sum struct {
			Rating int `json:"rating"`
		}
		getJSON(t, base+"/api/puzzles/"+pz.ID, &sum)
		if sum.Rating < lastRating {
			t.Errorf("streak puzzle %d, %s, rated %d after one rated %d", n, pz.ID, sum.Rating, lastRating)
		}
		lastRating = sum.Rating
		p.waitFor(fmt.Sprintf("the streak at %d", n), fmt.Sprintf(`(e => e && e.dataset.count === '%d' && e.textContent.includes('Streak: %d'))(document.querySelector('.pz-streak'))`, n, n), 10*time.Second)
		prev = pz
	}
	p.waitFor("the third puzzle", fmt.Sprintf(`(d => d && d !== %q)(document.querySelector('.puzzles-page').dataset.puzzle)`, prev.ID), 10*time.Second)
	pz := p.shownPuzzle(base)
	wrong := ""
	for _, m := range pz.Legal[0] {
		if !slices.Contains(pz.Accept[0], m) {
			wrong = m
			break
		}
	}
	p.boardPlay(".pz-board", wrong)
	p.waitFor("the streak over", `(e => e && e.textContent.includes('The streak is over: 2 solved'))(document.querySelector('.pz-streak-over'))
		&& !document.querySelector('.pz-again').hidden && document.querySelector('.pz-retry').hidden`, 20*time.Second)
	p.waitFor("the best streak", `document.querySelector('.pz-streak').textContent.includes('your best: 2')`, 5*time.Second)
	p.click(".pz-again")
	p.waitFor("a new streak", `(e => e && e.dataset.count === '0')(document.querySelector('.pz-streak')) && document.querySelector('.pz-board .board.interactive')`, 10*time.Second)
	p.cleanPage(t, "the streak")
	p.checkConsole()
}
