package prove_test

import (
	"bufio"
	"bytes"
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/internal/tictactoe"
	"github.com/magneton-games/magneton/prove"
)

// minimax is the exhaustive answer on a finite game: the result with best
// play from s (a game without repetition, as tic-tac-toe is).
func minimax(s game.State) game.Result {
	if r, _ := s.Outcome(); r.Over() {
		return r
	}
	best := game.LossFor(s.Side())
	for _, m := range s.Moves() {
		next, _ := s.Play(m)
		switch r := minimax(next); {
		case r == game.WinFor(s.Side()):
			return r
		case r == game.Draw:
			best = r
		}
	}
	return best
}

// winsWithin reports whether the side to move at s wins by force within
// plies plies (its own moves and the replies), by plain exhaustive
// search: the bound the solver's answers must respect.
func winsWithin(s game.State, attacker game.Side, plies int) bool {
	if r, _ := s.Outcome(); r.Over() {
		return r == game.WinFor(attacker)
	}
	if plies == 0 {
		return false
	}
	ours := s.Side() == attacker
	for _, m := range s.Moves() {
		next, _ := s.Play(m)
		if winsWithin(next, attacker, plies-1) == ours {
			return ours
		}
	}
	return !ours
}

// reachable returns every position of tic-tac-toe from the start.
func reachable(s game.State, seen map[string]game.State) {
	if _, ok := seen[s.String()]; ok {
		return
	}
	seen[s.String()] = s
	for _, m := range s.Moves() {
		next, _ := s.Play(m)
		reachable(next, seen)
	}
}

// TestTicTacToeEveryPosition: on every position of tic-tac-toe and its
// misère variant the solver's result is the exhaustive minimax's, on one
// table for all; and the certificates of a sample of the wins verify.
func TestTicTacToeEveryPosition(t *testing.T) {
	for _, variant := range []string{"default", "misere"} {
		rules, err := tictactoe.Spec.Rules(variant)
		if err != nil {
			t.Fatal(err)
		}
		kit, err := ai.KitFor[tictactoe.Position, tictactoe.Move](tictactoe.Profile, rules)
		if err != nil {
			t.Fatal(err)
		}
		sv := prove.New(kit, 1)
		all := map[string]game.State{}
		reachable(rules.Start(), all)
		results := map[game.Result]int{}
		for text, s := range all {
			if r, _ := s.Outcome(); r.Over() {
				continue
			}
			p, _ := game.Unwrap[tictactoe.Position, tictactoe.Move](s)
			got := game.Draw
			for _, side := range []game.Side{game.First, game.Second} {
				v, plies := sv.Prove(context.Background(), p, side)
				if v == prove.Proven {
					got = game.WinFor(side)
					if !winsWithin(s, side, plies) {
						t.Errorf("%s %s: a proof of %d plies, but no win within them", variant, text, plies)
					}
				}
			}
			want := minimax(s)
			if got != want {
				t.Fatalf("%s %s: solver %s, minimax %s", variant, text, got, want)
			}
			results[want]++
			if w, ok := want.Winner(); ok && results[want]%10 == 0 {
				c, err := sv.Certificate(context.Background(), p, w, rules)
				if err != nil {
					t.Fatal(err)
				}
				if v, err := prove.Verify(c, rules); err != nil || v.Winner != w {
					t.Fatalf("%s %s: the certificate does not verify: %v", variant, text, err)
				}
			}
		}
		if len(results) != 3 {
			t.Errorf("%s: results %v: want wins of both sides and draws", variant, results)
		}
	}
}

// nearEnd returns positions a few plies before the end of random games
// of a game, under its default rules.
func nearEnd(t *testing.T, name string, n int, rng *rand.Rand) []game.State {
	rules, err := games.Rules(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []game.State
	for len(out) < n {
		line := []game.State{rules.Start()}
		for {
			s := line[len(line)-1]
			if r, _ := s.Outcome(); r.Over() || len(line) > 400 {
				break
			}
			m, _ := s.RandomMove(rng)
			next, err := s.Play(m)
			if err != nil {
				t.Fatal(err)
			}
			line = append(line, next)
		}
		if back := 2 + rng.IntN(4); len(line) > back {
			out = append(out, line[len(line)-back])
		}
	}
	return out
}

// TestNearEndAgreesWithMinimax: on positions near the end of random games
// of both games, a proof of at most three plies is one that exhaustive
// search finds, a win of the side to move in three plies that exhaustive
// search finds is never disproved, and every proof's certificate
// verifies.
func TestNearEndAgreesWithMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 2))
	count := map[prove.Value]int{}
	for _, name := range []string{"magneton", "tumbling"} {
		gm, _ := games.Lookup(name)
		for _, s := range nearEnd(t, name, 6, rng) {
			if r, _ := s.Outcome(); r.Over() {
				continue
			}
			rep, err := gm.Solver.Solve(context.Background(), s, prove.Options{HashMiB: 4, MaxNodes: 2000, Certificate: true})
			if err != nil {
				t.Fatal(err)
			}
			count[rep.ToMove]++
			us := s.Side()
			brute := winsWithin(s, us, 3)
			if brute && rep.ToMove == prove.Disproven {
				t.Errorf("%s %s: minimax wins in 3 plies, the solver disproves it", name, s)
			}
			if rep.Result.Over() && rep.Result != game.Draw {
				w, _ := rep.Result.Winner()
				if rep.Plies <= 3 && !winsWithin(s, w, rep.Plies) {
					t.Errorf("%s %s: a proof of %d plies that minimax does not find", name, s, rep.Plies)
				}
				if _, err := prove.Verify(rep.Certificate, s.Rules()); err != nil {
					t.Errorf("%s %s: %v", name, s, err)
				}
			}
		}
	}
	if count[prove.Proven] < 2 {
		t.Errorf("only %v", count)
	}
}

// certificateText solves a tic-tac-toe position and writes its certificate.
func certificateText(t *testing.T, text string) string {
	rules := tictactoe.Spec.New(tictactoe.Spec.Defaults())
	s, err := rules.ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := tictactoe.Game.Solver.Solve(context.Background(), s, prove.Options{HashMiB: 1, Certificate: true})
	if err != nil || rep.Certificate == nil {
		t.Fatalf("%s: %v, %+v", text, err, rep)
	}
	var b bytes.Buffer
	if err := rep.Certificate.Write(&b, tictactoe.Spec.SideLetters); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func verifyText(text string) (prove.Verified, error) {
	r := bufio.NewReader(strings.NewReader(text))
	h, line, err := prove.ReadHeader(r)
	if err != nil {
		return prove.Verified{}, err
	}
	rules, err := tictactoe.Spec.Rules(h.Rules)
	if err != nil {
		return prove.Verified{}, err
	}
	c, err := prove.Read(r, h, line, rules)
	if err != nil {
		return prove.Verified{}, err
	}
	return prove.Verify(c, rules)
}

// TestCertificateMutations: a written certificate verifies, and one with
// a reply removed, a move made illegal or changed for a losing one, a
// false claim of the end of the game, or a winner changed is rejected
// with a message naming the fault.
func TestCertificateMutations(t *testing.T) {
	// X to move wins: X holds a1 and b2, O holds c3 and a2 (X threatens
	// nothing yet but forks next).
	good := certificateText(t, "xo./.x./..o x")
	if v, err := verifyText(good); err != nil || v.Winner != game.First {
		t.Fatalf("the certificate does not verify: %v %+v\n%s", err, v, good)
	}
	lines := strings.Split(good, "\n")
	node := func(i int) int {
		for j, l := range lines {
			if f := strings.Fields(l); len(f) > 0 && f[0] == strconv.Itoa(i) {
				return j
			}
		}
		t.Fatalf("no node %d in\n%s", i, good)
		return 0
	}
	replace := func(i int, f func([]string) []string) string {
		c := append([]string(nil), lines...)
		j := node(i)
		c[j] = strings.Join(f(strings.Fields(c[j])), " ")
		return strings.Join(c, "\n")
	}
	// another legal move than the proof's at the root
	root := strings.Fields(lines[node(0)])[1]
	other := "c1"
	if root == other {
		other = "b1"
	}
	// Node 1 is the loser's: O's replies to X's first move.
	cases := []struct{ name, text, want string }{
		{"reply removed", replace(1, func(f []string) []string { return append(f[:1:1], f[3:]...) }), "is missing"},
		{"illegal move", replace(0, func(f []string) []string { f[1] = "z9"; return f }), "move z9"},
		{"another move", replace(0, func(f []string) []string { f[1] = other; return f }), "node "},
		{"wrong winner", strings.Replace(good, "winner x", "winner o", 1), "reply"},
		{"false end", replace(0, func(f []string) []string { f[2] = "*"; return f }), "marked as the end of the game"},
		{"not a certificate", "hello\n", "not a proof certificate"},
	}
	for _, c := range cases {
		_, err := verifyText(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}
