package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// homeDrawn holds once the home page's new-game form is drawn. The form
// waits for the games' words to load and then pushes the cards below it
// (learning, the daily puzzle) down: a click on those before it lands on
// the form.
const homeDrawn = `!!document.querySelector('.create-form #start')`

// boardPlay plays a move on a board inside scope (".lesson", ".puzzle-board")
// by clicks (taps on a phone), picking the step or the tumble when the
// board asks.
func (p *page) boardPlay(scope, move string) {
	p.t.Helper()
	sq := func(s string) string { return fmt.Sprintf(`%s .board .sq[data-sq=%q]`, scope, s) }
	p.waitFor("the board to take a move", fmt.Sprintf(`document.querySelector(%q + ' .board.interactive')`, scope), 10*time.Second)
	if len(move) == 2 {
		p.press(sq(move))
		return
	}
	from, to := move[:2], move[3:]
	p.press(sq(from))
	p.waitFor("the piece on "+from+" to be selected", fmt.Sprintf(`document.querySelector(%q).classList.contains('selected')`, sq(from)), 5*time.Second)
	p.press(sq(to))
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

// lessonMsg waits for the lesson's message of a kind (right, wrong) and returns its text.
func (p *page) lessonMsg(kind string) string {
	p.t.Helper()
	p.waitFor("the lesson to say "+kind, fmt.Sprintf(`document.querySelector('.lesson .lesson-msg.%s p')`, kind), 10*time.Second)
	return eval[string](p, `document.querySelector('.lesson .lesson-msg').textContent`)
}

// openLesson waits for the lesson id to be shown with its board ready.
func (p *page) openLesson(id string) {
	p.t.Helper()
	p.waitFor("the lesson "+id, fmt.Sprintf(`document.querySelector('.lesson[data-lesson=%q] .board.interactive')`, id), 10*time.Second)
}

// TestBrowserLessons: a newcomer follows the home page's link to the
// Magneton lessons; a wrong drop is refused with the lesson's explanation
// and the board offers the position again; the right answers of the first
// three lessons are accepted by the rules engine, and the progress is kept
// over a reload (the fourth lesson opens, the first three marked solved).
// In Tumbling Down, a tumble where a step was asked is explained, and the
// step (chosen in the board's popup) accepted.
func TestBrowserLessons(t *testing.T) {
	base := startServer(t)
	p := tab(t, browser(t), "newcomer")
	p.goTo(base + "/")
	p.waitFor("the home page's link to the lessons", homeDrawn+` && document.querySelector('.learn-home a[href="/learn/magneton"]')`, 10*time.Second)
	p.click(`.learn-home a[href="/learn/magneton"]`)
	p.waitFor("the rules page", `location.pathname === '/learn/magneton' && document.querySelector('.rules .diagram .board')`, 10*time.Second)
	if n := eval[int](p, `document.querySelectorAll('.rules .diagram .board').length`); n < 4 {
		t.Errorf("the rules show %d diagrams, want at least 4", n)
	}
	if !eval[bool](p, `(e => e && e.textContent.includes('does not win'))(document.querySelector('.rules-section.surprise'))`) {
		t.Error("the rules do not explain that a row made by hand does not win")
	}
	if got := eval[[]string](p, `[...document.querySelectorAll('.variant-list li')].map(li => li.dataset.variant)`); !slices.Equal(got, []string{"standard", "weak-force"}) {
		t.Errorf("the variants listed are %q", got)
	}
	magnetonLessons(t, p)
	magnetonDefence(t, p)

	// Tumbling Down: step, not tumble.
	p.goTo(base + "/learn/tumbling-down")
	p.openLesson("step")
	p.boardPlay(".lesson", "d4>e5")
	if msg := p.lessonMsg("wrong"); !strings.Contains(msg, "That was a tumble") {
		t.Errorf("the tumble is explained as %q", msg)
	}
	p.click(".lesson .retry")
	p.openLesson("step")
	p.boardPlay(".lesson", "d4-e5")
	p.lessonMsg("right")
	p.click(".lesson .next")
	p.openLesson("tumble")
	p.checkConsole()
}

// magnetonLessons solves Magneton's first three lessons: in the first a
// wrong drop is explained and the board takes no move before Try again,
// then the hint and the right drop, whose stones are where the rules
// engine puts them; in the third a row made by hand is explained.
func magnetonLessons(t *testing.T, p *page) {
	t.Helper()
	p.openLesson("drop")
	p.boardPlay(".lesson", "a1")
	msg := p.lessonMsg("wrong")
	if !strings.Contains(msg, "Only the first stone on each line feels the magnet") {
		t.Errorf("the wrong drop is explained as %q", msg)
	}
	if eval[bool](p, `document.querySelector('.lesson .board').classList.contains('interactive')`) {
		t.Error("the board still takes moves after a wrong answer, before Try again")
	}
	p.click(".lesson .retry")
	p.openLesson("drop")
	p.click(".lesson .lesson-side .btn.small") // the hint
	p.waitFor("the hint", `!document.querySelector('.lesson .lesson-hint').hidden`, 5*time.Second)
	p.boardPlay(".lesson", "d4")
	if msg := p.lessonMsg("right"); !strings.Contains(msg, "pulls f6 to e5") {
		t.Errorf("the right drop is explained as %q", msg)
	}
	// The squares say, in words, where the stones now stand (the board's name is no position text).
	p.waitFor("the stone pulled to e5", `(q => q('e5') === 'e5, black stone' && q('f6') === 'f6, empty' && q('d4').startsWith('d4, white stone'))((sq) => document.querySelector('.lesson .board .sq[data-sq="' + sq + '"]').getAttribute('aria-label'))`, 5*time.Second)
	p.click(".lesson .next")
	p.openLesson("move")
	p.boardPlay(".lesson", "d4-c4")
	p.lessonMsg("right")
	p.click(".lesson .next")
	p.openLesson("line")
	p.boardPlay(".lesson", "d3")
	if msg := p.lessonMsg("wrong"); !strings.Contains(msg, "by hand") {
		t.Errorf("the drop on d3 is explained as %q", msg)
	}
	p.click(".lesson .retry")
	p.openLesson("line")
	p.boardPlay(".lesson", "b3")
	p.lessonMsg("right")
}

// magnetonDefence: the progress survives a reload (the fourth lesson
// opens, the first three marked solved); a wrong defence gets the
// engine's winning answer for Black, and the right one is accepted.
func magnetonDefence(t *testing.T, p *page) {
	t.Helper()
	p.do(chromedp.Reload())
	p.openLesson("defend")
	if got := eval[[]string](p, `[...document.querySelectorAll('.lesson-list li.done')].map(li => li.dataset.lesson)`); !slices.Equal(got, []string{"drop", "move", "line"}) {
		t.Errorf("after a reload the lessons solved are %q", got)
	}
	p.boardPlay(".lesson", "e3-e1")
	p.waitFor("Black's answer", `(e => e && e.textContent.includes('Black answers d1 and wins'))(document.querySelector('.lesson .lesson-msg'))`, 10*time.Second)
	p.click(".lesson .retry")
	p.openLesson("defend")
	p.boardPlay(".lesson", "a8-c6")
	p.lessonMsg("right")
}

// puzzleInfo is what the tests read of a puzzle.
type puzzleInfo struct {
	ID     string     `json:"id"`
	Game   string     `json:"game"`
	WinIn  int        `json:"win_in"`
	Line   []string   `json:"line"`
	Accept [][]string `json:"accept"`
	Legal  [][]string `json:"legal"`
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %s", url, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

func (p *page) shownPuzzle(base string) puzzleInfo {
	p.t.Helper()
	p.waitFor("a puzzle", `document.querySelector('.puzzles-page[data-puzzle] .pz-board .board.interactive')`, 10*time.Second)
	var pz puzzleInfo
	getJSON(p.t, base+"/api/puzzles/"+eval[string](p, `document.querySelector('.puzzles-page').dataset.puzzle`), &pz)
	return pz
}

// TestBrowserPuzzles: the home page shows the daily puzzle on a board and
// its link opens it; an account solves a Magneton puzzle on the board (the
// line's replies played for it) and sees its new puzzle rating, then fails
// the next one, which shows the solution and moves the rating again.
func TestBrowserPuzzles(t *testing.T) {
	base := startServer(t)
	p := tab(t, browser(t), "solver")
	var daily puzzleInfo
	getJSON(t, base+"/api/puzzles/daily", &daily)
	p.goTo(base + "/")
	p.waitFor("the daily puzzle", homeDrawn+fmt.Sprintf(` && document.querySelector('.daily-puzzle[data-puzzle=%q] .board')`, daily.ID), 10*time.Second)
	p.click(".daily-puzzle a.btn")
	p.waitFor("the daily puzzle's page", fmt.Sprintf(`document.querySelector('.puzzles-page[data-puzzle=%q]')`, daily.ID), 10*time.Second)

	p.signUp(base, "solver", "puzzle-pass-1")
	// A Magneton puzzle of more than one move, when there is one.
	var list struct {
		Puzzles []puzzleInfo `json:"puzzles"`
	}
	getJSON(t, base+"/api/puzzles?game=magneton", &list)
	id := list.Puzzles[0].ID
	for _, s := range list.Puzzles {
		if s.WinIn == 2 {
			id = s.ID
			break
		}
	}
	p.goTo(base + "/puzzles?id=" + id)
	p.waitFor("the guest's rating line to go", `(e => e && e.textContent.includes('first puzzle'))(document.querySelector('.pz-rating'))`, 10*time.Second)
	pz := p.shownPuzzle(base)
	for i := 0; i < len(pz.Line); i += 2 {
		p.boardPlay(".pz-board", pz.Line[i])
		if i+1 < len(pz.Line) {
			p.waitFor("the reply "+pz.Line[i+1], fmt.Sprintf(`(e => e && e.textContent.includes('Reply: %s'))(document.querySelector('.pz-msg')) && document.querySelector('.pz-board .board.interactive')`, pz.Line[i+1]), 10*time.Second)
		}
	}
	p.waitFor("the puzzle solved", `(e => e && e.textContent.includes('Solved'))(document.querySelector('.pz-msg.right'))`, 10*time.Second)
	p.waitFor("the new puzzle rating", `document.querySelector('.pz-rating[data-rated]') && /Your puzzle rating: \d+\?? \(\+\d+\)/.test(document.querySelector('.pz-rating').textContent)`, 10*time.Second)

	// The next one, failed.
	p.click(".pz-next")
	p.waitFor("another puzzle", fmt.Sprintf(`(d => d && d !== %q)(document.querySelector('.puzzles-page').dataset.puzzle)`, id), 10*time.Second)
	next := p.shownPuzzle(base)
	wrong := ""
	for _, m := range next.Legal[0] {
		if !slices.Contains(next.Accept[0], m) {
			wrong = m
			break
		}
	}
	if wrong == "" {
		t.Fatalf("puzzle %s accepts every legal move", next.ID)
	}
	p.boardPlay(".pz-board", wrong)
	// The miss is refuted on the board; the solution waits to be asked for.
	p.waitFor("the miss", `document.querySelector('.pz-msg.wrong .pz-refutation') && !document.querySelector('.pz-solution').hidden`, 20*time.Second)
	p.waitFor("the rating down", `/Your puzzle rating: \d+\?? \(-\d+\)/.test((document.querySelector('.pz-rating') || {}).textContent)`, 10*time.Second)
	p.click(".pz-solution")
	p.waitFor("the solution's first move", fmt.Sprintf(`(e => e && e.textContent.includes('The solution starts with %s'))(document.querySelector('.pz-msg.wrong'))`, next.Line[0]), 10*time.Second)
	p.waitFor("the solution's line", `document.querySelector('.pz-line')`, 20*time.Second)
	p.checkConsole()
}

// TestBrowserLanguages: the header's switch turns the lessons page into
// Spanish (the header, the rules, the lesson) with no key or "undefined"
// left on the page, kept over a reload; a wrong move's explanation comes in
// Spanish too; Italian and Esperanto switch the home page.
func TestBrowserLanguages(t *testing.T) {
	base := startServer(t)
	p := tab(t, browser(t), "reader")
	p.goTo(base + "/learn/magneton")
	p.openLesson("drop")
	english := eval[string](p, `document.querySelector('.lesson-task').textContent`)
	p.cleanPage(t, "English")
	lessonsInSpanish(t, p, english)
	pagesInSpanish(t, p, base)
	homeInOtherLanguages(t, p, base)
	gamePageInEsperanto(t, p)
	p.checkConsole()
}

// chooseLang picks a language with the header's switch.
func (p *page) chooseLang(code string) {
	p.t.Helper()
	p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(s => { s.value = %q; s.dispatchEvent(new Event('change')); })(document.querySelector('#lang'))`, code)))
}

// cleanPage checks that nothing is left untranslated on the page: no key
// (a word.word name), no "undefined", no key asked for that a catalogue
// lacks.
func (p *page) cleanPage(t *testing.T, where string) {
	t.Helper()
	bad := eval[[]string](p, `(() => {
		const text = document.body.innerText;
		const out = [];
		if (/undefined|NaN/.test(text)) out.push('undefined or NaN');
		for (const m of text.match(/\b(?:nav|learn|pz|lang|mg|td)\.[a-z][\w.-]*/g) || []) out.push(m);
		for (const k of window.i18nMissing || []) out.push('missing ' + k);
		return out;
	})()`)
	if len(bad) > 0 {
		t.Errorf("%s: the page shows %q", where, bad)
	}
}

// lessonsInSpanish: the switch turns the lessons page into Spanish (the
// header, the rules and their options in words, the lesson), kept over a
// reload; a wrong move's explanation comes in Spanish too.
func lessonsInSpanish(t *testing.T, p *page, english string) {
	t.Helper()
	p.chooseLang("es")
	p.waitFor("the page in Spanish", `document.documentElement.lang === 'es' && document.querySelector('.learn-page h1').textContent === 'Cómo se juega a Magneton' && document.querySelector('.lesson[data-lesson] .board.interactive')`, 10*time.Second)
	if got := eval[string](p, `document.querySelector('.site-nav a[data-nav=learn]').textContent`); got != "Aprender" {
		t.Errorf("the header's Learn link says %q in Spanish", got)
	}
	if got := eval[string](p, `document.querySelector('.lesson-task').textContent`); got == english || !strings.Contains(got, "Coloca una piedra") {
		t.Errorf("the lesson's task in Spanish is %q", got)
	}
	p.cleanPage(t, "Spanish")
	// The rule options in words, the rules text's names beside them.
	p.waitFor("the options in Spanish", `(e => e && e.querySelector('strong').textContent === 'Qué líneas ganan' && e.querySelector('code').textContent === 'win=mover-only|owner-wins')(document.querySelector('.option-list dt[data-option=win]'))`, 10*time.Second)
	p.do(chromedp.Reload())
	p.openLesson("drop")
	if got := eval[string](p, `document.querySelector('.learn-page h1').textContent`); got != "Cómo se juega a Magneton" {
		t.Errorf("after a reload the heading is %q", got)
	}
	p.boardPlay(".lesson", "a1")
	if msg := p.lessonMsg("wrong"); !strings.Contains(msg, "Solo la primera piedra") {
		t.Errorf("the wrong drop is explained in Spanish as %q", msg)
	}
	p.cleanPage(t, "Spanish, a wrong move")
}

// pagesInSpanish: the other pages in Spanish: the leaderboard, the account
// box, a form's refusal (the server names it, name_length; the page words
// it, and the field it is about is marked), the archive, a profile.
func pagesInSpanish(t *testing.T, p *page, base string) {
	t.Helper()
	p.goTo(base + "/#/leaderboard")
	p.waitFor("the leaderboard in Spanish", `(e => e && e.textContent === 'Clasificación')(document.querySelector('#leaderboard-title'))`, 10*time.Second)
	p.waitFor("the account box in Spanish", `(e => e && e.textContent === 'Registrarse')(document.querySelector('#signup-open'))`, 10*time.Second)
	p.cleanPage(t, "Spanish leaderboard")
	p.click("#signup-open")
	p.waitFor("the sign-up form", `document.querySelector('#account-dialog[open] #account-name')`, 5*time.Second)
	p.typeInto("#account-name", "x")
	p.typeInto("#account-password", "una-clave-larga\n")
	p.waitFor("the name refused in Spanish", `(e => e && e.textContent === 'Un nombre de usuario tiene de 2 a 20 caracteres; «x» tiene 1.')(document.querySelector('#account-error')) && document.querySelector('#account-name').getAttribute('aria-invalid') === 'true'`, 10*time.Second)
	p.cleanPage(t, "Spanish sign-up refused")
	p.click("#account-cancel")
	p.waitFor("the form closed", `!document.querySelector('#account-dialog[open]')`, 5*time.Second)
	p.goTo(base + "/#/archive")
	p.waitFor("the archive in Spanish", `(e => e && e.textContent === 'Partidas terminadas')(document.querySelector('#archive-title'))`, 10*time.Second)
	p.cleanPage(t, "Spanish archive")
	p.goTo(base + "/@/nobody-here")
	p.waitFor("the missing profile in Spanish", `(e => e && e.textContent === 'Ese jugador no existe')(document.querySelector('.profile h1'))`, 10*time.Second)
	p.cleanPage(t, "Spanish profile")
}

// homeInOtherLanguages: Italian and Esperanto switch the home page; in
// Italian the new-game form's rule options and variants are in words, from
// the game's learning module; back in English, an option's value too.
func homeInOtherLanguages(t *testing.T, p *page, base string) {
	t.Helper()
	p.goTo(base + "/")
	p.waitFor("the home page", `document.querySelector('.learn-home h2')`, 10*time.Second)
	for _, c := range []struct{ code, title string }{{"it", "Nuovo di questi giochi?"}, {"eo", "Ĉu nova en ĉi tiuj ludoj?"}, {"en", "New to these games?"}} {
		p.chooseLang(c.code)
		p.waitFor("the home page in "+c.code, fmt.Sprintf(`document.querySelector('.learn-home h2') && document.querySelector('.learn-home h2').textContent === %q`, c.title), 10*time.Second)
		p.cleanPage(t, c.code)
		if c.code == "it" {
			p.waitFor("the options in Italian", `(e => e && e.textContent === 'Quali file vincono')(document.querySelector('[data-option=win] label'))`, 10*time.Second)
			p.waitFor("the variants in Italian", `(o => !!o && /questa pagina/.test(o.textContent))(document.querySelector('#variant option[value=standard]'))`, 10*time.Second)
		}
	}
	if got := eval[string](p, `document.querySelector('[data-option=win] select option[value=owner-wins]').textContent`); got != "the owner's too" {
		t.Errorf("the option win=owner-wins is shown as %q", got)
	}
}

// gamePageInEsperanto: a game against the computer in Esperanto: the
// status, the buttons, the sides' and players' names (which the server
// gives in English), no English text left, and a refusal of the server
// (chat_fast) worded from the catalogue.
func gamePageInEsperanto(t *testing.T, p *page) {
	t.Helper()
	p.chooseLang("eo")
	p.waitFor("the form in Esperanto", `(e => e && e.textContent === 'Ludi kontraŭ la komputilo')(document.querySelector('#start'))`, 10*time.Second)
	p.click("#start")
	p.waitFor("the game page in Esperanto", `location.pathname.startsWith('/g/') && (e => e && /Via vico|movas/.test(e.textContent))(document.querySelector('.status'))`, 20*time.Second)
	p.waitFor("the game's buttons in Esperanto", `[...document.querySelectorAll('button')].some(b => b.textContent === 'Sono ŝaltita' || b.textContent === 'Sono malŝaltita')`, 10*time.Second)
	p.cleanPage(t, "Esperanto game page")
	p.waitFor("the sides in Esperanto", `[...document.querySelectorAll('.side-name')].length === 2 && [...document.querySelectorAll('.side-name')].every(e => /Blanko|Nigro|Ruĝo/.test(e.textContent))`, 10*time.Second)
	p.waitFor("the players in Esperanto", `(n => n.some(e => /^komputilo \(nivelo \d\)$/.test(e.textContent)) && n.some(e => e.textContent === 'vi'))([...document.querySelectorAll('.player-name')])`, 10*time.Second)
	if bad := eval[[]string](p, englishLeft("eo", "magneton")); len(bad) > 0 {
		t.Errorf("the game page in Esperanto shows English: %q", bad)
	}
	p.waitFor("the chat's input", `!!document.querySelector('#chat-input')`, 10*time.Second)
	for i := range 6 {
		p.say(fmt.Sprintf("saluton %d", i))
	}
	p.waitFor("the chat's pace refused in Esperanto", `[...document.querySelectorAll('.toast.error')].some(e => e.textContent.includes('Tro da mesaĝoj; atendu momenton.'))`, 10*time.Second)
}

// TestBrowserLessonsOnAccount: the lesson a guest solved becomes the
// account's when it signs up, and another browser logged in to the account
// finds it solved (and the next lesson opened); a lesson solved while
// logged in is kept on the account too.
func TestBrowserLessonsOnAccount(t *testing.T) {
	base := startServer(t)
	bctx := browser(t)
	p := tab(t, bctx, "learner")
	p.goTo(base + "/learn/magneton")
	p.openLesson("drop")
	p.boardPlay(".lesson", "d4")
	p.lessonMsg("right")
	p.signUp(base, "learner", "lessons-pass-1")
	p.goTo(base + "/learn/magneton")
	p.openLesson("move")
	p.boardPlay(".lesson", "d4-c4")
	p.lessonMsg("right")
	p.waitFor("the progress saved", `window.learnSaving === 0`, 10*time.Second)

	q := tab(t, bctx, "elsewhere")
	q.goTo(base + "/")
	q.waitGuest()
	q.click("#login-open")
	q.waitFor("the log-in form", `document.querySelector('#account-dialog[open] #account-name')`, 5*time.Second)
	q.typeInto("#account-name", "learner")
	q.typeInto("#account-password", "lessons-pass-1\n")
	q.waitAccount("learner")
	q.goTo(base + "/learn/magneton")
	q.openLesson("line")
	if got := eval[[]string](q, `[...document.querySelectorAll('.lesson-list li.done')].map(li => li.dataset.lesson)`); !slices.Equal(got, []string{"drop", "move"}) {
		t.Errorf("the other browser finds the lessons %q solved", got)
	}
	p.checkConsole()
	q.checkConsole()
}

// englishLeft is a script that returns the English texts the page shows
// in place of the language in use: every text of the English catalogue and
// of the game's learning module (its drills' and quiz's too) that the
// language words otherwise, cut at
// its first placeholder and at least 12 characters long, found in the
// page's text.
func englishLeft(lang, game string) string {
	return fmt.Sprintf(`(async () => {
		const en = (await import('/js/i18n/en.js')).default;
		const other = (await import('/js/i18n/%[1]s.js')).default;
		const g = await import('/js/games/%[2]s-learn.js');
		const more = (lang) => Object.assign({}, ...(g.moreTexts || []).map((x) => x[lang]));
		const enAll = { ...en, ...g.texts.en, ...more('en') }, otherAll = { ...other, ...g.texts.%[1]s, ...more('%[1]s') };
		const text = document.body.innerText;
		const out = [];
		for (const [k, v] of Object.entries(enAll)) {
			if (otherAll[k] === v) continue;
			const head = v.split('{')[0].trim();
			if (head.length >= 12 && text.includes(head)) out.push(k + ': ' + head);
		}
		return out;
	})()`, lang, game)
}

// TestBrowserSpanishNewcomer: the newcomer again, in Spanish
// after the header's switch: from the home page to the Magneton lessons,
// the first three solved by clicking (a wrong answer explained in
// Spanish), then a puzzle solved; at every step the page shows no English
// text of the catalogues, no key and no "undefined".
func TestBrowserSpanishNewcomer(t *testing.T) {
	base := startServer(t)
	p := tab(t, browser(t), "recién llegado")
	p.goTo(base + "/")
	p.waitFor("the language switch", `document.querySelector('#lang')`, 10*time.Second)
	p.do(chromedp.Evaluate[chromedp.Void](`(s => { s.value = 'es'; s.dispatchEvent(new Event('change')); })(document.querySelector('#lang'))`))
	p.waitFor("the home page in Spanish", `document.documentElement.lang === 'es' && (e => e && e.textContent === '¿Nuevo en estos juegos?')(document.querySelector('.learn-home h2'))`, 10*time.Second)
	clean := func(where string) {
		t.Helper()
		bad := eval[[]string](p, englishLeft("es", "magneton"))
		bad = append(bad, eval[[]string](p, `(() => {
			const text = document.body.innerText;
			const out = [];
			if (/undefined|NaN/.test(text)) out.push('undefined or NaN');
			for (const m of text.match(/\b(?:nav|learn|pz|lang|mg|td|home|err|acc|gm)\.[a-z][\w.-]*/g) || []) out.push(m);
			for (const k of window.i18nMissing || []) out.push('missing ' + k);
			return out;
		})()`)...)
		if len(bad) > 0 {
			t.Errorf("%s: the page shows %q", where, bad)
		}
	}
	p.waitFor("the home page's link to the lessons", homeDrawn+` && document.querySelector('.learn-home a[href="/learn/magneton"]')`, 10*time.Second)
	clean("the home page")

	p.click(`.learn-home a[href="/learn/magneton"]`)
	p.openLesson("drop")
	p.waitFor("the lessons in Spanish", `document.querySelector('.learn-page h1').textContent === 'Cómo se juega a Magneton'`, 10*time.Second)
	clean("the rules and the first lesson")
	p.boardPlay(".lesson", "a1")
	if msg := p.lessonMsg("wrong"); !strings.Contains(msg, "Solo la primera piedra") {
		t.Errorf("the wrong drop is explained as %q", msg)
	}
	clean("a wrong drop")
	p.click(".lesson .retry")
	p.openLesson("drop")
	p.boardPlay(".lesson", "d4")
	p.lessonMsg("right")
	clean("the first lesson solved")
	for _, l := range []struct{ id, move string }{{"move", "d4-c4"}, {"line", "b3"}} {
		p.click(".lesson .next")
		p.openLesson(l.id)
		p.boardPlay(".lesson", l.move)
		p.lessonMsg("right")
		clean("the lesson " + l.id + " solved")
	}
	if got := eval[[]string](p, `[...document.querySelectorAll('.lesson-list li.done')].map(li => li.dataset.lesson)`); !slices.Equal(got, []string{"drop", "move", "line"}) {
		t.Errorf("the lessons solved are %q", got)
	}

	// A puzzle: a Magneton win in one, from the list.
	var list struct {
		Puzzles []puzzleInfo `json:"puzzles"`
	}
	getJSON(t, base+"/api/puzzles?game=magneton", &list)
	id := ""
	for _, s := range list.Puzzles {
		if s.WinIn == 1 {
			id = s.ID
			break
		}
	}
	if id == "" {
		t.Fatal("no Magneton puzzle is a win in one")
	}
	p.goTo(base + "/puzzles?id=" + id)
	pz := p.shownPuzzle(base)
	p.waitFor("the puzzle's task in Spanish", `(e => e && /ganan en 1/.test(e.textContent))(document.querySelector('.puzzles-page'))`, 10*time.Second)
	clean("the puzzle")
	p.boardPlay(".pz-board", pz.Line[0])
	p.waitFor("the puzzle solved in Spanish", `(e => e && e.textContent.includes('¡Resuelto!'))(document.querySelector('.pz-msg.right'))`, 10*time.Second)
	clean("the puzzle solved")
	p.checkConsole()
}
