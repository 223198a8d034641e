package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestBrowserWording checks, in the page's own modules, the wording that
// depends on the language: plural forms chosen by the language's rules
// (Intl.PluralRules), a side's agreement in a sentence, dates in the
// site's language rather than the browser's (which is English here), a
// server's reason worded from its code, and a missing game's page.
func TestBrowserWording(t *testing.T) {
	base, tabs := openTabs(t, "reader")
	p := tabs[0]
	p.goTo(base + "/#/archive")
	p.waitFor("the page", `document.querySelector('table.games')`, 10*time.Second)
	for _, c := range []struct {
		lang, what, expr, want string
	}{
		{"es", "a puzzle played once", `m.tn('pz.info', 1, { id: 'x', rating: 1500 })`, "Problema x · valoración 1500 · jugado 1 vez"},
		{"it", "a puzzle played once", `m.tn('pz.info', 1, { id: 'x', rating: 1500 })`, "Problema x · punteggio 1500 · giocato 1 volta"},
		{"en", "a puzzle played twice", `m.tn('pz.info', 2, { id: 'x', rating: 1500 })`, "Puzzle x · rated 1500 · played 2 times"},
		{"es", "a count written the Spanish way", `m.tn('pr.games', 1234)`, "1234 partidas"},
		{"en", "a count written the English way", `m.tn('pr.games', 1234)`, "1,234 games"},
		{"es", "a side's plural verb", `m.t('an.winsIn', { side: m.sideText('White'), n: 1 })`, "Las Blancas ganan en 1"},
		{"es", "both sides' articles", `m.t('mk.captured', { side: m.sideText('Red'), victim: m.sideText('Black'), squares: 'a4' })`, "Las Rojas capturaron el Rey de las Negras en a4"},
		{"es", "a day in Spanish", `d.formatDay('2026-12-03T12:00:00Z')`, "3 dic 2026"},
		{"it", "a day in Italian", `d.formatDay('2026-12-03T12:00:00Z')`, "3 dic 2026"},
		{"es", "a reason worded from its code", `m.serverText('zz9: "zz9": not a drop', 'illegal_move', { move: 'zz9', why: 'not a drop', why_code: 'mg_not_drop_or_move' })`, "zz9: no es una colocación como d4 ni una jugada como d4-a1"},
		{"en", "a reason said once", `m.serverText('zz9: "zz9": not a drop', 'illegal_move', { move: 'zz9', why: 'not a drop like d4 or a move like d4-a1', why_code: 'mg_not_drop_or_move' })`, "zz9: not a drop like d4 or a move like d4-a1"},
		{"es", "a position's mistake", `m.serverText('position: …', 'bad_position', { why: "rank 1: '9' is not W", why_code: 'mg_rank_char', rank: '1', char: '9' })`, "La posición no es válida: fila 1: «9» no es W, B ni una cifra del 1 al 8"},
	} {
		t.Run(c.lang+": "+c.what, func(t *testing.T) {
			expr := fmt.Sprintf(`Promise.all([import('/js/i18n.js'), import('/js/dom.js')]).then(([m, d]) => { m.setLang(%q); return %s; })`, c.lang, c.expr)
			got := eval[string](p, expr)
			// Intl may write a narrow space or a dot in a date.
			if norm := strings.NewReplacer("\u202f", " ", "\u00a0", " ", ".", ""); norm.Replace(got) != norm.Replace(c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	missingGame(t, p, base)
	p.checkConsole()
}

// missingGame: a game that is not there says so once, in its heading, and
// then what may have happened, not "no such game" again; a malformed id
// too.
func missingGame(t *testing.T, p *page, base string) {
	t.Helper()
	eval[bool](p, `import('/js/i18n.js').then((m) => { m.setLang('en'); return true; })`)
	for _, id := range []string{"AAAAAAAAAAAAAAAA", "zz"} {
		p.goTo(base + "/g/" + id)
		p.waitFor("the missing game's page", `document.querySelector('.not-found h1')`, 10*time.Second)
		h1 := eval[string](p, `document.querySelector('.not-found h1').textContent`)
		text := eval[string](p, `document.querySelector('.not-found p').textContent`)
		if h1 != "No such game" || strings.Contains(strings.ToLower(text), "no such game") {
			t.Errorf("/g/%s says %q, then %q", id, h1, text)
		}
	}
}
