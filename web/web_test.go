package web

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/games"
)

// TestFilesReferenced checks that index.html is at the root of Files and
// that every file the page or a module names (href, src, import) is there,
// so that a renamed module cannot break the embedded front end unnoticed.
func TestFilesReferenced(t *testing.T) {
	index, err := fs.ReadFile(Files, "index.html")
	if err != nil {
		t.Fatalf("index.html: %v", err)
	}
	refs := regexp.MustCompile(`(?:href|src)="(/[^"#?]+)"`).FindAllStringSubmatch(string(index), -1)
	if len(refs) < 3 {
		t.Fatalf("index.html names %d files; want the style sheet, the app module and the icon", len(refs))
	}
	for _, m := range refs {
		name := strings.TrimPrefix(m[1], "/")
		if _, err := fs.Stat(Files, name); err != nil {
			t.Errorf("index.html names %s: %v", m[1], err)
		}
	}
	imports := regexp.MustCompile(`(?:from|import\()\s*'(\.[^']+)'`)
	modules := 0
	err = fs.WalkDir(Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") {
			return err
		}
		modules++
		src, err := fs.ReadFile(Files, p)
		if err != nil {
			return err
		}
		for _, m := range imports.FindAllStringSubmatch(string(src), -1) {
			target := path.Join(path.Dir(p), m[1])
			if _, err := fs.Stat(Files, target); err != nil {
				t.Errorf("%s imports %s: %v", p, m[1], err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if modules == 0 {
		t.Fatal("no JavaScript modules")
	}
}

// gameInterface is what every game module exports, and gameOptional what
// it may export, as js/games.js lists them (INTERFACE and OPTIONAL) and
// docs/adding-a-game.md describes them; learnInterface is what every lesson
// module exports, as js/learn.js lists it (LEARN_INTERFACE).
var (
	gameInterface = []string{
		"name", "stylesheet", "parse", "parseMove", "draw", "animate", "sideInfo",
		"orientation", "moveHint", "tapMove", "targets", "choose", "endingText",
	}
	gameOptional   = []string{"endMarks", "preview", "describe", "svgSquare", "editTools", "edit", "format", "texts", "squareWords", "turnWords", "moveWords"}
	learnInterface = []string{"sides", "pitch", "rules", "variants", "options", "lessons", "texts"}
	// editor is the position editor's names: a module has all or none.
	editor = []string{"editTools", "edit", "format"}
)

// testOnlyGames are the games whose front end web/static holds though the
// registry has them only in tests: the toy third game, internal/tictactoe,
// which the browser tests register (e2e/toygame_test.go).
var testOnlyGames = []string{"tictactoe"}

// frontEndGames returns the names of the games the front end has modules
// for: the registry's and the test-only ones.
func frontEndGames(t *testing.T) []string {
	t.Helper()
	var names []string
	for _, g := range games.All() {
		names = append(names, g.Spec.Name)
	}
	if len(names) == 0 {
		t.Fatal("no games in the registry")
	}
	for _, n := range testOnlyGames {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

var (
	exportDecl = regexp.MustCompile(`(?m)^export\s+(?:async\s+)?(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)`)
	exportList = regexp.MustCompile(`(?m)^export\s*\{([^}]*)\}`)
)

// exports returns the names a module's source exports.
func exports(src string) []string {
	var names []string
	for _, m := range exportDecl.FindAllStringSubmatch(src, -1) {
		names = append(names, m[1])
	}
	for _, m := range exportList.FindAllStringSubmatch(src, -1) {
		for _, item := range strings.Split(m[1], ",") {
			f := strings.Fields(item)
			if len(f) > 0 {
				names = append(names, f[len(f)-1])
			}
		}
	}
	return names
}

// listed returns the quoted names of the array a module exports as name
// (export const NAME = ['a', 'b']).
func listed(t *testing.T, file, name string) []string {
	t.Helper()
	src, err := fs.ReadFile(Files, file)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)export const ` + name + ` = \[(.*?)\];`).FindSubmatch(src)
	if m == nil {
		t.Fatalf("%s does not export its %s list", file, name)
	}
	var out []string
	for _, q := range regexp.MustCompile(`'([^']+)'`).FindAllSubmatch(m[1], -1) {
		out = append(out, string(q[1]))
	}
	return out
}

// TestGameModules checks that every game of the front end (the registry's
// and the test-only ones) has its front-end module, js/games/<name>.js
// (the loader imports it by the name at run time, which TestFilesReferenced
// cannot follow), that the module exports every name of the interface,
// the position editor's names all or none, and names its own game, that
// the style sheet it asks the loader for is there, and that its lesson
// module exports the lesson interface. The loaders' own lists must be this
// test's, and there is no module or style sheet of another game.
func TestGameModules(t *testing.T) {
	for _, c := range []struct {
		file, name string
		want       []string
	}{{"js/games.js", "INTERFACE", gameInterface}, {"js/games.js", "OPTIONAL", gameOptional}, {"js/learn.js", "LEARN_INTERFACE", learnInterface}} {
		if got := listed(t, c.file, c.name); !slices.Equal(got, c.want) {
			t.Errorf("%s lists the %s %q; this test checks %q", c.file, c.name, got, c.want)
		}
	}
	loader, _ := fs.ReadFile(Files, "js/games.js")
	if !strings.Contains(string(loader), "import(`./games/${") {
		t.Error("js/games.js does not import ./games/<name>.js")
	}
	known := map[string]bool{}
	for _, name := range frontEndGames(t) {
		known[name] = true
		checkGameModule(t, name)
		checkLearnModule(t, name)
	}
	// No module or style sheet of a game the front end does not have.
	for _, dir := range []string{"js/games", "css/games"} {
		entries, err := fs.ReadDir(Files, dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			// A game's learning module (rules and lessons) is <name>-learn.js,
			// its drills and quiz <name>-lessons.js.
			base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(e.Name(), ".js"), ".css"), "-learn"), "-lessons")
			if !known[base] {
				t.Errorf("%s/%s is not the front end of a game of the registry", dir, e.Name())
			}
		}
	}
}

// checkGameModule checks one game's module, js/games/<name>.js, and the
// style sheet it asks for.
func checkGameModule(t *testing.T, name string) {
	t.Helper()
	file := "js/games/" + name + ".js"
	src, err := fs.ReadFile(Files, file)
	if err != nil {
		t.Errorf("%s has no front-end module: %v", name, err)
		return
	}
	have := exports(string(src))
	for _, want := range gameInterface {
		if !slices.Contains(have, want) {
			t.Errorf("%s does not export %s", file, want)
		}
	}
	n := 0
	for _, e := range editor {
		if slices.Contains(have, e) {
			n++
		}
	}
	if n != 0 && n != len(editor) {
		t.Errorf("%s exports %d of the position editor's names %q: all or none", file, n, editor)
	}
	if !regexp.MustCompile(`(?m)^export const name = '` + regexp.QuoteMeta(name) + `';`).Match(src) {
		t.Errorf("%s does not export name = '%s'", file, name)
	}
	css := "css/games/" + name + ".css"
	_, statErr := fs.Stat(Files, css)
	switch wants := regexp.MustCompile(`(?m)^export const stylesheet = true;`).Match(src); {
	case wants && statErr != nil:
		t.Errorf("%s asks for its style sheet: %v", file, statErr)
	case !wants && statErr == nil:
		t.Errorf("%s is there but %s does not ask the loader for it (export const stylesheet = true)", css, file)
	}
}

// checkLearnModule checks that a game's lesson module,
// js/games/<name>-learn.js, exports the lesson interface.
func checkLearnModule(t *testing.T, name string) {
	t.Helper()
	file := "js/games/" + name + "-learn.js"
	src, err := fs.ReadFile(Files, file)
	if err != nil {
		t.Errorf("%s has no rules and lessons: %v", name, err)
		return
	}
	have := exports(string(src))
	for _, want := range learnInterface {
		if !slices.Contains(have, want) {
			t.Errorf("%s does not export %s", file, want)
		}
	}
}

// TestContractDocumented checks that the section "The front end" of
// docs/adding-a-game.md, where the contract of a game's front end is
// documented, names every name of the interfaces (as `name`) and the files
// a game adds.
func TestContractDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "adding-a-game.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i := strings.Index(s, "\n## The front end\n")
	if i < 0 {
		t.Fatal(`docs/adding-a-game.md has no section "## The front end"`)
	}
	s = s[i+1:]
	if j := regexp.MustCompile(`\n## [^#]`).FindStringIndex(s[1:]); j != nil {
		s = s[:j[0]+1]
	}
	names := slices.Concat(gameInterface, gameOptional, learnInterface, []string{"optionWords", "view.piece", "view.place", "view.offset", "view.grid"})
	for _, n := range names {
		if !strings.Contains(s, "`"+n) {
			t.Errorf("docs/adding-a-game.md, The front end, does not document %s", n)
		}
	}
	for _, f := range []string{"js/games/<name>.js", "js/games/<name>-learn.js", "css/games/<name>.css", ".game-<name>"} {
		if !strings.Contains(s, f) {
			t.Errorf("docs/adding-a-game.md, The front end, does not name %s", f)
		}
	}
}

// TestFrontEndGameNeutral checks that the front end outside js/games and
// css/games names no game (by its name, an alias or its title): adding a
// game is adding its module and style sheet, with no edit elsewhere.
func TestFrontEndGameNeutral(t *testing.T) {
	var words []string
	for _, g := range games.All() {
		words = append(words, g.Spec.Name, g.Spec.Title)
		words = append(words, g.Spec.Aliases...)
	}
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	named := regexp.MustCompile(`(?i)\b(?:` + strings.Join(words, "|") + `)\b`)
	checked := 0
	err := fs.WalkDir(Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.HasPrefix(p, "js/games/") || strings.HasPrefix(p, "css/games/") || !(strings.HasSuffix(p, ".js") || strings.HasSuffix(p, ".css")) {
			return nil
		}
		checked++
		src, err := fs.ReadFile(Files, p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if loc := named.FindStringIndex(line); loc != nil {
				t.Errorf("%s:%d names the game %q: %s", p, i+1, line[loc[0]:loc[1]], strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, must := range []string{"js/board.js", "js/game.js", "js/notation.js", "js/words.js", "css/app.css"} {
		if _, err := fs.Stat(Files, must); err != nil {
			t.Errorf("%s: %v", must, err)
		}
	}
	if checked < 5 {
		t.Fatalf("checked %d files", checked)
	}
}
