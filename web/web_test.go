package web

import (
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"
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
