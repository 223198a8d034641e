package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPuzzlesCommand(t *testing.T) {
	out, errs, code := runCmd(t, "", "--game", "tumbling", "puzzles", "generate", "--games", "2", "--max-win", "2", "--plies", "60", "--seed", "5")
	if code != 0 || !strings.Contains(errs, "game 2 of 2") {
		t.Fatalf("generate: exit %d: %s", code, errs)
	}
	if strings.Count(out, "\n") == 0 {
		t.Fatalf("generate found no puzzle in 2 games: %q", errs)
	}
	got, errs, code := runCmd(t, out, "puzzles", "verify", "-")
	if code != 0 || !strings.Contains(got, "puzzles verified") {
		t.Errorf("verify what generate wrote: exit %d: %s%s", code, got, errs)
	}
	// A tampered puzzle: refused, saying which and where.
	first, _, _ := strings.Cut(out, "\n")
	bad := strings.Replace(first, `"win_in":`, `"win_in":9,"x":`, 1)
	path := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(path, []byte(bad+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runCmd(t, "", "puzzles", "verify", path); code == 0 || !strings.Contains(errs, "line 1") {
		t.Errorf("a puzzle with an unknown field: exit %d: %s", code, errs)
	}
	line := strings.Replace(first, `"line":["`, `"line":["zz`, 1)
	if err := os.WriteFile(path, []byte(line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runCmd(t, "", "puzzles", "verify", path); code != 1 || !strings.Contains(errs, "move 1") || !strings.Contains(errs, "1 of 1 puzzles are wrong") {
		t.Errorf("a puzzle with a wrong first move: exit %d: %s", code, errs)
	}
	if _, errs, code := runCmd(t, "", "puzzles", "generate", "--max-win", "9"); code != 2 || !strings.Contains(errs, "--max-win 9") {
		t.Errorf("--max-win 9: exit %d: %s", code, errs)
	}
}
