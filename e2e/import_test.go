package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The analysis board's import of record files into the game archive
// (analysis-upload.js, POST /api/archive/import).

// boardspaceRecord is the Boardspace record of the archive's test data
// (a reconstruction from Boardspace's sources, see its README).
const boardspaceRecord = "../server/archive/testdata/import/TD-kraken-Dumbot-2010-03-15-0142.sgf"

// openImport opens the analysis board's import box by keyboard: the focus
// on its summary, Enter.
func (p *page) openImport(base string) {
	p.t.Helper()
	p.openAnalysis(base + "/analysis?game=tumbling")
	p.do(chromedp.Focus(chromedp.CSS(`#im-box summary`)))
	p.pressKeys(kb.Enter)
	p.waitFor("the import box open", `document.querySelector('#im-box').open && !!document.querySelector('#im-files')`, 5*time.Second)
}

// importFiles picks files in the box and sends them from the keyboard:
// Tab from the file chooser to the button, Enter; it waits for the answer.
func (p *page) importFiles(paths ...string) string {
	p.t.Helper()
	// The answer before goes, so that the wait is for this one.
	eval[any](p, `document.querySelector('#im-status').replaceChildren()`)
	p.do(chromedp.SetUploadFiles(chromedp.CSS(`#im-files`), paths))
	p.do(chromedp.Focus(chromedp.CSS(`#im-files`)))
	for range 5 {
		if eval[bool](p, focused("#im-send")) {
			break
		}
		p.pressKeys(kb.Tab)
	}
	if !eval[bool](p, focused("#im-send")) {
		p.t.Fatalf("%s: Tab from the file chooser does not reach the import button", p.name)
	}
	p.pressKeys(kb.Enter)
	p.waitFor("the import's answer", `!!document.querySelector('#im-status .im-summary')`, 20*time.Second)
	return eval[string](p, `document.querySelector('#im-status').innerText`)
}

// tapSteady taps an element on a phone once it is on the screen and has
// stood still for a few polls: content above it that grows after the
// measure would make the tap land elsewhere.
func (p *page) tapSteady(css string) {
	p.t.Helper()
	// The centre of the element once it has stayed put for five looks and
	// is what a finger there touches (nothing drawn over it), else [].
	centre := fmt.Sprintf(`(() => {
		const e = document.querySelector(%q);
		if (!e) return [];
		const r = e.getBoundingClientRect();
		if (r.top < 0 || r.bottom > innerHeight) { e.scrollIntoView({ block: 'center' }); window.steadyAt = ''; return []; }
		const at = Math.round(r.left) + ',' + Math.round(r.top);
		if (window.steadyAt !== at) { window.steadyAt = at; window.steadyFor = 0; return []; }
		if (++window.steadyFor < 5) return [];
		const x = r.left + r.width / 2, y = r.top + r.height / 2;
		const hit = document.elementFromPoint(x, y);
		return hit && (hit === e || e.contains(hit)) ? [x, y] : [];
	})()`, css)
	deadline := time.Now().Add(20 * time.Second)
	for {
		// The same look that finds the element steady gives the point, so
		// that nothing moves between the two.
		if xy, err := tryEval[[]float64](p, centre); err == nil && len(xy) == 2 {
			p.do(chromedp.TapXY(xy[0], xy[1]))
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: %s did not stay still on the screen for 20s", p.name, css)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// tapUntil taps an element (tapSteady) until cond holds, at most three
// times: on a loaded machine the finger may stay down long enough between
// the touch's start and end for the browser to take a long press, which
// clicks nothing. cond must become true at once on the tap's click (the
// tap is not repeated after a click that took).
func (p *page) tapUntil(css, what, cond string) {
	p.t.Helper()
	for attempt := 1; ; attempt++ {
		p.tapSteady(css)
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			if ok, err := tryEval[bool](p, "!!("+cond+")"); err == nil && ok {
				return
			}
			time.Sleep(40 * time.Millisecond)
		}
		if attempt == 3 {
			p.t.Fatalf("%s: three taps on %s and still not %s (%s)", p.name, css, what, cond)
		}
		p.t.Logf("%s: a tap on %s and not %s: again", p.name, css, what)
	}
}

// TestBrowserImportArchive: on the analysis board a guest is told to log
// in to import; a player picks a Boardspace record and a bad file and
// sends them by keyboard: the record goes in, the bad file is refused
// with its place and reason; the same record again is named as in the
// archive already, with a link to the game it was imported as; on a
// phone the box and its answer fit the screen.
func TestBrowserImportArchive(t *testing.T) {
	base, tabs := openTabs(t, "guest", "ann", "phone")
	guest, ann, phone := tabs[0], tabs[1], tabs[2]
	dir := t.TempDir()
	data, err := os.ReadFile(boardspaceRecord)
	if err != nil {
		t.Fatal(err)
	}
	record := filepath.Join(dir, "TD-kraken-Dumbot-2010-03-15-0142.sgf")
	bad := filepath.Join(dir, "not-a-record.sgf")
	if err := os.WriteFile(record, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("(;GM[33]\n;B[a8-a7]\n;B[a7-a6])"), 0o644); err != nil {
		t.Fatal(err)
	}

	guest.openImport(base)
	guest.waitFor("the guest told to log in", `!document.querySelector('#im-guest').hidden && document.querySelector('#im-files').disabled && document.querySelector('#im-send').disabled`, 10*time.Second)
	if got := eval[string](guest, `document.querySelector('#im-guest').textContent`); got != "Log in to add games to the archive." {
		t.Errorf("the guest reads %q", got)
	}

	ann.signUp(base, "ann", "correct horse")
	ann.openImport(base)
	ann.waitFor("the form open to a player", `document.querySelector('#im-guest').hidden && !document.querySelector('#im-files').disabled`, 10*time.Second)
	out := ann.importFiles(record, bad)
	for _, want := range []string{
		"Games imported: 1. Already in the archive: 0. Files refused: 1.",
		"TD-kraken-Dumbot-2010-03-15-0142.sgf: games imported: 1; already in the archive: 0.",
		"not-a-record.sgf: nothing imported (record 1, line 3): node 2, B[a7-a6]: it is Red's turn",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the answer lacks %q:\n%s", want, out)
		}
	}
	if eval[string](ann, `document.querySelector('#im-status').getAttribute('role')`) != "status" {
		t.Error("the answer is not a live status for screen readers")
	}

	out = ann.importFiles(record)
	if !strings.Contains(out, "Games imported: 0. Already in the archive: 1. Files refused: 0.") || !strings.Contains(out, "record 1, line 1: already in the archive as this game") {
		t.Errorf("again:\n%s", out)
	}
	href := eval[string](ann, `document.querySelector('#im-status .im-done a').getAttribute('href')`)
	id := strings.TrimPrefix(href, "/g/")
	if len(id) != 16 {
		t.Fatalf("the earlier game's link: %q", href)
	}
	game := eval[string](ann, fmt.Sprintf(`(async () => { const r = await fetch('/api/games/%s'); const g = await r.json(); return r.status + ' ' + g.status + ' ' + g.result + ' ' + g.sides.map((s) => s.player).join(','); })()`, id))
	if game != "200 finished 0-1 Dumbot,kraken" {
		t.Errorf("the game linked: %s", game)
	}

	// On a phone, by touch: the box and a long answer fit the screen. The
	// engine stops first, so that its lines do not move the box while it
	// is tapped.
	phone.asPhone()
	phone.signUp(base, "pat", "correct horse")
	phone.openAnalysis(base + "/analysis?game=tumbling")
	eval[any](phone, `(b => b.checked && b.click())(document.querySelector('#an-auto'))`)
	phone.waitFor("the engine stopped", `document.querySelector('#an-stop').hidden`, 10*time.Second)
	phone.tapUntil(`#im-box summary`, "the import box open", `document.querySelector('#im-box').open`)
	long := filepath.Join(dir, strings.Repeat("a-very-long-file-name-", 8)+".sgf")
	if err := os.WriteFile(long, []byte("nothing here"), 0o644); err != nil {
		t.Fatal(err)
	}
	phone.do(chromedp.SetUploadFiles(chromedp.CSS(`#im-files`), []string{record, long}))
	// The form says it is sending as soon as it is sent.
	phone.tapUntil(`#im-send`, "the files sent", `document.querySelector('#im-status').textContent !== ''`)
	phone.waitFor("the import's answer", `!!document.querySelector('#im-status .im-summary')`, 20*time.Second)
	phone.do(chromedp.ScrollIntoView(chromedp.CSS(`#im-status`)))
	if over := eval[[]string](phone, phoneOverflow); len(over) > 0 {
		t.Errorf("on a phone the import box sticks out: %v", over)
	}
	for _, p := range tabs {
		p.checkConsole()
	}
}
