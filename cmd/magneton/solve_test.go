package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/tumbling"
)

// TestSolveCertificate: solve writes a certificate that --verify accepts,
// and --verify rejects it with a reply of the loser removed, naming the
// node; a run cut short by --nodes with --table goes on from its table.
func TestSolveCertificate(t *testing.T) {
	dir := t.TempDir()
	proof := filepath.Join(dir, "win.proof")
	pos := "8/6WB/B1B3B1/W6W/8/8/5W2/WB6 b 0 0"
	out, errs, code := runCmd(t, "", "solve", "--hash", "1", "--out", proof, pos)
	if code != 0 || !strings.Contains(out, "proven win for Black") || !strings.Contains(out, "certificate "+proof) {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	out, errs, code = runCmd(t, "", "solve", "--verify", proof)
	if code != 0 || !strings.Contains(out, "verified: Black wins") {
		t.Fatalf("verify: exit %d: %s %s", code, out, errs)
	}
	text, err := os.ReadFile(proof)
	if err != nil {
		t.Fatal(err)
	}
	// Remove the first reply of the first node of White's (the loser's).
	lines := strings.Split(string(text), "\n")
	cut := false
	for i, l := range lines {
		if f := strings.Fields(l); len(f) > 3 && l[0] >= '0' && l[0] <= '9' {
			lines[i] = strings.Join(append(f[:1:1], f[3:]...), " ")
			cut = true
			break
		}
	}
	if !cut {
		t.Fatalf("no node with several replies in\n%s", text)
	}
	bad := filepath.Join(dir, "bad.proof")
	if err := os.WriteFile(bad, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code = runCmd(t, "", "solve", "--verify", bad)
	if code != 1 || !strings.Contains(errs, "is missing") || !strings.Contains(errs, "node ") {
		t.Errorf("tampered: exit %d: %s", code, errs)
	}

	table := filepath.Join(dir, "t.table")
	out, _, code = runCmd(t, "", "solve", "--hash", "1", "--nodes", "100", "--table", table, pos)
	if code != 0 || !strings.Contains(out, "not settled") {
		t.Fatalf("cut short: exit %d: %s", code, out)
	}
	out, _, code = runCmd(t, "", "solve", "--hash", "1", "--table", table, pos)
	if code != 0 || !strings.Contains(out, "proven win for Black") {
		t.Fatalf("resumed: exit %d: %s", code, out)
	}
	fresh, _, _ := runCmd(t, "", "solve", "--hash", "1", pos)
	if r, f := solveNodes(t, out), solveNodes(t, fresh); r >= f {
		t.Errorf("the resumed run expanded %d positions, a fresh one %d: the table did not carry the work over", r, f)
	}
}

// solveNodes reads the positions expanded from solve's output.
func solveNodes(t *testing.T, out string) int {
	t.Helper()
	var n int
	for _, l := range strings.Split(out, "\n") {
		if _, err := fmt.Sscanf(l, "nodes %d,", &n); err == nil {
			return n
		}
	}
	t.Fatalf("no node count in %q", out)
	return 0
}

// TestCommittedCertificates: every certificate under docs/proofs verifies.
func TestCommittedCertificates(t *testing.T) {
	files, err := filepath.Glob("../../docs/proofs/*.proof")
	if err != nil || len(files) == 0 {
		t.Fatalf("no certificates in docs/proofs: %v", err)
	}
	for _, f := range files {
		out, errs, code := runCmd(t, "", "solve", "--verify", f)
		if code != 0 || !strings.Contains(out, "verified:") {
			t.Errorf("%s: exit %d: %s%s", f, code, out, errs)
		}
	}
	// The proofs that Tumbling Down's start, the designer's layout, is a
	// win for Black, the side to move, under the original rules and under
	// the pbem capture rule (docs/research.md).
	start := tumbling.Rules{}.StartPosition().String()
	for file, capture := range map[string]string{"tumbling-start.proof": "any", "tumbling-pbem-start.proof": "pbem"} {
		out, errs, code := runCmd(t, "", "solve", "--verify", "../../docs/proofs/"+file)
		want := "verified: Black wins " + start + " (capture=" + capture + ",layout=original,moves=step-or-tumble,no-king=loses,no-moves=loses,own-king=loses,repetition=3) in 7 moves or fewer"
		if code != 0 || !strings.HasPrefix(out, want) {
			t.Errorf("%s: exit %d: %s%s\nwant a line starting %q", file, code, out, errs, want)
		}
	}
}
