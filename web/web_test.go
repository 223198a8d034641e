package web

import (
	"io/fs"
	"path"
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

// gameInterface is what every game module exports, as js/games.js
// describes it (its INTERFACE).
var gameInterface = []string{
	"name", "stylesheet", "parse", "parseMove", "draw", "animate", "sideInfo",
	"orientation", "moveHint", "tapMove", "targets", "choose", "endingText",
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

// TestGameModules checks that every game of the registry has its front-end
// module, js/games/<name>.js (the loader imports it by the name at run
// time, which TestFilesReferenced cannot follow), that the module exports
// every name of the interface and names its own game, and that the style
// sheet it asks the loader for is there. The loader's own list of the
// interface must be this test's.
func TestGameModules(t *testing.T) {
	loader, err := fs.ReadFile(Files, "js/games.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)export const INTERFACE = \[(.*?)\];`).FindSubmatch(loader)
	if m == nil {
		t.Fatal("js/games.js does not export its INTERFACE list")
	}
	var listed []string
	for _, q := range regexp.MustCompile(`'([^']+)'`).FindAllSubmatch(m[1], -1) {
		listed = append(listed, string(q[1]))
	}
	if !slices.Equal(listed, gameInterface) {
		t.Errorf("js/games.js lists the interface %q; this test checks %q", listed, gameInterface)
	}
	if !strings.Contains(string(loader), "import(`./games/${") {
		t.Error("js/games.js does not import ./games/<name>.js")
	}

	all := games.All()
	if len(all) == 0 {
		t.Fatal("no games in the registry")
	}
	known := map[string]bool{}
	for _, g := range all {
		name := g.Spec.Name
		known[name] = true
		file := "js/games/" + name + ".js"
		src, err := fs.ReadFile(Files, file)
		if err != nil {
			t.Errorf("%s has no front-end module: %v", name, err)
			continue
		}
		have := exports(string(src))
		for _, want := range gameInterface {
			if !slices.Contains(have, want) {
				t.Errorf("%s does not export %s", file, want)
			}
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
	// No module or style sheet of a game the server does not have.
	for _, dir := range []string{"js/games", "css/games"} {
		entries, err := fs.ReadDir(Files, dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			// A game's learning module (rules and lessons) is <name>-learn.js.
			base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(e.Name(), ".js"), ".css"), "-learn")
			if !known[base] {
				t.Errorf("%s/%s is not the front end of a game of the registry", dir, e.Name())
			}
		}
	}
}

// TestFrontEndGameNeutral checks that the front end outside js/games and
// css/games names no game (by its name, an alias or its title): adding a
// game is adding its module and style sheet, with no edit elsewhere. The
// loader, js/games.js, is left out: its description of the interface names
// the two games' modules as examples.
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
		if p == "js/games.js" || strings.HasPrefix(p, "js/games/") || strings.HasPrefix(p, "css/games/") || !(strings.HasSuffix(p, ".js") || strings.HasSuffix(p, ".css")) {
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
