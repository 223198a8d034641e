package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSuiteCommand builds a small suite from the match runner's records,
// verifies it, tampers with it, and scores two players on it.
func TestSuiteCommand(t *testing.T) {
	dir := t.TempDir()
	pgn := filepath.Join(dir, "games.pgn")
	if _, errs, code := runCmd(t, "", "--game", "tumbling", "match", "--a", "level:1", "--b", "level:2", "--games", "2", "--movetime", "5ms", "--seed", "3", "--pgn", pgn, "--quiet"); code != 0 {
		t.Fatalf("match: exit %d: %s", code, errs)
	}
	built, errs, code := runCmd(t, "", "--game", "tumbling", "suite", "build", "--records", pgn, "--per-game", "2", "--want", "3")
	if code != 0 || !strings.Contains(errs, "game 2:") {
		t.Fatalf("build: exit %d: %s", code, errs)
	}
	if !strings.Contains(built, "\tTumbling") && !strings.Contains(built, "tumbling-down\t") {
		t.Fatalf("build found no position in 2 games:\n%s%s", built, errs)
	}
	path := filepath.Join(dir, "suite.tsv")
	if err := os.WriteFile(path, []byte(built), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errs, code := runCmd(t, "", "suite", "verify", path); code != 0 || !strings.Contains(out, "positions verified") {
		t.Errorf("verify what build wrote: exit %d: %s%s", code, out, errs)
	}
	out, errs, code := runCmd(t, "", "suite", "--player", "level:3", "--movetime", "20ms", path)
	if code != 0 || !strings.Contains(out, "all  kept") || !strings.Contains(out, "95%:") {
		t.Errorf("suite --player level:3: exit %d: %s%s", code, out, errs)
	}
	// A tampered entry (a win claimed one move shorter, or a hold's
	// moves changed) is refused, saying which entry and why.
	lines := strings.Split(strings.TrimSpace(built), "\n")
	last := strings.Split(lines[len(lines)-1], "\t")
	n, err := strconv.Atoi(last[3])
	if err != nil {
		t.Fatal(err)
	}
	if n++; n > 12 {
		n -= 2
	}
	last[3] = strconv.Itoa(n)
	if err := os.WriteFile(path, []byte(strings.Join(last, "\t")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runCmd(t, "", "suite", "verify", path); code != 1 || !strings.Contains(errs, "entry 1") || !strings.Contains(errs, "the prover says") {
		t.Errorf("a tampered entry: exit %d: %s", code, errs)
	}
	if _, errs, code := runCmd(t, "", "suite", "--movetime", "0s", path); code != 2 || !strings.Contains(errs, "--movetime 0s") {
		t.Errorf("--movetime 0s: exit %d: %s", code, errs)
	}
	if _, errs, code := runCmd(t, "not a suite\n", "suite", "verify", "-"); code != 1 || !strings.Contains(errs, "line 1") {
		t.Errorf("a line that is no entry: exit %d: %s", code, errs)
	}
}
