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

// TestPuzzlesGenerateAll: --all writes a header with the command itself,
// every game's puzzles, the same twice (the set is reproducible), and
// verify refuses a set holding one position twice up to symmetry.
func TestPuzzlesGenerateAll(t *testing.T) {
	args := []string{"puzzles", "generate", "--all", "--games", "3", "--puzzles", "4", "--max-win", "2", "--plies", "80", "--seed", "9"}
	out, errs, code := runCmd(t, "", args...)
	if code != 0 {
		t.Fatalf("generate --all: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "`magneton puzzles generate --all --games 3 --max-win 2 --plies 80 --puzzles 4 --seed 9 > puzzle/data/puzzles.jsonl`") {
		t.Errorf("the header does not say the command (flags in their sorted order):\n%s", out)
	}
	for _, name := range []string{`"game":"magneton"`, `"game":"tumbling-down"`} {
		if n := strings.Count(out, name); n == 0 || n > 4 {
			t.Errorf("%d puzzles with %s, want 1 to 4", n, name)
		}
	}
	again, _, _ := runCmd(t, "", args...)
	if again != out {
		t.Error("two runs of one command wrote different sets")
	}
	if got, errs, code := runCmd(t, out, "puzzles", "verify", "-"); code != 0 {
		t.Errorf("verify: exit %d: %s%s", code, got, errs)
	}
	// The first Magneton puzzle again, mirrored (files a..h reversed).
	var first string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, `"game":"magneton"`) {
			first = l
			break
		}
	}
	pos := first[strings.Index(first, `"position":"`)+len(`"position":"`):]
	pos = pos[:strings.Index(pos, `"`)]
	board, rest, _ := strings.Cut(pos, " ")
	var ranks []string
	for _, r := range strings.Split(board, "/") {
		rs := []rune(r)
		for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
			rs[i], rs[j] = rs[j], rs[i]
		}
		ranks = append(ranks, string(rs))
	}
	dup := strings.Replace(first, pos, strings.Join(ranks, "/")+" "+rest, 1)
	dup = strings.Replace(dup, `"id":"`, `"id":"copy-`, 1)
	if _, errs, code := runCmd(t, first+"\n"+dup+"\n", "puzzles", "verify", "-"); code == 0 || !strings.Contains(errs, "again, up to symmetry") {
		t.Errorf("a mirrored copy: exit %d: %s", code, errs)
	}
}
