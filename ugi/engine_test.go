package ugi_test

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/magneton"
	"github.com/magneton-games/magneton/ugi"
)

// session drives an Engine running in this process over pipes, as a GUI
// drives `magneton ugi` over a process's standard input and output.
type session struct {
	t     *testing.T
	in    io.WriteCloser
	lines chan string
}

// pipeEngine runs an Engine for rules on pipes and returns its output,
// its input and where Run's error arrives when it ends.
func pipeEngine(rules game.Rules) (io.Reader, io.WriteCloser, <-chan error) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- ugi.NewEngine(games.Catalog, rules, outW).Run(context.Background(), inR)
		outW.Close()
	}()
	return outR, inW, done
}

// awaitEnd waits for an engine's Run to end without an error.
func awaitEnd(t *testing.T, done <-chan error) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("the engine did not stop at the end of its input")
	}
}

func startEngine(t *testing.T, rules game.Rules) *session {
	t.Helper()
	out, in, done := pipeEngine(rules)
	s := &session{t: t, in: in, lines: make(chan string, 1000)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		in.Close()
		awaitEnd(t, done)
	})
	return s
}

func (s *session) send(lines ...string) {
	s.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(s.in, l+"\n"); err != nil {
			s.t.Fatalf("send %q: %v", l, err)
		}
	}
}

// expect reads lines until one starts with prefix and returns it with the
// lines before it.
func (s *session) expect(prefix string, timeout time.Duration) (string, []string) {
	s.t.Helper()
	var before []string
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("the engine closed its output waiting for %q; got %q", prefix, before)
			}
			if strings.HasPrefix(l, prefix) {
				return l, before
			}
			before = append(before, l)
		case <-deadline:
			s.t.Fatalf("no %q within %v; got %q", prefix, timeout, before)
		}
	}
}

// quiet checks that no line comes within d.
func (s *session) quiet(d time.Duration) {
	s.t.Helper()
	select {
	case l := <-s.lines:
		s.t.Fatalf("unexpected line %q", l)
	case <-time.After(d):
	}
}

func defaultRules(t *testing.T, name string) game.Rules {
	t.Helper()
	r, err := games.Rules(name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestHandshakeAndQueries(t *testing.T) {
	s := startEngine(t, defaultRules(t, "magneton"))
	s.send("ugi")
	_, opts := s.expect("ugiok", 5*time.Second)
	text := strings.Join(opts, "\n")
	for _, want := range []string{
		"id name magneton",
		"option name game type combo default magneton var magneton var tumbling-down",
		"option name win type combo default mover-only var mover-only var owner-wins",
		"option name threads type spin",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the ugi answer lacks %q:\n%s", want, text)
		}
	}
	s.send("isready")
	s.expect("readyok", 5*time.Second)

	// The win in one of Magneton's rules example.
	s.send("uginewgame", "position fen 8/8/3WB3/3W4/3W4/2W1B3/8/8 w 8 10", "go depth 3")
	best, infos := s.expect("bestmove", 10*time.Second)
	if best != "bestmove b3" {
		t.Errorf("got %q, want bestmove b3", best)
	}
	if len(infos) == 0 || !strings.Contains(infos[len(infos)-1], "score mate 1") {
		t.Errorf("info lines %q lack score mate 1", infos)
	}
	for _, tc := range []struct{ send, want string }{
		{"position fen 8/8/3WB3/3W4/3W4/2W1B3/8/8 w 8 10 moves b3", ""},
		{"query gameover", "response true"},
		{"query result", "response p1win"},
		{"position startpos moves d4", ""},
		{"query p1turn", "response false"},
		{"query gameover", "response false"},
		{"query result", "response none"},
	} {
		s.send(tc.send)
		if tc.want == "" {
			continue
		}
		if l, _ := s.expect("response", 5*time.Second); l != tc.want {
			t.Errorf("%s: %q, want %q", tc.send, l, tc.want)
		}
	}
}

// TestGameLookup checks that the game option takes every name and alias
// of every registered game, and that each game then plays.
func TestGameLookup(t *testing.T) {
	s := startEngine(t, defaultRules(t, "magneton"))
	for _, g := range games.All() {
		for _, name := range append([]string{g.Spec.Name}, g.Spec.Aliases...) {
			s.send("setoption name game value "+name, "position startpos", "go depth 1")
			best, _ := s.expect("bestmove", 10*time.Second)
			move := strings.TrimPrefix(best, "bestmove ")
			if _, err := g.Spec.New(g.Spec.Defaults()).Start().Play(move); err != nil {
				t.Errorf("game %s: bestmove %q from the start is not legal: %v", name, move, err)
			}
		}
	}
	s.send("setoption name game value chess")
	if l, _ := s.expect("info string", 5*time.Second); !strings.Contains(l, `unknown game "chess"`) {
		t.Errorf("an unknown game: %q", l)
	}
}

func TestMalformedCommands(t *testing.T) {
	s := startEngine(t, defaultRules(t, "magneton"))
	for _, tc := range []struct{ cmd, want string }{
		{"frobnicate", `unknown command "frobnicate"`},
		{"position", "want startpos or fen"},
		{"position startpos moves z9", "move z9"},
		{"position fen 9/9 w", "position"},
		{"go depth", "depth needs a value"},
		{"go movetime soon", `"soon" is not a number`},
		{"go sideways 3", `unknown parameter "sideways"`},
		{"setoption name", "want \"setoption name NAME value VALUE\""},
		{"setoption name nonsense value 3", `no option "nonsense"`},
		{"setoption name threads value -2", "positive number"},
		{"setoption name player value nobody", `unknown player "nobody"`},
		{"query", "want gameover, p1turn or result"},
		{"query colour", `unknown query "colour"`},
	} {
		s.send(tc.cmd)
		if l, _ := s.expect("info string", 5*time.Second); !strings.Contains(l, tc.want) {
			t.Errorf("%q: %q, want it to contain %q", tc.cmd, l, tc.want)
		}
	}
	s.send("isready")
	s.expect("readyok", 5*time.Second)
	// The engine still plays.
	s.send("position startpos", "go depth 1")
	s.expect("bestmove", 10*time.Second)
}

// TestStopInfinite checks that go infinite answers only after stop, and
// that the engine stays responsive while it searches.
func TestStopInfinite(t *testing.T) {
	s := startEngine(t, defaultRules(t, "tumbling"))
	s.send("position startpos", "go infinite")
	s.expect("info depth", 10*time.Second)
	s.send("isready")
	if _, before := s.expect("readyok", 5*time.Second); strings.Contains(strings.Join(before, "\n"), "bestmove") {
		t.Fatalf("bestmove before stop: %q", before)
	}
	s.send("position startpos")
	if l, _ := s.expect("info string", 5*time.Second); !strings.Contains(l, "a search is running") {
		t.Errorf("position during a search: %q", l)
	}
	s.send("stop")
	best, _ := s.expect("bestmove", 5*time.Second)
	move := strings.TrimPrefix(best, "bestmove ")
	s.send("position startpos moves "+move, "query gameover")
	if l, before := s.expect("response", 5*time.Second); l != "response false" || len(before) > 0 {
		t.Errorf("after the engine's move %s: %q %q", move, before, l)
	}
	s.quiet(100 * time.Millisecond)
	// go with a clock answers within it.
	start := time.Now()
	s.send("position startpos", "go p1time 2000 p2time 2000 p1inc 100 p2inc 100")
	s.expect("bestmove", 5*time.Second)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("with 2 s on the clock the engine took %v", d)
	}
}

// TestClientAgainstEngine plays games between a Client and an Engine in
// this process: the client's moves are the engine's, checked by the rules.
func TestClientAgainstEngine(t *testing.T) {
	for _, name := range []string{"magneton", "tumbling-down"} {
		rules := defaultRules(t, name)
		out, in, done := pipeEngine(rules)
		c, err := ugi.Connect("in-process", out, in, rules)
		if err != nil {
			t.Fatal(err)
		}
		greedy, err := games.NewPlayer("greedy", rules, ai.Config{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		g := game.NewGame(rules.Start())
		players := [2]ai.Player{c, greedy}
		for ply := 0; ply < 30; ply++ {
			if r, _ := g.Result(); r.Over() {
				break
			}
			p := players[g.Position().Side()]
			m, err := p.Move(context.Background(), g, ai.Limits{Depth: 2})
			if err != nil {
				t.Fatalf("%s ply %d: %v", name, ply, err)
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("%s ply %d: %s's move: %v", name, ply, p.Name(), err)
			}
		}
		if len(g.Moves()) < 2 {
			t.Errorf("%s: only %d moves played", name, len(g.Moves()))
		}
		if err := c.Close(); err != nil {
			t.Error(err)
		}
		awaitEnd(t, done)
	}
	// The rules' options reach the engine: set up for Tumbling Down, it is
	// switched by the client to Magneton under force=weak, and its moves
	// are checked by the client's rules.
	weak, _ := magneton.Spec.Rules("weak-force")
	out, in, done := pipeEngine(defaultRules(t, "tumbling"))
	c, err := ugi.Connect("in-process", out, in, weak)
	if err != nil {
		t.Fatal(err)
	}
	g := game.NewGame(weak.Start())
	for range 30 {
		m, err := c.Move(context.Background(), g, ai.Limits{Depth: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("weak-force: the engine played %s: %v", m, err)
		}
	}
	c.Close()
	awaitEnd(t, done)
}
