package web

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/puzzle"
)

// langs are the front end's languages (js/i18n.js's LANGS).
var langs = []string{"en", "es", "it", "eo"}

// catalogue reads the JSON object that follows prefix in a module's source.
func catalogue(t *testing.T, file, prefix string) map[string]json.RawMessage {
	t.Helper()
	src, err := fs.ReadFile(Files, file)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	i := strings.Index(s, prefix)
	if i < 0 {
		t.Fatalf("%s has no %q", file, prefix)
	}
	var m map[string]json.RawMessage
	if err := json.NewDecoder(strings.NewReader(s[i+len(prefix):])).Decode(&m); err != nil {
		t.Fatalf("%s: the object after %q is not JSON: %v", file, prefix, err)
	}
	return m
}

// texts checks that every language has the same keys, each a non-empty
// text whose {placeholders} are among the English text's.
func texts(t *testing.T, where string, byLang map[string]map[string]string) {
	t.Helper()
	en := byLang["en"]
	if len(en) == 0 {
		t.Fatalf("%s: no English texts", where)
	}
	ph := regexp.MustCompile(`\{\w+\}`)
	for _, l := range langs {
		m, ok := byLang[l]
		if !ok {
			t.Errorf("%s: no %s texts", where, l)
			continue
		}
		for k, v := range en {
			tr, ok := m[k]
			if !ok {
				t.Errorf("%s: %s lacks %q", where, l, k)
				continue
			}
			if strings.TrimSpace(tr) == "" {
				t.Errorf("%s: %s's %q is empty", where, l, k)
			}
			// A translation may leave a placeholder out ("You resigned"
			// needs no {loser}), but not use one English does not fill.
			want := ph.FindAllString(v, -1)
			for _, p := range ph.FindAllString(tr, -1) {
				if !slices.Contains(want, p) {
					t.Errorf("%s: %s's %q has the placeholder %s, which English has not", where, l, k, p)
				}
			}
		}
		for k := range m {
			if _, ok := en[k]; !ok {
				t.Errorf("%s: %s has %q, which English has not", where, l, k)
			}
		}
	}
}

func strs(t *testing.T, file string, m map[string]json.RawMessage) map[string]string {
	t.Helper()
	out := map[string]string{}
	for k, v := range m {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			t.Errorf("%s: %q is not a string: %v", file, k, err)
		}
		out[k] = s
	}
	return out
}

// TestCatalogues checks that every key of the front end's catalogues
// (js/i18n/<lang>.js) and of each game's rules and lessons
// (js/games/<name>-learn.js, its texts) is in every language, and that
// every key the front end asks for with t('key') is in the catalogues.
func TestCatalogues(t *testing.T) {
	byLang := map[string]map[string]string{}
	for _, l := range langs {
		file := "js/i18n/" + l + ".js"
		byLang[l] = strs(t, file, catalogue(t, file, "export default"))
	}
	texts(t, "js/i18n", byLang)

	all := map[string]bool{}
	for k := range byLang["en"] {
		all[k] = true
	}
	for _, name := range frontEndGames(t) {
		learn := checkGameTexts(t, "js/games/"+name+"-learn.js", all)
		// Its drills and quiz, when the lesson module has them apart.
		if _, err := fs.Stat(Files, "js/games/"+name+"-lessons.js"); err == nil {
			for k := range checkGameTexts(t, "js/games/"+name+"-lessons.js", all) {
				if learn[k] {
					t.Errorf("js/games/%s-lessons.js: %q is also a key of %s-learn.js", name, k, name)
				}
				learn[k] = true
			}
		}
		// A game module's own words (its texts, optional).
		file := "js/games/" + name + ".js"
		if src, err := fs.ReadFile(Files, file); err == nil && strings.Contains(string(src), "export const texts =") {
			own := checkGameTexts(t, file, all)
			for k := range own {
				if learn[k] {
					t.Errorf("%s: %q is also a key of its lesson module", file, k)
				}
			}
		}
	}
	err := fs.WalkDir(Files, "js", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") || strings.HasPrefix(p, "js/games/") {
			return err
		}
		src, err := fs.ReadFile(Files, p)
		if err != nil {
			return err
		}
		checkAskedKeys(t, p, string(src), all)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkGameTexts checks the texts of a game's module or lesson module
// (export const texts): every key in every language, every key the module
// names one of them or of the catalogues (all), none of them a key of the
// catalogues. It returns the module's keys.
func checkGameTexts(t *testing.T, file string, all map[string]bool) map[string]bool {
	t.Helper()
	if _, err := fs.Stat(Files, file); err != nil {
		t.Errorf("no rules and lessons: %v", err)
		return nil
	}
	raw := catalogue(t, file, "export const texts =")
	game := map[string]map[string]string{}
	for l, v := range raw {
		var m map[string]string
		if err := json.Unmarshal(v, &m); err != nil {
			t.Errorf("%s: texts.%s: %v", file, l, err)
		}
		game[l] = m
	}
	texts(t, file, game)
	src, _ := fs.ReadFile(Files, file)
	// Every key the module names ('xx.yy') is one of its texts (or, in a
	// game module, of the catalogues: the board words of the first games).
	for _, m := range regexp.MustCompile(`'([a-z]{2}\.[\w.-]+)'`).FindAllStringSubmatch(string(src), -1) {
		if _, ok := game["en"][m[1]]; !ok && (strings.HasSuffix(file, "-learn.js") || !all[m[1]]) {
			t.Errorf("%s names the text %q, which it does not have", file, m[1])
		}
	}
	keys := map[string]bool{}
	for k := range game["en"] {
		keys[k] = true
		if all[k] {
			t.Errorf("%s: %q is also a key of the catalogues", file, k)
		}
	}
	return keys
}

var (
	askT  = regexp.MustCompile(`\bt\('([^']+)'`)
	askTn = regexp.MustCompile(`\btn\('([^']+)'`)
)

// checkAskedKeys checks that every t('key') and tn('key', ...) of a module
// outside js/games is a key of the catalogues (all).
func checkAskedKeys(t *testing.T, p, src string, all map[string]bool) {
	t.Helper()
	for _, m := range askT.FindAllStringSubmatch(src, -1) {
		if strings.HasSuffix(m[1], ".") {
			// A key made at run time ('end.' + reason): some keys have that prefix.
			found := false
			for k := range all {
				found = found || strings.HasPrefix(k, m[1])
			}
			if !found {
				t.Errorf("%s asks for texts %q..., which js/i18n/en.js has none of", p, m[1])
			}
			continue
		}
		if !all[m[1]] {
			t.Errorf("%s asks for the text %q, which js/i18n/en.js has not", p, m[1])
		}
	}
	for _, m := range askTn.FindAllStringSubmatch(src, -1) {
		for _, form := range []string{".one", ".other"} {
			if !all[m[1]+form] {
				t.Errorf("%s asks for the text %q, which js/i18n/en.js has not", p, m[1]+form)
			}
		}
	}
}

// TestThemeTexts: every puzzle theme of every game, its own motifs
// (game.Spec.Motifs) included, has its text "pz.theme.<id>" in every
// language, so that a game registered with motifs needs its words here.
func TestThemeTexts(t *testing.T) {
	for _, l := range langs {
		file := "js/i18n/" + l + ".js"
		keys := strs(t, file, catalogue(t, file, "export default"))
		for _, g := range games.All() {
			for _, id := range puzzle.AllThemes(g.Spec.Name) {
				if keys["pz.theme."+id] == "" {
					t.Errorf("%s: no text for the %s puzzle theme %q (key pz.theme.%s)", file, g.Spec.Name, id, id)
				}
			}
		}
	}
}
