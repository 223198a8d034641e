package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	out, errs, code := runCmd(t, "undo\nresign\nundo\nquit\n", "play", "--game", "tumbling", "--color", "r", "--level", "1", "--time", "20ms")
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
		{"play", "--color", "green"},
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
