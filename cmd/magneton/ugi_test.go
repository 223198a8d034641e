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

// TestUGI is the end-to-end check of `magneton ugi` as a process: the
// protocol itself is tested in package ugi, in-process over pipes.
func TestUGI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	c := startUGI(t, bin, "--game", "tumbling")
	c.send("ugi")
	_, opts := c.expect("ugiok", 5*time.Second)
	if !strings.Contains(strings.Join(opts, "\n"), "option name game type combo default tumbling-down") {
		t.Errorf("--game tumbling is not the engine's game: %q", opts)
	}
	c.send("isready")
	c.expect("readyok", 5*time.Second)
	c.send("setoption name game value magneton", "position fen 8/8/3WB3/3W4/3W4/2W1B3/8/8 w 8 10", "go depth 3")
	if best, _ := c.expect("bestmove", 10*time.Second); best != "bestmove b3" {
		t.Errorf("got %q, want bestmove b3", best)
	}
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
