package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runBinary runs the binary and returns its standard output, standard error
// and exit status.
func runBinary(t *testing.T, bin, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// referenceRows reads a reference file of the repository's testdata.
func referenceRows(t *testing.T, game, name string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", game, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			rows = append(rows, strings.Split(line, "\t"))
		}
	}
	return rows
}

// TestBatchModesAgainstReference feeds every reference position of both
// games through `moves` and `apply` in batch mode, as a tool would.
func TestBatchModesAgainstReference(t *testing.T) {
	bin := buildBinary(t)
	for _, g := range []string{"magneton", "tumbling-down"} {
		rows := referenceRows(t, g, "positions.tsv")
		var positions, applies strings.Builder
		for _, r := range rows {
			positions.WriteString(r[0] + "\n")
			applies.WriteString(r[0] + "\t" + r[2] + "\n")
		}
		out, errOut, code := runBinary(t, bin, positions.String(), "moves", "--game", g)
		if code != 0 {
			t.Fatalf("%s moves: exit %d: %s", g, code, errOut)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != len(rows) {
			t.Fatalf("%s moves: %d lines for %d positions", g, len(lines), len(rows))
		}
		for i, r := range rows {
			if lines[i] != r[1] {
				t.Errorf("%s moves %s:\n got %s\nwant %s", g, r[0], lines[i], r[1])
			}
		}
		out, errOut, code = runBinary(t, bin, applies.String(), "apply", "--game", g)
		if code != 0 {
			t.Fatalf("%s apply: exit %d: %s", g, code, errOut)
		}
		lines = strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		for i, r := range rows {
			if want := r[3] + "\t" + r[4]; lines[i] != want {
				t.Errorf("%s apply %s %s:\n got %s\nwant %s", g, r[0], r[2], lines[i], want)
			}
		}
	}
}

func TestCommands(t *testing.T) {
	bin := buildBinary(t)
	const fig4 = "8/W1BB2W1/3W4/8/1B1W4/4B1B1/2W5/6B1 w 0 0"
	for _, tc := range []struct {
		name     string
		args     []string
		stdin    string
		code     int
		stdout   string // the whole output, or with a trailing "..." its beginning
		lastLine string
		stderr   string // a part of the error message
	}{
		{name: "moves start", args: []string{"moves", "start"}, lastLine: strings.Join(allSquares(), " ")},
		{name: "moves unquoted", args: append([]string{"moves"}, strings.Fields(fig4)...), stdout: "a7-b7 c2-c6 d4-a1 ..."},
		{name: "apply", args: []string{"apply", fig4, "d4-a1"}, stdout: "W6W/2BB4/3W4/8/1B6/4B1B1/2W5/WB6 b 0 0\t-\n"},
		{name: "apply wins", args: []string{"apply", "8/8/3WB3/3W4/3W4/2W1B3/8/8 w 1 1", "b3"}, lastLine: "8/8/3WB3/3W4/3W4/1W1WB3/8/8 b 0 1\tw"},
		{name: "apply after the end", args: []string{"apply", "8/8/3WB3/3W4/3W4/2W1B3/8/8 w 1 1", "b3", "a1"}, code: 1, stderr: "move 2: a1: the game is over"},
		{name: "apply repetition draws", args: []string{"apply", "8/6B1/8/8/8/2W5/1B6/W7 w 0 0", "c3-f6", "e5-b2", "c3-f6", "e5-b2"}, lastLine: "8/6B1/8/8/8/2W5/1B6/W7 w 0 0\tdraw"},
		{name: "apply no repetition rule", args: []string{"apply", "--rule", "repetition=off", "8/6B1/8/8/8/2W5/1B6/W7 w 0 0", "c3-f6", "e5-b2", "c3-f6", "e5-b2"}, lastLine: "8/6B1/8/8/8/2W5/1B6/W7 w 0 0\t-"},
		{name: "perft", args: []string{"perft", "start", "2"}, stdout: "4032\n"},
		{name: "perft divide threads", args: []string{"perft", "--divide", "--threads", "2", fig4, "2"}, stdout: "a7-b7 10\nc2-c6 10\nd4-a1 8\n...", lastLine: "100"},
		{name: "perft tumbling", args: []string{"perft", "--game", "tumbling", "start", "2"}, stdout: "21904\n"},
		{name: "show", args: []string{"show", fig4}, stdout: "    a b c d e f g h\n ..."},
		{name: "rules", args: []string{"rules", "--rule", "weak-force"}, lastLine: "in force: force=weak,movement=any-magnet,no-moves=loses,repetition=3,win=mover-only"},
		{name: "bad rank", args: []string{"moves", "8/8/8/8/8/WWW6/8/8 w 12 12"}, code: 1, stderr: "rank 3 has 9 squares"},
		{name: "not your stone", args: []string{"apply", fig4, "c7-c6"}, code: 1, stderr: "c7-c6: c7 is not your stone"},
		{name: "no magnet", args: []string{"apply", fig4, "d4-a4"}, code: 1, stderr: "d4-a4: no magnet sends d4 to a4"},
		{name: "batch error names the line", args: []string{"moves"}, stdin: "start\n8/8 w 1 1\n", code: 1, stderr: "standard input line 2"},
		{name: "batch apply needs a tab", args: []string{"apply"}, stdin: "start d4\n", code: 1, stderr: "line 1: want POSITION<TAB>MOVE"},
		{name: "unknown game", args: []string{"moves", "--game", "chess", "start"}, code: 2, stderr: "unknown game \"chess\""},
		{name: "unknown rule", args: []string{"moves", "--rule", "win=never", "start"}, code: 2, stderr: "rule option win cannot be \"never\""},
		{name: "unknown flag", args: []string{"perft", "--fast", "start", "1"}, code: 2, stderr: "unknown flag"},
		{name: "unknown command", args: []string{"frobnicate"}, code: 2, stderr: "unknown command"},
		{name: "missing depth", args: []string{"perft", "start"}, code: 2, stderr: "want POSITION DEPTH"},
		{name: "bad depth", args: []string{"perft", "start", "deep"}, code: 2, stderr: "depth \"deep\""},
		{name: "apply without moves", args: []string{"apply", "start"}, code: 2, stderr: "at least one MOVE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runBinary(t, bin, tc.stdin, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tc.code, errOut)
			}
			if tc.stderr != "" && !strings.Contains(errOut, tc.stderr) {
				t.Errorf("stderr %q does not contain %q", errOut, tc.stderr)
			}
			if strings.Contains(errOut, "goroutine") || strings.Contains(errOut, "panic") {
				t.Errorf("stderr has a stack trace: %s", errOut)
			}
			if prefix, ok := strings.CutSuffix(tc.stdout, "..."); ok {
				if !strings.HasPrefix(out, prefix) {
					t.Errorf("stdout %q does not start with %q", out, prefix)
				}
			} else if tc.stdout != "" && out != tc.stdout {
				t.Errorf("stdout %q, want %q", out, tc.stdout)
			}
			if tc.lastLine != "" {
				lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
				if last := lines[len(lines)-1]; last != tc.lastLine {
					t.Errorf("last line %q, want %q", last, tc.lastLine)
				}
			}
		})
	}
}

func allSquares() []string {
	var out []string
	for f := 'a'; f <= 'h'; f++ {
		for r := '1'; r <= '8'; r++ {
			out = append(out, string(f)+string(r))
		}
	}
	return out
}
