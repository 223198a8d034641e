package main

import (
	"bufio"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ugiClient drives a `magneton ugi` process over pipes.
type ugiClient struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

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

func startUGI(t *testing.T, bin string, args ...string) *ugiClient {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"ugi"}, args...)...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &ugiClient{t: t, cmd: cmd, in: in, lines: make(chan string, 1000)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			t.Error("the engine did not quit")
		}
	})
	return c
}

func (c *ugiClient) send(lines ...string) {
	c.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(c.in, l+"\n"); err != nil {
			c.t.Fatalf("send %q: %v", l, err)
		}
	}
}

// expect reads lines until one starts with prefix and returns it with the
// lines before it.
func (c *ugiClient) expect(prefix string, timeout time.Duration) (string, []string) {
	c.t.Helper()
	var before []string
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				c.t.Fatalf("engine closed its output waiting for %q; got %q", prefix, before)
			}
			if strings.HasPrefix(l, prefix) {
				return l, before
			}
			before = append(before, l)
		case <-deadline:
			c.t.Fatalf("no %q within %v; got %q", prefix, timeout, before)
		}
	}
}

// quiet checks that no line comes within d.
func (c *ugiClient) quiet(d time.Duration) {
	c.t.Helper()
	select {
	case l := <-c.lines:
		c.t.Fatalf("unexpected line %q", l)
	case <-time.After(d):
	}
}

func TestUGI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	c := startUGI(t, bin)
	c.send("ugi")
	_, opts := c.expect("ugiok", 5*time.Second)
	if !strings.Contains(strings.Join(opts, "\n"), "option name game") {
		t.Errorf("no game option in %q", opts)
	}
	c.send("isready")
	c.expect("readyok", 5*time.Second)

	// Magneton: the win in one of the rules' example.
	c.send("uginewgame", "position fen 8/8/3WB3/3W4/3W4/2W1B3/8/8 w 8 10", "go depth 3")
	best, infos := c.expect("bestmove", 10*time.Second)
	if best != "bestmove b3" {
		t.Errorf("got %q, want bestmove b3", best)
	}
	if len(infos) == 0 || !strings.Contains(infos[len(infos)-1], "score mate 1") {
		t.Errorf("info lines %q lack score mate 1", infos)
	}
	c.send("position fen 8/8/3WB3/3W4/3W4/2W1B3/8/8 w 8 10 moves b3", "query gameover")
	if l, _ := c.expect("response", 5*time.Second); l != "response true" {
		t.Errorf("gameover: %q", l)
	}
	c.send("query result")
	if l, _ := c.expect("response", 5*time.Second); l != "response p1win" {
		t.Errorf("result: %q", l)
	}
	c.send("position startpos moves d4", "query p1turn")
	if l, _ := c.expect("response", 5*time.Second); l != "response false" {
		t.Errorf("p1turn after one move: %q", l)
	}

	// Malformed commands: an info string each, and the engine goes on.
	for _, bad := range []string{
		"frobnicate", "position", "position startpos moves z9", "position fen 9/9 w",
		"go depth", "go movetime soon", "go sideways 3", "setoption name", "setoption name nonsense value 3",
		"setoption name game value chess", "setoption name threads value -2", "query", "query colour",
	} {
		c.send(bad)
		if l, _ := c.expect("info string", 5*time.Second); l == "" {
			t.Errorf("%q: no info string", bad)
		}
	}
	c.send("isready")
	c.expect("readyok", 5*time.Second)

	// stop during go infinite: no bestmove before stop, one after.
	c.send("setoption name game value tumbling", "position startpos", "go infinite")
	c.expect("info depth", 10*time.Second)
	c.send("isready")
	c.expect("readyok", 5*time.Second)
	time.Sleep(300 * time.Millisecond)
	for {
		select {
		case l := <-c.lines:
			if strings.HasPrefix(l, "bestmove") {
				t.Fatalf("bestmove before stop: %q", l)
			}
			continue
		default:
		}
		break
	}
	c.send("stop")
	best, _ = c.expect("bestmove", 5*time.Second)
	move := strings.TrimPrefix(best, "bestmove ")
	c.send("position startpos moves "+move, "query gameover")
	if l, _ := c.expect("response", 5*time.Second); l != "response false" {
		t.Errorf("after the engine's move %s: %q", move, l)
	}
	// Its move must be legal: the position command would have said otherwise.
	c.quiet(100 * time.Millisecond)

	// go with a clock.
	c.send("position startpos", "go p1time 2000 p2time 2000 p1inc 100 p2inc 100")
	c.expect("bestmove", 5*time.Second)
	c.send("quit")

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
