package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/record"
)

// matchFile plays a short match and returns its record file.
func matchFile(t *testing.T, dir, gameName string, n int) string {
	t.Helper()
	path := filepath.Join(dir, gameName+".pgn")
	if _, errs, code := runCmd(t, "", "match", "--game", gameName, "--a", "greedy", "--b", "random", "--games", strconv.Itoa(n), "--movetime", "1ms", "--quiet", "--pgn", path); code != 0 {
		t.Fatalf("match: exit %d: %s", code, errs)
	}
	return path
}

func write(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestRecordCheck: record check replays every game of PGN-like and SGF
// files and reports each problem by file, game and move.
func TestRecordCheck(t *testing.T) {
	dir := t.TempDir()
	mag := matchFile(t, dir, "magneton", 3)
	tum := matchFile(t, dir, "tumbling", 2)
	sgf := filepath.Join(dir, "tumbling.sgf")
	if _, errs, code := runCmd(t, "", "record", "convert", "--to", "sgf", "--output", sgf, tum); code != 0 {
		t.Fatalf("convert: exit %d: %s", code, errs)
	}
	magText, sgfText := read(t, mag), read(t, sgf)
	recs, err := record.ParseAll(magText)
	if err != nil {
		t.Fatal(err)
	}
	// Game 2 of a copy with an illegal third move, game 3 with a wrong
	// result.
	recs[1].Moves[2].Text = "z9"
	recs[2].SetTag("Result", map[string]string{"1-0": "0-1", "0-1": "1-0"}[recs[2].Tag("Result")])
	bad := write(t, filepath.Join(dir, "bad.pgn"), recs[0].Format()+"\n"+recs[1].Format()+"\n"+recs[2].Format())
	// A record that does not parse between two good ones.
	good := recs[0].Format()
	unparsed := write(t, filepath.Join(dir, "unparsed.pgn"), good+"\n[Game \"magneton\"]\n[Result \"*\"\n\n1. d4 *\n\n"+good)
	// SGF: an illegal move, junk between trees, a tree never closed; and a
	// file without an extension, told by its content.
	badSGF := write(t, filepath.Join(dir, "bad.sgf"), strings.Replace(sgfText, ";W[", ";W[z9", 1)+"\nnot sgf\n"+sgfText+"(;FF[4]GM[33]")
	noExt := write(t, filepath.Join(dir, "noext"), sgfText)
	empty := write(t, filepath.Join(dir, "empty.pgn"), "\n\n")

	for _, tc := range []struct {
		files []string
		code  int
		want  []string // lines of the report, as regular expressions
	}{
		{[]string{mag, tum, sgf, noExt}, 0, []string{`^9 games in 4 files: 0 with problems$`}},
		{[]string{bad}, 1, []string{
			`^.*bad\.pgn: game 2 \(line \d+\): move 3 \(2\., White\): "z9".*$`,
			`^.*bad\.pgn: game 3 \(line \d+\): tag Result: .*$`,
			`^3 games in 1 file: 2 with problems$`,
		}},
		{[]string{unparsed}, 1, []string{
			`^.*unparsed\.pgn: game 2 \(line \d+\): line \d+: tag Result: expected \] after the value$`,
			`^3 games in 1 file: 1 with problems$`,
		}},
		{[]string{badSGF}, 1, []string{
			`^.*bad\.sgf: game 1 \(line 1\): sgf: line \d+: node \d+, W\[z9.*$`,
			`^.*bad\.sgf: game 3 \(line \d+\): line \d+: "not sgf" is not an SGF game tree.*$`,
			`^.*bad\.sgf: game 6 \(line \d+\): line \d+: the game tree is not closed.*$`,
			`^6 games in 1 file: 3 with problems$`,
		}},
		{[]string{empty, filepath.Join(dir, "missing.pgn")}, 1, []string{
			`^.*empty\.pgn: no game found$`,
			`^.*missing\.pgn: cannot read it: no such file or directory$`,
			`^0 games in 2 files: 0 with problems$`,
		}},
	} {
		out, errs, code := runCmd(t, "", append([]string{"record", "check"}, tc.files...)...)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d: %s\n%s", tc.files, code, tc.code, errs, out)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != len(tc.want) {
			t.Errorf("%v: %d lines, want %d:\n%s", tc.files, len(lines), len(tc.want), out)
			continue
		}
		for i, w := range tc.want {
			if !regexp.MustCompile(w).MatchString(lines[i]) {
				t.Errorf("%v: line %d %q does not match %q", tc.files, i+1, lines[i], w)
			}
		}
		if tc.code != 0 && !strings.Contains(errs, "magneton: record check: problems in") {
			t.Errorf("%v: %s", tc.files, errs)
		}
	}
}

// TestRecordConvert: Tumbling Down converts to SGF and back to the same
// games; Magneton has no SGF, which the error says.
func TestRecordConvert(t *testing.T) {
	dir := t.TempDir()
	tum := matchFile(t, dir, "tumbling", 2)
	sgf, errs, code := runCmd(t, "", "record", "convert", "--to", "sgf", tum)
	if code != 0 || strings.Count(sgf, "(;FF[4]GM[33]") != 2 {
		t.Fatalf("to sgf: exit %d: %s\n%s", code, errs, sgf)
	}
	back, errs, code := runCmd(t, "", "record", "convert", "--to", "pgn", write(t, filepath.Join(dir, "x.sgf"), sgf))
	if code != 0 {
		t.Fatalf("back to pgn: exit %d: %s", code, errs)
	}
	orig, _ := record.ParseAll(read(t, tum))
	again, err := record.ParseAll(back)
	if err != nil || len(again) != len(orig) {
		t.Fatalf("%d games back, want %d: %v", len(again), len(orig), err)
	}
	for i := range orig {
		g1, _ := orig[i].Replay()
		g2, err := again[i].Replay()
		if err != nil || strings.Join(g1.Moves(), " ") != strings.Join(g2.Moves(), " ") || again[i].Tag("Black") != orig[i].Tag("Black") {
			t.Errorf("game %d differs after SGF: %v", i+1, err)
		}
	}
	// PGN to PGN keeps the records as they are, tags and all.
	same, _, code := runCmd(t, "", "record", "convert", "--to", "pgn", tum)
	if code != 0 || strings.TrimSpace(same) != strings.TrimSpace(read(t, tum)) {
		t.Errorf("pgn to pgn: exit %d, changed:\n%s", code, same)
	}

	mag := matchFile(t, dir, "magneton", 1)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--to", "sgf", mag}, 1, "game 1 (line 1): Magneton has no SGF record format (Magneton records are pgn, not \"sgf\")"},
		{[]string{"--to", "png", tum}, 2, `records are pgn or sgf, not "png"`},
		{[]string{tum}, 2, "record convert: --to names the format: pgn or sgf"},
		{[]string{"--to", "sgf", filepath.Join(dir, "missing.pgn")}, 1, "no such file"},
	} {
		out, errs, code := runCmd(t, "", append([]string{"record", "convert"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errs, tc.want) || out != "" {
			t.Errorf("%v: exit %d: %s%s", tc.args, code, errs, out)
		}
	}
}

// TestRecordShow prints a game's moves and its final position.
func TestRecordShow(t *testing.T) {
	dir := t.TempDir()
	mag := matchFile(t, dir, "magneton", 2)
	out, errs, code := runCmd(t, "", "record", "show", "--number", "2", "--color", "never", mag)
	recs, _ := record.ParseAll(read(t, mag))
	g, _ := recs[1].Replay()
	for _, want := range []string{"Magneton, game 2 of 2 (pgn)", "White: random", "Black: greedy", "1. " + g.Moves()[0] + " " + g.Moves()[1] + " 2. ",
		strings.Split(g.Position().Diagram(false), "\n")[1], "Result: " + recs[1].Tag("Result")} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d: the output lacks %q: %s\n%s", code, want, errs, out)
		}
	}
	if _, errs, code := runCmd(t, "", "record", "show", "-n", "3", mag); code != 2 || !strings.Contains(errs, "holds 2 game(s)") {
		t.Errorf("--number 3: exit %d: %s", code, errs)
	}
}

// FuzzSplitSGF: splitting an SGF collection ends on any input, and the
// trees it finds are whole (balanced) and in order.
func FuzzSplitSGF(f *testing.F) {
	f.Add("(;FF[4]GM[33];B[a8-a7])(;FF[4];W[h1>h2])")
	f.Add("(;C[a ) \\] ( b](;B[x])(;W[y]))\njunk\n(;")
	f.Add("[(])")
	f.Fuzz(func(t *testing.T, text string) {
		line := 0
		for _, tree := range splitSGF(text) {
			if tree.line < line {
				t.Fatalf("%q: trees out of order", text)
			}
			line = tree.line
			if tree.err == nil && (!strings.HasPrefix(tree.text, "(") || !strings.HasSuffix(tree.text, ")") || !strings.Contains(text, tree.text)) {
				t.Fatalf("%q: tree %q", text, tree.text)
			}
		}
	})
}
