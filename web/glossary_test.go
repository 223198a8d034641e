package web

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/games"
)

// glossary is, per language, the words the front end does not use because
// it calls the thing another way: one word per thing, so that a player
// meets "ficha" on the board and in the rules, never "disco" for it too.
// The words it uses: a Magneton stone, a Tumbling Down disk and a stack,
// a move, the board, a square.
var glossary = map[string]struct{ uses, not []string }{
	"en": {[]string{"stone", "disk", "stack", "move", "board", "square"}, []string{"disc", "discs", "piece", "pieces", "checker", "checkers", "counter", "counters"}},
	"es": {[]string{"piedra", "ficha", "pila", "jugada", "tablero", "casilla"}, []string{"disco", "discos", "movimiento", "movimientos", "pieza", "piezas"}},
	"it": {[]string{"pietra", "disco", "pila", "mossa", "scacchiera", "casa"}, []string{"pedina", "pedine", "tavoliere", "movimento", "movimenti", "pezzo", "pezzi"}},
	"eo": {[]string{"ŝtono", "disko", "stako", "movo", "tabulo", "kampo"}, []string{"peco", "pecoj", "ludtabulo", "ludtabulon", "ero", "eroj"}},
}

// allTexts is every text of a language: the catalogue's and each game
// module's and lesson module's (their texts), by key.
func allTexts(t *testing.T, lang string) map[string]string {
	t.Helper()
	file := "js/i18n/" + lang + ".js"
	out := strs(t, file, catalogue(t, file, "export default"))
	for _, name := range frontEndGames(t) {
		for _, f := range []string{"js/games/" + name + ".js", "js/games/" + name + "-learn.js", "js/games/" + name + "-lessons.js"} {
			src, err := fs.ReadFile(Files, f)
			if err != nil || !strings.Contains(string(src), "export const texts =") {
				continue
			}
			var m map[string]string
			if err := json.Unmarshal(catalogue(t, f, "export const texts =")[lang], &m); err != nil {
				t.Fatalf("%s: texts.%s: %v", f, lang, err)
			}
			for k, v := range m {
				out[k] = v
			}
		}
	}
	return out
}

// TestGlossary checks that each language says one thing one way: none of
// its texts uses a word of its glossary's "not" list, each word it uses is
// used, and a game that has a name of its own in a language (its Spec's
// Titles: Demolición in Spanish) is never called by its English title
// there.
func TestGlossary(t *testing.T) {
	for _, lang := range langs {
		g := glossary[lang]
		texts := allTexts(t, lang)
		var all strings.Builder
		for _, v := range texts {
			all.WriteString(v + "\n")
		}
		for _, w := range g.uses {
			if !regexp.MustCompile(`(?i)(^|[^\pL])` + w).MatchString(all.String()) {
				t.Errorf("%s: the glossary's %q is in no text", lang, w)
			}
		}
		// A game's title is a name, capitalised ("magneton" is a magnet in
		// Esperanto's accusative); the glossary's words are any case.
		not := map[string]string{}
		for _, w := range g.not {
			not["(?i)"+w] = "the glossary says otherwise"
		}
		for _, gm := range games.All() {
			if own, ok := gm.Spec.Titles[lang]; ok && own != gm.Spec.Title {
				not[regexp.QuoteMeta(gm.Spec.Title)] = "the game is " + own + " in this language"
			}
		}
		for w, why := range not {
			re := regexp.MustCompile(`(^|[^\pL])` + w + `($|[^\pL])`)
			for k, v := range texts {
				if re.MatchString(v) {
					t.Errorf("%s: %q says %q (%s): %s", lang, k, w, why, v)
				}
			}
		}
	}
}

// TestGameNamesOfTheSources checks the games' names in other languages
// against the sources of their rules (the Spanish description of Tumbling
// Down is "Demolición", the Esperanto one of Magneton "Magneto").
func TestGameNamesOfTheSources(t *testing.T) {
	want := map[string]map[string]string{
		"tumbling-down": {"es": "Demolición"},
		"magneton":      {"eo": "Magneto"},
	}
	for _, gm := range games.All() {
		for lang, name := range want[gm.Spec.Name] {
			if got := gm.Spec.Titles[lang]; got != name {
				t.Errorf("%s in %s is %q, want %q", gm.Spec.Name, lang, got, name)
			}
		}
	}
}
