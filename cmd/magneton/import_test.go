package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/record"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/tumbling"
)

// TestImportCommand: magneton import on a site's database: files of
// records go in, a bad one is refused with its place and reason (exit 1),
// the same file again is a duplicate naming the game, and the archive
// then matches its recount (magneton archive verify).
func TestImportCommand(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(context.Background(), "sqlite:"+filepath.Join(dir, "magneton.db"))
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	bs, err := os.ReadFile("../../server/archive/testdata/import/TD-kraken-Dumbot-2010-03-15-0142.sgf")
	if err != nil {
		t.Fatal(err)
	}
	var pgn strings.Builder
	for _, m := range []string{"a8-a7", "e8>f8"} {
		g := game.NewGame(tumbling.Rules{}.Start())
		g.Play(m)
		g.End(g.Position().Side(), game.Resignation)
		pgn.WriteString(record.FromTranscript(game.Transcript{Game: g, Players: [2]string{"ann", "bob"}}).Format() + "\n")
	}
	files := filepath.Join(dir, "records")
	os.MkdirAll(filepath.Join(files, "more"), 0o755)
	write := func(name, text string) string {
		p := filepath.Join(files, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	td := write("TD.sgf", string(bs))
	write("more/two.pgn", pgn.String())
	bad := write("bad.pgn", pgn.String()+"[Game \"tumbling-down\"]\n\n1. zz *\n")

	out, errs, code := runCmd(t, "", "import", td, filepath.Join(files, "more"), bad, "--data", dir, "--quiet")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (a file refused): %s %s", code, out, errs)
	}
	for _, want := range []string{
		td + ": 1 game imported, 0 imported before",
		filepath.Join(files, "more", "two.pgn") + ": 2 games imported",
		fmt.Sprintf("%s, record 3, line %d: refused, nothing of %s imported: move 1", bad, 1+strings.Count(pgn.String(), "\n"), bad),
		"3 files: 3 games imported, 0 duplicates, 1 file refused",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errs, "1 of 3 files refused") {
		t.Errorf("stderr: %s", errs)
	}
	out, errs, code = runCmd(t, "", "import", td, "--data", dir, "--quiet")
	if code != 0 || !regexp.MustCompile(`TD.sgf, record 1, line 1: imported before, as game [\w-]{16}\n`).MatchString(out) ||
		!strings.Contains(out, "1 file: 0 games imported, 1 duplicate, 0 files refused") {
		t.Errorf("again: exit %d: %s %s", code, out, errs)
	}
	out, errs, code = runCmd(t, "", "archive", "verify", "--data", dir, "--quiet")
	if code != 0 || !strings.Contains(out, "3 finished games recounted") || !strings.Contains(out, "the archive matches its recount") {
		t.Errorf("verify: exit %d: %s %s", code, out, errs)
	}
	if _, errs, code := runCmd(t, "", "import", filepath.Join(dir, "nothing.sgf"), "--data", dir); code == 0 || !strings.Contains(errs, "no such file") {
		t.Errorf("a missing file: exit %d: %s", code, errs)
	}
}
