package main

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/tumbling"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestMatchStats checks the statistics on inputs worked out by hand.
func TestMatchStats(t *testing.T) {
	// 60 wins, 20 draws, 20 losses: score 0.7, Elo -400 log10(1/0.7 - 1) = 147.2.
	s := matchStats{W: 60, D: 20, L: 20}
	if !near(s.Score(), 0.7, 1e-12) {
		t.Errorf("score %v, want 0.7", s.Score())
	}
	// Per-game variance: (60*0.09 + 20*0.04 + 20*0.49)/100 = 0.16; the
	// standard error of the mean 0.04, so the interval is 0.7 ± 0.0784.
	if !near(s.variance(), 0.16, 1e-12) {
		t.Errorf("variance %v, want 0.16", s.variance())
	}
	elo, lo, hi := s.Elo()
	if !near(elo, 147.19, 0.01) || !near(lo, eloOf(0.7-1.959964*0.04), 1e-9) || !near(hi, eloOf(0.7+1.959964*0.04), 1e-9) {
		t.Errorf("elo %v (%v, %v)", elo, lo, hi)
	}
	if !near(lo, 86.2, 0.1) || !near(hi, 218.3, 0.1) {
		t.Errorf("interval %.1f to %.1f, want 86.2 to 218.3", lo, hi)
	}
	// An even match: 0 Elo.
	if e, _, _ := (matchStats{W: 10, D: 10, L: 10}).Elo(); !near(e, 0, 1e-9) {
		t.Errorf("even match elo %v", e)
	}
	// All wins: infinite.
	if e, _, _ := (matchStats{W: 5}).Elo(); !math.IsInf(e, 1) {
		t.Errorf("all wins elo %v", e)
	}
	// SPRT: bounds ln(0.05/0.95) and ln(0.95/0.05).
	llr, lower, upper, verdict := s.SPRT(0, 10, 0.05, 0.05)
	if !near(lower, -2.944, 0.001) || !near(upper, 2.944, 0.001) {
		t.Errorf("bounds %v %v", lower, upper)
	}
	// s0 = 0.5, s1 = 1/(1+10^(-10/400)) = 0.514387; LLR = 100 * 0.014387 *
	// (1.4 - 1.014387) / (2 * 0.16) = 1.7337.
	if !near(llr, 1.7337, 0.001) || verdict != "continue" {
		t.Errorf("llr %v %s, want 1.7337 continue", llr, verdict)
	}
	big := matchStats{W: 600, D: 200, L: 200}
	if _, _, _, v := big.SPRT(0, 10, 0.05, 0.05); v != "H1 accepted" {
		t.Errorf("1000 games at 70%%: %s", v)
	}
	bad := matchStats{W: 200, D: 200, L: 600}
	if _, _, _, v := bad.SPRT(0, 10, 0.05, 0.05); v != "H0 accepted" {
		t.Errorf("1000 games at 30%%: %s", v)
	}
}

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
