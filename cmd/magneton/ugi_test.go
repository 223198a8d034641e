package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/ugi"
)

// buildBinary builds the magneton command into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "magneton")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestUGI is the end-to-end check of `magneton ugi` as a process, driven
// by the project's real client (ugi.Start) and by the match runner; the
// protocol itself is tested in package ugi, in-process over pipes.
func TestUGI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	for _, name := range []string{"magneton", "tumbling"} {
		gm, err := games.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		rules, err := gm.Spec.Rules(gm.Spec.Variants[len(gm.Spec.Variants)-1].Name)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ugi.Start(bin, rules)
		if err != nil {
			t.Fatal(err)
		}
		g := game.NewGame(rules.Start())
		for range 4 {
			m, err := c.Move(context.Background(), g, ai.Limits{Depth: 2})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("%s under %s: the engine played %s: %v", name, rules.Settings(), m, err)
			}
		}
		if err := c.Close(); err != nil {
			t.Errorf("%s: the engine did not end well: %v", name, err)
		}
	}

	// On a position the proof-number solver settles, the engine's info
	// lines say it proved the win, as the client reads them.
	rules, err := games.Rules("magneton")
	if err != nil {
		t.Fatal(err)
	}
	won, err := rules.ParsePosition("8/6WB/B1B3B1/W6W/8/8/5W2/WB6 b 0 0")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ugi.Start(bin, rules)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Move(context.Background(), game.NewGame(won), ai.Limits{MoveTime: 300 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if n, ok := c.Proven(); !ok || n < 1 || n > 6 {
		t.Errorf("the engine claims %d, %v: want a proven win in at most 6 moves", n, ok)
	}
	if err := c.Close(); err != nil {
		t.Error(err)
	}

	// The match runner drives the same binary as an external engine.
	for _, g := range []string{"magneton", "tumbling"} {
		out, errs, code := runCmd(t, "", "match", "--game", g, "--a", "ugi:"+bin, "--b", "greedy", "--games", "2", "--movetime", "20ms", "--quiet")
		if code != 0 || strings.Contains(errs, "illegal") {
			t.Fatalf("%s match against ugi:%s: exit %d: %s", g, bin, code, errs)
		}
		if !strings.Contains(out, "score A: ") {
			t.Errorf("%s match output:\n%s", g, out)
		}
	}
}

// TestUGIOptionDefaults: magneton --rule ... ugi advertises the rules it
// starts with as the options' defaults, and the ranges of threads and
// hash it enforces.
func TestUGIOptionDefaults(t *testing.T) {
	out, errs, code := runCmd(t, "ugi\nsetoption name threads value 1000\nquit\n", "--game", "tumbling", "--rule", "boardspace", "ugi")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"option name layout type combo default boardspace var original var boardspace",
		"option name threads type spin default 1 min 1 max 64",
		"option name hash type spin default 64 min 1 max 4096",
		`info string setoption: threads must be a number from 1 to 64, not "1000"; it stays 1`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
}
