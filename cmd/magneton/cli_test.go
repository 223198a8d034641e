package main

import (
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/games"
)

// allCommands lists the command tree, the root first.
func allCommands() []*cobra.Command {
	var out []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		out = append(out, c)
		for _, sub := range c.Commands() {
			if sub.Name() != "help" && sub.Name() != "completion" {
				walk(sub)
			}
		}
	}
	walk(newRoot(strings.NewReader(""), io.Discard, io.Discard))
	return out
}

// TestHelp: every command's --help shows the flags by their types (a
// backtick in a usage string no longer becomes one), and the main
// subcommands have examples.
func TestHelp(t *testing.T) {
	withExamples := map[string]bool{"magneton": true, "moves": true, "apply": true, "perft": true, "show": true, "rules": true,
		"analyze": true, "match": true, "play": true, "ugi": true, "solve": true, "record": true, "check": true, "convert": true, "show FILE": true, "bot": true}
	for _, c := range allCommands() {
		args := append(strings.Fields(commandName(c)), "--help")
		out, errs, code := runCmd(t, "", args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, errs)
			continue
		}
		if strings.Contains(out, "--rule magneton") || strings.Contains(out, "`") {
			t.Errorf("%v: a flag's usage shows a backtick or takes it as its type:\n%s", args, out)
		}
		if strings.Contains(out, "--rule") && !strings.Contains(out, "--rule stringArray") {
			t.Errorf("%v: --rule is not shown with its type:\n%s", args, out)
		}
		name := c.Name()
		if c.Parent() != nil && c.Parent().Name() == "record" && name == "show" {
			name = "show FILE"
		}
		if withExamples[name] && (c.Example == "" || !strings.Contains(out, "Examples:")) {
			t.Errorf("%v: no examples", args)
		}
	}
}

// shellWords splits an example's command line as a shell would for the
// quoting the examples use: words separated by spaces, double quotes
// around a word with spaces, and a comment from " #" on. It returns the
// words after "magneton" and what the comment says the output holds: the
// comment up to a remark in parentheses.
func shellWords(line string) (args []string, want string) {
	if i := strings.Index(line, " #"); i >= 0 {
		line, want = line[:i], strings.TrimSpace(line[i+2:])
		if j := strings.Index(want, "("); j >= 0 {
			want = strings.TrimSpace(want[:j])
		}
	}
	var cur strings.Builder
	quoted, inWord := false, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args[1:], want
}

// referencePositions are the position texts of the reference data of a
// game (testdata/<name>/*.tsv), the first and fourth columns.
func referencePositions(t *testing.T, name string) map[string]bool {
	t.Helper()
	known := map[string]bool{}
	for _, file := range []string{"perft.tsv", "positions.tsv"} {
		for _, row := range referenceRows(t, name, file) {
			known[row[0]] = true
			if len(row) > 3 {
				known[row[3]] = true
			}
		}
	}
	return known
}

// TestExamples runs the examples of every command's help that are quick
// and need no file, and checks what they print against their comments;
// every position text quoted in an example, run or not, is one of the
// reference data's (testdata/) for its game.
func TestExamples(t *testing.T) {
	refs := map[string]map[string]bool{}
	for _, gm := range games.All() {
		refs[gm.Spec.Name] = referencePositions(t, gm.Spec.Name)
	}
	ran := 0
	for _, c := range allCommands() {
		for _, text := range []string{c.Example, c.Long} {
			for _, line := range strings.Split(text, "\n") {
				if !strings.HasPrefix(line, "  magneton ") {
					continue // not an example: indented, from the program's name
				}
				line = strings.TrimSpace(line)
				args, want := shellWords(line)
				gameName := "magneton"
				for i, a := range args {
					if a == "--game" && i+1 < len(args) {
						if gm, err := games.Lookup(args[i+1]); err == nil {
							gameName = gm.Spec.Name
						}
					}
				}
				for _, a := range args {
					if strings.Contains(a, "/") && strings.Contains(a, " ") && !refs[gameName][a] {
						t.Errorf("example %q: the position %q is not in testdata/%s", line, a, gameName)
					}
				}
				if !quickExample(args) {
					continue
				}
				ran++
				out, errs, code := runCmd(t, "", args...)
				if code != 0 {
					t.Errorf("example %q: exit %d: %s", line, code, errs)
					continue
				}
				if want != "" && !strings.Contains(out, want) {
					t.Errorf("example %q: the output lacks %q:\n%s", line, want, out)
				}
			}
		}
	}
	if ran < 10 {
		t.Errorf("only %d examples ran", ran)
	}
	// Any position quoted in a help text, in an example or not, is one
	// of the reference data's, of some game.
	quoted := regexp.MustCompile(`"([^"\n]*/[^"\n]* [^"\n]*)"`)
	positions := 0
	for _, c := range allCommands() {
		for _, m := range quoted.FindAllStringSubmatch(c.Long+"\n"+c.Example, -1) {
			positions++
			found := false
			for _, known := range refs {
				found = found || known[m[1]]
			}
			if !found {
				t.Errorf("%s: the help quotes %q, which is not a position of testdata/", c.CommandPath(), m[1])
			}
		}
	}
	if positions < 10 {
		t.Errorf("only %d positions quoted in the help texts", positions)
	}
}

// quickExample tells the examples TestExamples runs: no files, no site's
// database (admin), no standard input, no long searches.
func quickExample(args []string) bool {
	joined := " " + strings.Join(args, " ") + " "
	for _, slow := range []string{" play ", " match ", " serve ", " bot ", " ugi ", " record ", " bench ", " suite ", " < ", " > ", "--time ", " --verify ", " admin ", " archive "} {
		if strings.Contains(joined, slow) {
			return false
		}
	}
	if strings.Contains(joined, " analyze ") && !strings.Contains(joined, "--depth") {
		return false
	}
	if strings.Contains(joined, " perft ") && strings.Contains(joined, " start 4 ") && testing.Short() {
		return false
	}
	if strings.Contains(joined, " moves ") && len(args) == 1 {
		return false // reads standard input
	}
	return true
}

// TestMessages: every error reads once with the program's name, naming
// the subcommand without repeating it, and exits with its status.
func TestMessages(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string // the whole first line of standard error, or its start
	}{
		{[]string{"perft"}, 2, "magneton: perft: want POSITION DEPTH, got 0 argument(s)"},
		{[]string{"perft", "--x", "start", "1"}, 2, "magneton: perft: unknown flag: --x (see magneton perft --help)"},
		{[]string{"--x"}, 2, "magneton: unknown flag: --x (see magneton --help)"},
		{[]string{"record", "check"}, 2, "magneton: record check: want at least one FILE"},
		{[]string{"record", "show", "--number", "x", "f"}, 2, `magneton: record show: invalid argument "x" for "-n, --number" flag`},
		{[]string{"show", "start", "--color", "pink"}, 2, `magneton: show: --color "pink": want auto, always or never`},
		{[]string{"frobnicate"}, 2, `magneton: unknown command "frobnicate" for "magneton"`},
		{[]string{"puzzles", "bogus"}, 2, `magneton: puzzles: unknown subcommand "bogus" (see magneton puzzles --help)`},
		{[]string{"record", "bogus"}, 2, `magneton: record: unknown subcommand "bogus"`},
		{[]string{"moves", "nonsense"}, 1, `magneton: position "nonsense": want 4 fields`},
		{[]string{"perft", "start", "21"}, 2, `magneton: perft: depth "21" is not a number from 0 to 20`},
	} {
		_, errs, code := runCmd(t, "", tc.args...)
		first, _, _ := strings.Cut(errs, "\n")
		if code != tc.code || !strings.HasPrefix(first, tc.want) {
			t.Errorf("%v: exit %d, %q; want %d, %q", tc.args, code, first, tc.code, tc.want)
		}
		if strings.Count(first, "magneton:") != 1 || strings.Contains(first, "magneton magneton") {
			t.Errorf("%v: the program's name is repeated: %q", tc.args, first)
		}
	}
}

// TestVersion: --version prints the module's version and the Go version;
// a binary built in a git checkout also names its revision.
func TestVersion(t *testing.T) {
	out, errs, code := runCmd(t, "", "--version")
	if code != 0 || !strings.HasPrefix(out, "magneton ") || !strings.Contains(out, runtime.Version()) {
		t.Errorf("--version: exit %d: %q %s", code, out, errs)
	}
	if testing.Short() {
		return
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not in a git checkout:", err)
	}
	bin := filepath.Join(t.TempDir(), "magneton")
	if out, err := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Skipf("go build -buildvcs=true: %v\n%s", err, out)
	}
	out, _, code = runBinary(t, bin, "", "--version")
	if code != 0 || !strings.Contains(out, "revision ") {
		t.Errorf("--version of a binary built with VCS stamping: %q", out)
	}
	// Someone may commit between the two; the revision is a commit's.
	if rev := strings.TrimSpace(string(head)); !strings.Contains(out, "revision "+rev[:12]) {
		t.Logf("--version %q names another revision than HEAD %s (a commit in between?)", out, rev)
	}
}

// TestClippedInput: a long bad input is quoted in part, with its length,
// and a line on standard input beyond the limit is named by its number.
func TestClippedInput(t *testing.T) {
	long := strings.Repeat("x", 3<<20)
	_, errs, code := runCmd(t, "", "moves", long)
	if code != 1 || len(errs) > 300 || !strings.Contains(errs, `"…`) || !strings.Contains(errs, "(3145728 characters)") {
		t.Errorf("a 3 MB position: exit %d, %d bytes: %.300s", code, len(errs), errs)
	}
	_, errs, code = runCmd(t, "start\n"+long+"\n", "moves")
	if code != 1 || len(errs) > 300 || !strings.Contains(errs, "standard input line 2: ") || !strings.Contains(errs, "(3145728 characters)") {
		t.Errorf("a 3 MB line: exit %d, %d bytes: %.300s", code, len(errs), errs)
	}
	huge := strings.Repeat("y", 10<<20)
	for _, tc := range []struct{ stdin, want string }{
		{huge + "\n", "standard input line 1 is longer than the limit of 4 MiB (4194304 bytes)"},
		{"start\n\nstart\n" + huge, "standard input line 4 is longer than the limit of 4 MiB"},
	} {
		_, errs, code := runCmd(t, tc.stdin, "moves")
		if code != 1 || !strings.Contains(errs, tc.want) || len(errs) > 300 {
			t.Errorf("a 10 MB line: exit %d: %.300s, want %q", code, errs, tc.want)
		}
	}
	for _, tc := range []struct {
		msg, want string
	}{
		{`position "short": bad`, `position "short": bad`},
		{`a "` + strings.Repeat("é", 100) + `" b`, `a "` + strings.Repeat("é", 60) + `"… (100 characters) b`},
		{`unterminated "` + strings.Repeat("z", 100), `unterminated "` + strings.Repeat("z", 100)},
		{strings.Repeat("w", 5000), strings.Repeat("w", 1000) + "… (5000 bytes)"},
	} {
		if got := clipMessage(tc.msg); got != tc.want {
			t.Errorf("clipMessage(%.80q) = %.200q, want %.200q", tc.msg, got, tc.want)
		}
	}
}

// TestInterrupted: a command whose context ends (SIGINT in main) stops
// soon and exits 130, whatever it was doing.
func TestInterrupted(t *testing.T) {
	for _, args := range [][]string{
		{"perft", "start", "5"},
		{"analyze", "--time", "1m", "start"},
		{"match", "--a", "level:8", "--b", "level:8", "--games", "100", "--movetime", "1s", "--hash", "1", "--quiet"},
		{"play"}, // at the prompt
		{"play", "--side", "second", "--time", "1m"}, // while the computer thinks
		{"--game", "tumbling", "moves"},              // reading standard input
		{"ugi"},                                      // the engine, idle
		{"--game", "tumbling", "bench"},              // the playouts
		{"match", "--a", "random", "--b", "random", "--games", "1000000", "--movetime", "1ms", "--quiet"},
	} {
		code, out, errs, took := runCtx(t, 300*time.Millisecond, args...)
		if code != exitInterrupted || !strings.Contains(errs, "magneton: interrupted") {
			t.Errorf("%v: exit %d: %s\n%s", args, code, errs, out)
		}
		if took > 3*time.Second {
			t.Errorf("%v: took %v to stop", args, took)
		}
		if strings.Contains(errs, "context canceled") {
			t.Errorf("%v: %s", args, errs)
		}
	}
}

// TestEveryCommandHasExample: each command that does something shows in
// its help how it is called (TestExamples runs the quick ones).
func TestEveryCommandHasExample(t *testing.T) {
	for _, c := range allCommands() {
		if c.Runnable() && c.Example == "" {
			t.Errorf("%q has no example in its help", c.CommandPath())
		}
	}
}
