package ugi_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
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
	long := strings.Repeat("x", 200_000)
	for _, tc := range []struct{ cmd, want string }{
		{"frobnicate", `unknown command "frobnicate"`},
		{"position", "want startpos or fen"},
		{"position startpos moves z9", "move z9"},
		{"position fen 9/9 w", "position"},
		{"setoption name", "want \"setoption name NAME value VALUE\""},
		{"setoption name nonsense value 3", `no option "nonsense"`},
		{"setoption name threads value -2", `threads must be a number from 1 to 64, not "-2"; it stays 1`},
		{"setoption name threads value 1000", `threads must be a number from 1 to 64, not "1000"`},
		{"setoption name threads value 65", `from 1 to 64`},
		{"setoption name hash value 0", `hash must be a number from 1 to 4096 (MB), not "0"; it stays 64`},
		{"setoption name hash value 1000000", `from 1 to 4096`},
		{"setoption name player value nobody", `unknown player "nobody"`},
		{"query", "want gameover, p1turn or result"},
		{"query colour", `unknown query "colour"`},
		// Echoed input is clipped: 60 characters, an ellipsis and the length.
		{long, `unknown command "` + strings.Repeat("x", 60) + `"… (200000 characters)`},
		{"position fen " + long + " w 0 0", `"… (200006 characters)`},
	} {
		s.send(tc.cmd)
		l, _ := s.expect("info string", 5*time.Second)
		if !strings.Contains(l, tc.want) {
			t.Errorf("%q: %q, want it to contain %q", clipped(tc.cmd), clipped(l), tc.want)
		}
		if len(l) > 300 {
			t.Errorf("%q: an info string of %d bytes", clipped(tc.cmd), len(l))
		}
	}
	// The limits are kept: threads 64 is taken, 65 was not.
	s.send("setoption name threads value 64", "setoption name threads value 2", "isready")
	if _, before := s.expect("readyok", 5*time.Second); len(before) > 0 {
		t.Errorf("threads 64 and 2: %q", before)
	}
	// A line longer than MaxLine is skipped with a note, and the engine
	// reads on.
	s.send(strings.Repeat("y", ugi.MaxLine+10))
	if l, _ := s.expect("info string", 5*time.Second); !strings.Contains(l, "longer than") {
		t.Errorf("an overlong line: %q", clipped(l))
	}
	s.send("isready")
	s.expect("readyok", 5*time.Second)
	// The engine still plays.
	s.send("position startpos", "go depth 1")
	s.expect("bestmove", 10*time.Second)
}

// clipped shortens a line for a test's message.
func clipped(s string) string {
	if len(s) > 100 {
		return s[:100] + "..."
	}
	return s
}

// TestGoAlwaysAnswers: as in UCI, go answers bestmove whatever its
// arguments; what it cannot use is ignored, and values out of range are
// brought into it, each with an info string.
func TestGoAlwaysAnswers(t *testing.T) {
	s := startEngine(t, defaultRules(t, "tumbling"))
	s.send("setoption name player value level:2")
	for _, tc := range []struct {
		args  string
		notes []string // in the info strings before bestmove
		limit time.Duration
	}{
		{"sideways 3 depth 2", []string{`unknown parameter "sideways 3" ignored`}, 5 * time.Second},
		{"ponder wtime 100 btime 100 movetime 50", []string{`"ponder" ignored`, `"wtime 100" ignored`, `"btime 100" ignored`}, 5 * time.Second},
		{"searchmoves a4-a3 depth 1", []string{`"searchmoves" ignored`, `"a4-a3" ignored`}, 5 * time.Second},
		{"movetime soon", []string{`movetime "soon" is not a number; ignored`}, 5 * time.Second},
		{"depth", []string{"depth needs a value; ignored"}, 5 * time.Second},
		{"depth movetime 50", []string{"depth needs a value; ignored"}, 5 * time.Second},
		{"depth -1 movetime 50", []string{"depth -1 is below 1; ignored"}, 5 * time.Second},
		{"depth 0 movetime 50", []string{"depth 0 is below 1; ignored"}, 5 * time.Second},
		{"depth 1000 movetime 50", []string{"depth 1000 is more than 120; searching to depth 120"}, 5 * time.Second},
		{"movetime 0 depth 1", []string{"movetime 0 is below 1 ms; ignored"}, 5 * time.Second},
		{"movetime -5 depth 1", []string{"movetime -5 is below 1 ms; ignored"}, 5 * time.Second},
		{"nodes -1 depth 1", []string{"nodes -1 is below 0; ignored"}, 5 * time.Second},
		{"nodes 99999999999999999999999 depth 1", nil, 5 * time.Second},
		// Huge thinking times are capped at a day; the search is stopped.
		{"movetime 9223372036854775807", []string{"is more than 24h0m0s; searching 24h0m0s"}, 0},
		{"movetime 99999999999999999999999", []string{"is more than 24h0m0s"}, 0},
		{"p1time 9223372036854775807 p2time 9223372036854775807", []string{"p1time 9223372036854775807 is more than 24h0m0s", "p2time"}, 0},
		// No time left on the clock: an answer at once.
		{"p1time 0 p2time 0", []string{"no time left on the clock"}, 2 * time.Second},
		{"p1time -100 p2time 5000", []string{"p1time -100 is below 0; taken as 0", "no time left"}, 2 * time.Second},
	} {
		s.send("position startpos", "go "+tc.args)
		if tc.limit == 0 {
			// A long search (unless the level stops it sooner): stop it.
			time.Sleep(200 * time.Millisecond)
			s.send("stop")
			tc.limit = 5 * time.Second
		}
		best, before := s.expect("bestmove", tc.limit)
		text := strings.Join(before, "\n")
		for _, want := range tc.notes {
			if !strings.Contains(text, want) {
				t.Errorf("go %s: the lines before %q lack %q:\n%s", tc.args, best, want, text)
			}
		}
		move := strings.TrimPrefix(best, "bestmove ")
		if _, err := defaultRules(t, "tumbling").Start().Play(move); err != nil {
			t.Errorf("go %s: %q is not a legal move: %v", tc.args, best, err)
		}
	}
}

// TestOptionDefaults: the rule options' defaults are the rules the engine
// started with (magneton --rule ... ugi), and the spin options advertise
// the ranges the engine enforces.
func TestOptionDefaults(t *testing.T) {
	rules, err := games.Rules("tumbling", "boardspace")
	if err != nil {
		t.Fatal(err)
	}
	s := startEngine(t, rules)
	s.send("ugi")
	_, opts := s.expect("ugiok", 5*time.Second)
	text := strings.Join(opts, "\n")
	for _, want := range []string{
		"option name game type combo default tumbling-down",
		"option name layout type combo default boardspace var original var boardspace",
		"option name threads type spin default 1 min 1 max 64",
		"option name hash type spin default 64 min 1 max 4096",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the ugi answer lacks %q:\n%s", want, text)
		}
	}
	for name, value := range rules.Settings() {
		if !strings.Contains(text, "option name "+name+" type combo default "+value+" ") {
			t.Errorf("option %s does not default to the engine's %s:\n%s", name, value, text)
		}
	}
}

// TestMoveTime: go movetime answers within the time (the engine stops its
// search a margin before it, and answers on its own at the deadline), on a
// shared CI machine with a generous allowance for its load; the strict
// version, on a machine made busy on purpose, is TestAbuseMoveTime.
func TestMoveTime(t *testing.T) {
	for _, name := range []string{"magneton", "tumbling"} {
		s := startEngine(t, defaultRules(t, name))
		// As a client does, wait for the engine to be ready before the
		// clock starts: the first level 8 reads the book of proven
		// positions, and isready makes the player and its table.
		s.send("setoption name player value level:8", "isready")
		s.expect("readyok", 10*time.Second)
		late := moveTimes(t, s, 100*time.Millisecond, 6)
		if late > 400*time.Millisecond {
			t.Errorf("%s: go movetime 100 answered %v late", name, late)
		}
	}
}

// moveTimes sends n go movetime commands from positions of a game the
// engine plays against itself and returns the most any answer came after
// movetime (negative: all came before it).
func moveTimes(t *testing.T, s *session, movetime time.Duration, n int) time.Duration {
	t.Helper()
	worst := time.Duration(math.MinInt64)
	var moves []string
	for i := range n {
		pos := "position startpos"
		if len(moves) > 0 {
			pos += " moves " + strings.Join(moves, " ")
		}
		s.send(pos)
		start := time.Now()
		s.send(fmt.Sprintf("go movetime %d", movetime.Milliseconds()))
		best, before := s.expect("bestmove", movetime+5*time.Second)
		late := time.Since(start) - movetime
		worst = max(worst, late)
		if late > 0 {
			t.Logf("answer %d came %v late (watchdog: %t)", i, late, strings.Contains(strings.Join(before, "\n"), "overran"))
		}
		moves = append(moves, strings.TrimPrefix(best, "bestmove "))
		s.send(pos+" "+map[bool]string{true: "moves ", false: ""}[len(moves) == 1]+moves[len(moves)-1], "query gameover")
		if l, _ := s.expect("response", 5*time.Second); l == "response true" {
			moves = nil
		}
	}
	return worst
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

// stubCatalog is the project's catalogue with one more player, "stub",
// whose search is scripted: it reports infos, then returns final after
// sleeping sleep, whatever its context says. Making it with a table
// (more than the 1 MB the engine checks a player's name with) takes
// makeTime, as a large table can on a busy machine.
type stubCatalog struct {
	ugi.Catalog
	infos    []ai.Info
	final    ai.Info
	sleep    time.Duration
	makeTime time.Duration
}

func (c stubCatalog) NewPlayer(name string, rules game.Rules, cfg ai.Config) (ai.Player, error) {
	if name == "stub" {
		if cfg.HashMB > 1 {
			time.Sleep(c.makeTime)
		}
		return &stubPlayer{c: c}, nil
	}
	return c.Catalog.NewPlayer(name, rules, cfg)
}

type stubPlayer struct{ c stubCatalog }

func (p *stubPlayer) Name() string { return "stub" }
func (p *stubPlayer) NewGame()     {}
func (p *stubPlayer) Move(ctx context.Context, g *game.Game, lim ai.Limits) (string, error) {
	in, err := p.Think(ctx, g, lim, nil)
	return in.BestMove, err
}
func (p *stubPlayer) Think(ctx context.Context, g *game.Game, lim ai.Limits, info func(ai.Info)) (ai.Info, error) {
	for _, in := range p.c.infos {
		if info != nil {
			info(in)
		}
	}
	time.Sleep(p.c.sleep) // a search that does not look at ctx
	return p.c.final, nil
}

// startStub runs an engine of the stub catalogue playing the stub.
func startStub(t *testing.T, c stubCatalog) *session {
	t.Helper()
	c.Catalog = games.Catalog
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- ugi.NewEngine(c, defaultRules(t, "magneton"), outW).Run(context.Background(), inR)
		outW.Close()
	}()
	s := &session{t: t, in: inW, lines: make(chan string, 1000)}
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		awaitEnd(t, done)
	})
	s.send("setoption name player value stub")
	return s
}

// TestUnfinishedIteration: when the search's move is not the last
// completed depth's (it comes from an unfinished deeper iteration), the
// engine says so before bestmove instead of letting the last info line
// contradict it.
func TestUnfinishedIteration(t *testing.T) {
	depth3 := ai.Info{Depth: 3, Score: 12, BestMove: "d4", PV: []string{"d4", "e5", "c3"}}
	s := startStub(t, stubCatalog{infos: []ai.Info{depth3}, final: ai.Info{Depth: 3, Score: 12, BestMove: "e4", PV: []string{"e4"}, Nodes: 500}})
	s.send("position startpos", "go depth 5")
	best, before := s.expect("bestmove", 5*time.Second)
	if best != "bestmove e4" {
		t.Fatalf("got %q, want bestmove e4", best)
	}
	want := []string{
		"info depth 3 score cp 12 nodes 0 nps 0 time 0 pv d4 e5 c3",
		"info depth 4 nodes 500 nps 0 time 0 pv e4",
		"info string depth 4 unfinished: e4 searched better than depth 3's d4 before the search stopped",
	}
	if strings.Join(before, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines before bestmove:\n%s\nwant:\n%s", strings.Join(before, "\n"), strings.Join(want, "\n"))
	}
	// When they agree, nothing more is said.
	s2 := startStub(t, stubCatalog{infos: []ai.Info{depth3}, final: depth3})
	s2.send("position startpos", "go depth 3")
	if best, before := s2.expect("bestmove", 5*time.Second); best != "bestmove d4" || len(before) != 1 {
		t.Errorf("got %q after %q", best, before)
	}
}

// TestSlowPlayerMaking: the time the engine takes to make its player
// counts against the first go's, which the watchdog answers on time with a
// legal move; a client that sends isready first (as UGI's clients do
// before starting a clock) has the player made then, and its go is
// answered by the search.
func TestSlowPlayerMaking(t *testing.T) {
	c := stubCatalog{final: ai.Info{Depth: 2, BestMove: "h8", PV: []string{"h8"}}, makeTime: time.Second}
	s := startStub(t, c)
	s.send("position startpos")
	start := time.Now()
	s.send("go movetime 100")
	best, before := s.expect("bestmove", 5*time.Second)
	if took := time.Since(start); took > 400*time.Millisecond {
		t.Errorf("go movetime 100 with a player made in 1 s: answered after %v", took)
	}
	if !strings.Contains(strings.Join(before, "\n"), "before completing a depth") {
		t.Errorf("no word of the overrun before %q: %q", best, before)
	}
	if _, err := defaultRules(t, "magneton").Start().Play(strings.TrimPrefix(best, "bestmove ")); err != nil {
		t.Errorf("%q: %v", best, err)
	}

	s2 := startStub(t, c)
	start = time.Now()
	s2.send("isready")
	s2.expect("readyok", 5*time.Second)
	if took := time.Since(start); took < c.makeTime {
		t.Errorf("readyok after %v: the player was not made at isready", took)
	}
	s2.send("position startpos", "go movetime 100")
	if best, before := s2.expect("bestmove", 5*time.Second); best != "bestmove h8" {
		t.Errorf("after isready: %q after %q, want the search's h8", best, before)
	}
}

// TestAnswerOnTime: a search that does not return in time (here one that
// ignores its context) is answered for at the deadline, with the last
// completed depth's move, and its late result is dropped; the engine then
// serves the next command.
func TestAnswerOnTime(t *testing.T) {
	depth2 := ai.Info{Depth: 2, BestMove: "c3", PV: []string{"c3", "d4"}}
	for _, tc := range []struct {
		goArgs string
		within time.Duration
	}{
		{"movetime 100", 100 * time.Millisecond},
		// A clock of 2 s: a thirtieth of it, three times over at most.
		{"p1time 2000 p2time 2000", 200 * time.Millisecond},
		{"", ai.DefaultMoveTime},
	} {
		s := startStub(t, stubCatalog{infos: []ai.Info{depth2}, final: ai.Info{Depth: 2, BestMove: "h8"}, sleep: 1500 * time.Millisecond})
		s.send("position startpos")
		start := time.Now()
		s.send("go " + tc.goArgs)
		best, before := s.expect("bestmove", 5*time.Second)
		took := time.Since(start)
		if best != "bestmove c3" || !strings.Contains(strings.Join(before, "\n"), "overran its time") {
			t.Errorf("go %s: %q after %q, want the last depth's c3", tc.goArgs, best, before)
		}
		// The deadline, with room for a loaded machine.
		if took > tc.within+300*time.Millisecond {
			t.Errorf("go %s: answered after %v", tc.goArgs, took)
		}
		t.Logf("go %s: answered after %v", tc.goArgs, took)
		// The late result of the search never shows.
		s.send("isready")
		if _, before := s.expect("readyok", 5*time.Second); len(before) > 0 {
			t.Errorf("go %s: lines after bestmove: %q", tc.goArgs, before)
		}
		// The next go is answered on time too, while the stuck search still
		// holds the player: with a legal move of no search.
		start = time.Now()
		s.send("go movetime 100")
		best, _ = s.expect("bestmove", 5*time.Second)
		if took := time.Since(start); took > 400*time.Millisecond {
			t.Errorf("go movetime 100 after go %s: answered after %v", tc.goArgs, took)
		}
		if _, err := defaultRules(t, "magneton").Start().Play(strings.TrimPrefix(best, "bestmove ")); err != nil {
			t.Errorf("%q: %v", best, err)
		}
	}
}

// TestProvenInfo: on a position the proof-number solver settles, the
// default player's info line says "proven win N" for the winner and
// "proven loss N" for the loser after the winning move, as ParseProven
// reads them; an alpha-beta "mate" alone is not called proven.
func TestProvenInfo(t *testing.T) {
	s := startEngine(t, defaultRules(t, "magneton"))
	won := "8/6WB/B1B3B1/W6W/8/8/5W2/WB6 b 0 0"
	// A second, though the proof takes a few tens of milliseconds: at 300
	// ms, on two cores busy with other tests, the watchdog once answered
	// before the first depth completed, with no info line.
	s.send("position fen "+won, "go movetime 1000")
	best, infos := s.expect("bestmove", 5*time.Second)
	n, ok := 0, false
	for _, l := range infos {
		if m, proven := ugi.ParseProven(l); proven {
			n, ok = m, true
			if !strings.Contains(l, fmt.Sprintf("score mate %d proven win %d ", m, m)) {
				t.Errorf("the proven line %q", l)
			}
		}
	}
	if !ok || n < 1 || n > 6 {
		t.Fatalf("no proven win in at most 6 moves before %q: %q", best, infos)
	}
	move := strings.Fields(best)[1]
	s.send("position fen "+won+" moves "+move, "go movetime 1000")
	_, infos = s.expect("bestmove", 5*time.Second)
	var loss int
	for _, l := range infos {
		if m, proven := ugi.ParseProven(l); proven {
			loss = m
		}
	}
	if loss >= 0 || -loss > n-1 {
		t.Errorf("after %s: proven %d, want a loss in at most %d: %q", move, loss, n-1, infos)
	}
	for _, l := range []string{"info string proven win 3", "info depth 3 score mate 2 nodes 10 pv a1", "info depth 3 score mate 2 proven draw 1 pv a1"} {
		if _, ok := ugi.ParseProven(l); ok {
			t.Errorf("ParseProven(%q) claims a proof", l)
		}
	}
}
