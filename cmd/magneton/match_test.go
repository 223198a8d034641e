package main

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/tumbling"
)

func TestParseMatchFlags(t *testing.T) {
	for s, want := range map[string]openingSpec{"": {}, "random:4": {plies: 4}, "balanced:6": {plies: 6, balanced: true}} {
		if got, err := parseOpenings(s); err != nil || got != want {
			t.Errorf("%q: %+v %v, want %+v", s, got, err, want)
		}
	}
	for _, bad := range []string{"random", "random:x", "book:3", "random:-1", "balanced:41", "balanced"} {
		if _, err := parseOpenings(bad); err == nil {
			t.Errorf("openings %q accepted", bad)
		}
	}
	if e0, e1, ok, err := parseSPRT("0,10"); err != nil || !ok || e0 != 0 || e1 != 10 {
		t.Errorf("sprt 0,10: %v %v %v %v", e0, e1, ok, err)
	}
	for _, bad := range []string{"10", "a,b", "10,0"} {
		if _, _, _, err := parseSPRT(bad); err == nil {
			t.Errorf("sprt %q accepted", bad)
		}
	}
}

// TestMatchCommand runs a short match through the command line.
func TestMatchCommand(t *testing.T) {
	pgn := filepath.Join(t.TempDir(), "games.pgn")
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"match", "--a", "greedy", "--b", "random", "--games", "4", "--movetime", "5ms", "--openings", "random:2", "--pgn", pgn, "--sprt", "0,100"}, strings.NewReader(""), &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "score A: ") || !strings.HasSuffix(last, ")") {
		t.Errorf("last line %q", last)
	}
	data, err := os.ReadFile(pgn)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "[Game \"magneton\"]"); n != 4 {
		t.Errorf("%d games in the record file, want 4", n)
	}
	for _, args := range [][]string{
		{"match", "--a", "greedy"},
		{"match", "--a", "greedy", "--b", "nobody"},
		{"match", "--a", "greedy", "--b", "random", "--openings", "book"},
		{"match", "--a", "greedy", "--b", "random", "--openings", "balanced:x"},
		{"match", "--game", "tumbling", "--a", "boardspace-d5", "--b", "random", "--games", "0"},
	} {
		if code := run(context.Background(), args, strings.NewReader(""), &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestBalancedOpenings: with the same seed, random:4 openings of Tumbling
// Down include some that the first player wins by force; balanced:4 ones
// include none, and the runner counts the ones it drew again.
func TestBalancedOpenings(t *testing.T) {
	ctx := context.Background()
	rules := tumbling.Rules{}
	decided := func(openings [][]string) int {
		n := 0
		for _, o := range openings {
			g := game.NewGame(rules.Start())
			for _, m := range o {
				if err := g.Play(m); err != nil {
					t.Fatalf("opening %v: %v", o, err)
				}
			}
			if len(o) != 4 {
				t.Fatalf("opening %v: want 4 plies", o)
			}
			if m, err := forcedResult(ctx, rules, g.Position(), balancedPlies, balancedNodes); err != nil {
				t.Fatal(err)
			} else if m != 0 {
				n++
			}
		}
		return n
	}
	random, _, err := makeOpenings(ctx, rules, openingSpec{plies: 4}, 16, rand.New(rand.NewPCG(4, 0x0be)))
	if err != nil {
		t.Fatal(err)
	}
	balanced, replaced, err := makeOpenings(ctx, rules, openingSpec{plies: 4, balanced: true}, 16, rand.New(rand.NewPCG(4, 0x0be)))
	if err != nil {
		t.Fatal(err)
	}
	if n := decided(random); n == 0 {
		t.Errorf("no decided opening among 16 random ones; the test needs some")
	}
	if n := decided(balanced); n != 0 {
		t.Errorf("%d decided openings among the balanced ones", n)
	}
	if replaced == 0 {
		t.Errorf("no opening drawn again")
	}
}
