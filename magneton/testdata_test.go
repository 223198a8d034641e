package magneton

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/game"
)

// readTSV returns the rows of a tab-separated reference file, skipping
// comment lines. The files are copies of the project's shared reference data.
func readTSV(t *testing.T, name string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "magneton", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s has no rows", name)
	}
	return rows
}

func moveList(p Position) string {
	var out []string
	for _, m := range p.AppendMoves(nil) {
		out = append(out, m.String())
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

func TestReferencePositions(t *testing.T) {
	for i, row := range readTSV(t, "positions.tsv") {
		if len(row) != 5 {
			t.Fatalf("row %d: %d fields", i+1, len(row))
		}
		pos, want, move, after, winner := row[0], row[1], row[2], row[3], row[4]
		p, err := Rules{}.Parse(pos)
		if err != nil {
			t.Fatalf("row %d: %v", i+1, err)
		}
		if got := p.String(); got != pos {
			t.Errorf("row %d: position text round trip: got %q, want %q", i+1, got, pos)
		}
		if got := moveList(p); got != want {
			t.Errorf("row %d %s: legal moves\n got %s\nwant %s", i+1, pos, got, want)
		}
		m, err := p.ParseMove(move)
		if err != nil {
			t.Errorf("row %d %s: %v", i+1, pos, err)
			continue
		}
		q := p.Play(m)
		if got := q.String(); got != after {
			t.Errorf("row %d %s %s: got %s, want %s", i+1, pos, move, got, after)
		}
		gotWinner := "-"
		if w, ok := q.Winner(); ok {
			gotWinner = Spec.SideLetters[w]
		}
		if gotWinner != winner {
			t.Errorf("row %d %s %s: winner %s, want %s", i+1, pos, move, gotWinner, winner)
		}
		if q.Hash() != q.computeHash() {
			t.Errorf("row %d: incremental hash differs from a fresh one", i+1)
		}
	}
}

func TestReferencePerft(t *testing.T) {
	for _, row := range readTSV(t, "perft.tsv") {
		depth, _ := strconv.Atoi(row[1])
		want, _ := strconv.ParseUint(strings.Fields(row[2])[0], 10, 64)
		if testing.Short() && want > 1_000_000 {
			continue
		}
		p, err := Rules{}.Parse(row[0])
		if err != nil {
			t.Fatal(err)
		}
		if got := game.Perft(p, depth); got != want {
			t.Errorf("perft(%s, %d) = %d, want %d", row[0], depth, got, want)
		}
	}
}
