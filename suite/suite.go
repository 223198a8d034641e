// Package suite keeps positions of known value and scores players on them.
//
// In a game where good play draws, a match between two strong players
// says little: most games are drawn and a score moves by a few points.
// A suite measures instead what matters at the board: in positions whose
// value the proof search settled, does a player keep the proven result?
//
// An entry is one of two kinds:
//
//   - win: the side to move has a forced win in N of its moves (3 to 12),
//     proven by the game's proof search (ai.Profile.ForcedResult, which
//     uses no evaluation). A player keeps it when, after its move, the
//     opponent is proven lost within the same horizon (a slower win still
//     counts, up to one move slower).
//   - hold: every move but a few (Moves lists them) lets the opponent win
//     by force within Horizon plies, while the position itself is not
//     proven lost. A player keeps it when, after its move, the opponent has
//     no forced win within that horizon.
//
// Both checks are made by the prover after the player's move, not by
// looking the move up, so a winning move the builder did not list counts.
// The positions come from real games (records of the match runner) and
// from the shipped puzzles, and no two are equal up to the game's
// symmetries.
package suite

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

// Kind is what an entry asks of the player.
type Kind string

// The kinds of entries.
const (
	// Win: the side to move wins by force; keep the win.
	Win Kind = "win"
	// Hold: nearly every move loses by force; find one that does not.
	Hold Kind = "hold"
)

// Horizon is the depth in plies of the prover's checks of hold entries:
// a move loses when the opponent then wins by force within Horizon-1
// plies.
const Horizon = 9

// Win entries have a proven win in MinWin to MaxWin moves.
const (
	MinWin = 3
	MaxWin = 12
)

// MaxSafe is the most moves a hold entry may leave safe: "every move but a
// few loses".
const MaxSafe = 3

// MinLosing is the fewest losing moves of a hold entry.
const MinLosing = 4

// Entry is one position of known value.
type Entry struct {
	Game     string // the game's name, as games.Lookup knows it
	Rules    string // the settings, as game.Settings writes them
	Kind     Kind
	N        int      // win: the side to move's moves to the proven win; hold: the moves that lose
	Moves    []string // win: the first moves that win within N; hold: the moves that do not lose
	Position string
	Source   string // where the position comes from
}

// Plies is the horizon of the prover's check after a player's move: for a
// win, the opponent must be lost within it (the entry's N moves, one more
// allowed); for a hold, the opponent must not win within it.
func (e *Entry) Plies() int {
	if e.Kind == Win {
		return 2 * e.N
	}
	return Horizon - 1
}

// header is the first line of a suite file.
const header = "# game\trules\tkind\tn\tmoves\tposition\tsource"

// Write writes entries as tab-separated lines after a header and any
// comment lines (each written with "# " before it).
func Write(w io.Writer, comments []string, entries []*Entry) error {
	bw := bufio.NewWriter(w)
	for _, c := range comments {
		fmt.Fprintf(bw, "# %s\n", c)
	}
	fmt.Fprintln(bw, header)
	for _, e := range entries {
		fmt.Fprintf(bw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\n", e.Game, e.Rules, e.Kind, e.N, strings.Join(e.Moves, " "), e.Position, e.Source)
	}
	return bw.Flush()
}

// Read reads a suite file: tab-separated lines as Write writes them;
// blank lines and lines starting with # are skipped. It checks the form of
// every line (the game, the rules, the position and the moves are read by
// the game's rules) and says which line is wrong and why; the values are
// Verify's to check.
func Read(r io.Reader) ([]*Entry, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	var out []*Entry
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		e, err := parseLine(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("suite line %d: %w", line, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("suite: %w", err)
	}
	return out, nil
}

// parseLine reads one entry.
func parseLine(text string) (*Entry, error) {
	f := strings.Split(strings.TrimRight(text, "\r"), "\t")
	if len(f) != 7 {
		return nil, fmt.Errorf("want 7 tab-separated fields (game, rules, kind, n, moves, position, source), found %d", len(f))
	}
	e := &Entry{Game: f[0], Rules: f[1], Kind: Kind(f[2]), Position: f[5], Source: f[6]}
	if e.Kind != Win && e.Kind != Hold {
		return nil, fmt.Errorf("kind %q: want %q or %q", f[2], Win, Hold)
	}
	n, err := strconv.Atoi(f[3])
	if err != nil || n < 1 || n > 1000 {
		return nil, fmt.Errorf("n %q: want a whole number from 1 to 1000", f[3])
	}
	e.N = n
	if e.Kind == Win && (n < MinWin || n > MaxWin) {
		return nil, fmt.Errorf("n %d: a win entry's win is %d to %d moves", n, MinWin, MaxWin)
	}
	e.Moves = strings.Fields(f[4])
	if len(e.Moves) == 0 {
		return nil, fmt.Errorf("moves: none given")
	}
	s, err := e.State()
	if err != nil {
		return nil, err
	}
	for _, m := range e.Moves {
		if _, err := s.Play(m); err != nil {
			return nil, fmt.Errorf("move %q: %w", m, err)
		}
	}
	return e, nil
}

// State reads the entry's position under its rules.
func (e *Entry) State() (game.State, error) {
	gm, err := games.Lookup(e.Game)
	if err != nil {
		return nil, fmt.Errorf("game: %w", err)
	}
	var items []string
	if e.Rules != "" {
		items = strings.Split(e.Rules, ",")
	}
	rules, err := gm.Spec.Rules(items...)
	if err != nil {
		return nil, fmt.Errorf("rules %q: %w", e.Rules, err)
	}
	s, err := rules.ParsePosition(e.Position)
	if err != nil {
		return nil, fmt.Errorf("position %q: %w", e.Position, err)
	}
	if r, _ := s.Outcome(); r.Over() {
		return nil, fmt.Errorf("position %q: the game is over (%s)", e.Position, r)
	}
	return s, nil
}

// Dedupe returns entries without those equal to an earlier one up to
// symmetry (of the same game and rules), keeping the first of each.
func Dedupe(entries []*Entry) []*Entry {
	seen := map[string]bool{}
	return slices.DeleteFunc(slices.Clone(entries), func(e *Entry) bool {
		key := e.Game + "\t" + e.Rules + "\t" + e.Position
		if gm, err := games.Lookup(e.Game); err == nil {
			key = e.Game + "\t" + e.Rules + "\t" + gm.Spec.Canonical(e.Position)
		}
		if seen[key] {
			return true
		}
		seen[key] = true
		return false
	})
}
