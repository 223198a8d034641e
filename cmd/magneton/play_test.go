package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func runCmd(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func TestPlayScript(t *testing.T) {
	file := filepath.Join(t.TempDir(), "game.rec")
	script := strings.Join([]string{"d4", "zz", "e5-e6", "hint", "moves", "undo", "c3", "save " + file, "undo", "load " + file, "help", "quit"}, "\n") + "\n"
	out, errs, code := runCmd(t, script, "play", "--level", "2", "--time", "20ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"You play White",
		"The computer plays",
		`Bad move "zz"`,
		`Bad move "e5-e6"`,
		"Hint: ",
		"Took back 2 move(s)",
		"saved to " + file,
		"loaded " + file + ": 2 moves",
		"Commands:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	g, err := parseRecord(string(data))
	if err != nil {
		t.Fatal(err)
	}
	if m := g.Moves(); len(m) != 2 || m[0] != "c3" {
		t.Errorf("saved moves %q, want c3 and the computer's reply", m)
	}
}

func TestPlayComputerFirstAndTumbling(t *testing.T) {
	out, errs, code := runCmd(t, "undo\nresign\nundo\nquit\n", "play", "--game", "tumbling", "--side", "r", "--level", "1", "--time", "20ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"You play Red", "The computer plays", "There is no move of yours to take back", "Black wins: the computer wins"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q\n%s", want, out)
		}
	}
}

func TestPlayUsage(t *testing.T) {
	for _, args := range [][]string{
		{"play", "--level", "9"},
		{"play", "--side", "green"},
		{"play", "--color", "b"},
		{"play", "--color", "sometimes"},
		{"play", "extra"},
	} {
		if _, _, code := runCmd(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestAnalyze(t *testing.T) {
	out, errs, code := runCmd(t, "", "analyze", "--time", "2s", "--depth", "3", "8/8/3WB3/3W4/3W4/2W1B3/8/8 w 8 10")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "mate 1") || !strings.Contains(out, "best move b3") {
		t.Errorf("analysis of a win in one:\n%s", out)
	}
	out, errs, code = runCmd(t, "", "analyze", "--game", "tumbling", "--depth", "2", "--player", "mcts", "--nodes", "2000", "start")
	if code != 0 || !strings.Contains(out, "best move ") {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	if _, _, code := runCmd(t, "", "analyze", "not a position"); code != 1 {
		t.Errorf("bad position: exit %d, want 1", code)
	}
	if _, _, code := runCmd(t, "", "analyze", "--player", "random", "start"); code != 2 {
		t.Errorf("analyze with a non-searching player: exit %d, want 2", code)
	}
}

// TestPlayInterrupt: the end of the context (Ctrl-C) leaves play at once
// with status 130, at the prompt or while the computer thinks, and the
// computer's interrupted move is not played.
func TestPlayInterrupt(t *testing.T) {
	code, out, errs, took := runCtx(t, 300*time.Millisecond, "play", "--color", "never")
	if code != exitInterrupted || !strings.HasSuffix(out, "> \n") || took > time.Second {
		t.Errorf("at the prompt: exit %d after %v: %s\n%s", code, took, errs, out)
	}
	code, out, errs, took = runCtx(t, 300*time.Millisecond, "play", "--side", "second", "--time", "30s", "--level", "8")
	if code != exitInterrupted || took > 2*time.Second {
		t.Errorf("while the computer thinks: exit %d after %v: %s\n%s", code, took, errs, out)
	}
	if strings.Contains(out, "The computer plays") || strings.Contains(out, "> ") {
		t.Errorf("the interrupted move was played, or a prompt shown:\n%s", out)
	}
	// quit and the end of the input leave with status 0.
	for _, stdin := range []string{"quit\n", "", "d4\n"} {
		if _, errs, code := runCmd(t, stdin, "play", "--level", "1", "--time", "10ms"); code != 0 {
			t.Errorf("input %q: exit %d: %s", stdin, code, errs)
		}
	}
}

// TestPlaySIGINT: the binary, sent SIGINT at its prompt or while the
// computer thinks, exits 130 at once.
func TestPlaySIGINT(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	for _, tc := range []struct {
		args  []string
		ready string // printed once play waits, before the signal
	}{
		{[]string{"play"}, "> "},
		{[]string{"play", "--side", "second", "--time", "1m"}, "Type help for the commands."},
		// (Tumbling Down's start is in the book, answered at once.)
		{[]string{"analyze", "--time", "1m", "start"}, "depth  1"},
	} {
		cmd := exec.Command(bin, tc.args...)
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		defer stdin.Close()
		var out syncBuffer
		var errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(out.String(), tc.ready) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
		sent := time.Now()
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Errorf("%v: still running 5 s after SIGINT\n%s", tc.args, out.String())
			continue
		}
		if code := cmd.ProcessState.ExitCode(); code != exitInterrupted || !strings.Contains(errb.String(), "magneton: interrupted") {
			t.Errorf("%v: exit %d after SIGINT: %s\n%s", tc.args, code, errb.String(), out.String())
		}
		t.Logf("%v: exited %v after SIGINT", tc.args, time.Since(sent).Round(time.Millisecond))
	}
}

// TestPlayColor: the board is drawn in colour with --color always (and on
// a terminal with auto), plainly with never; --side picks the side.
func TestPlayColor(t *testing.T) {
	out, errs, code := runCmd(t, "quit\n", "play", "--color", "always")
	if code != 0 || !strings.Contains(out, "\x1b[") {
		t.Errorf("--color always: exit %d: %s\n%q", code, errs, out)
	}
	out, errs, code = runCmd(t, "quit\n", "play", "--color", "never", "--side", "b", "--level", "1", "--time", "10ms")
	if code != 0 || strings.Contains(out, "\x1b[") || !strings.Contains(out, "You play Black") {
		t.Errorf("--color never --side b: exit %d: %s\n%q", code, errs, out)
	}
	// --color with a side's letter is pointed to --side.
	_, errs, code = runCmd(t, "", "play", "--color", "b")
	if code != 2 || !strings.Contains(errs, "choose your side with --side b") {
		t.Errorf("--color b: exit %d: %s", code, errs)
	}
}

// runCtx runs the command line with a context it cancels after delay and
// stdin that never ends, and returns the exit status, standard output and
// error, and how long the command took after the cancel.
func runCtx(t *testing.T, delay time.Duration, args ...string) (int, string, string, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdin, w := io.Pipe()
	defer w.Close()
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, args, stdin, &out, &errb) }()
	time.Sleep(delay)
	cancel()
	at := time.Now()
	select {
	case code := <-done:
		return code, out.String(), errb.String(), time.Since(at)
	case <-time.After(10 * time.Second):
		t.Fatalf("%v: still running 10 s after the interrupt", args)
	}
	return 0, "", "", 0
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader on two
// goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
