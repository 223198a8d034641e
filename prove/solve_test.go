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
	"github.com/magneton-games/magneton/internal/tictactoe/tictactoeai"
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
		kit, err := ai.KitFor[tictactoe.Position, tictactoe.Move](tictactoeai.Profile, rules)
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
	rep, err := tictactoeai.Solver.Solve(context.Background(), s, prove.Options{HashMiB: 1, Certificate: true})
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

// TestDrawCertificate: tic-tac-toe's start is a draw, proven by two
// certificates that each side does not lose, which verify; one with a
// reply of the attacker removed, a move of the side that holds changed
// for another, or the side changed, is rejected.
func TestDrawCertificate(t *testing.T) {
	rules := tictactoe.Spec.New(tictactoe.Spec.Defaults())
	rep, err := tictactoeai.Solver.Solve(context.Background(), rules.Start(), prove.Options{HashMiB: 1, Certificate: true})
	if err != nil || rep.Result != game.Draw || rep.Draw[0] == nil || rep.Draw[1] == nil {
		t.Fatalf("%v, %+v", err, rep)
	}
	for side, c := range rep.Draw {
		var b bytes.Buffer
		if err := c.Write(&b, tictactoe.Spec.SideLetters); err != nil {
			t.Fatal(err)
		}
		good := b.String()
		if v, err := verifyText(good); err != nil || !v.Holds || v.Winner != game.Side(side) {
			t.Fatalf("side %d: the certificate does not verify: %v %+v\n%s", side, err, v, good)
		}
		lines := strings.Split(good, "\n")
		// The first node of each kind: one of the side that holds, one
		// of the attacker with several moves.
		var mine, theirs int = -1, -1
		for j, l := range lines {
			f := strings.Fields(l)
			if len(f) < 3 || f[0][0] < '0' || f[0][0] > '9' {
				continue
			}
			if len(f) == 3 && mine < 0 && j > 0 {
				mine = j
			}
			if len(f) > 3 && theirs < 0 {
				theirs = j
			}
		}
		if mine < 0 || theirs < 0 {
			t.Fatalf("side %d: no nodes of both kinds in\n%s", side, good)
		}
		mutate := func(j int, f func([]string) []string) string {
			c := append([]string(nil), lines...)
			c[j] = strings.Join(f(strings.Fields(c[j])), " ")
			return strings.Join(c, "\n")
		}
		letter := tictactoe.Spec.SideLetters[side]
		other := tictactoe.Spec.SideLetters[1-side]
		bad := map[string]string{
			"reply removed": mutate(theirs, func(f []string) []string { return append(f[:1:1], f[3:]...) }),
			"side changed":  strings.Replace(good, "holds "+letter, "holds "+other, 1),
		}
		// Every other move at the holder's node.
		f := strings.Fields(lines[mine])
		s, err := rules.ParsePosition(nodePosition(t, good, f[0]))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range s.Moves() {
			if m != f[1] {
				bad["move changed to "+m] = mutate(mine, func(f []string) []string { f[1] = m; return f })
			}
		}
		rejected := 0
		for name, text := range bad {
			if _, err := verifyText(text); err == nil {
				if strings.HasPrefix(name, "move changed") {
					continue // another move may hold too, reaching the same nodes
				}
				t.Errorf("side %d: %s: verified", side, name)
			} else {
				rejected++
			}
		}
		if rejected < 3 {
			t.Errorf("side %d: only %d of %d mutations rejected", side, rejected, len(bad))
		}
	}
}

// nodePosition finds the position of node id of a certificate by playing
// the moves from the root along the first line that reaches it.
func nodePosition(t *testing.T, cert, id string) string {
	t.Helper()
	r := bufio.NewReader(strings.NewReader(cert))
	h, line, err := prove.ReadHeader(r)
	if err != nil {
		t.Fatal(err)
	}
	rules := tictactoe.Spec.New(tictactoe.Spec.Defaults())
	c, err := prove.Read(r, h, line, rules)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := strconv.Atoi(id)
	root, _ := rules.ParsePosition(c.Position)
	seen := map[int]bool{}
	var find func(n int, s game.State) string
	find = func(n int, s game.State) string {
		if n == want {
			return s.String()
		}
		if seen[n] {
			return ""
		}
		seen[n] = true
		for i, m := range c.Nodes[n].Moves {
			if ch := c.Nodes[n].Children[i]; ch >= 0 {
				next, _ := s.Play(m)
				if p := find(ch, next); p != "" {
					return p
				}
			}
		}
		return ""
	}
	return find(0, root)
}
