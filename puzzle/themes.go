package puzzle

import (
	"fmt"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

// The themes a puzzle can have, as lichess tags its puzzles: computed by
// Themes from the proven solution line alone, so that `magneton puzzles
// verify` can recompute them. Besides the themes of every game here, a
// puzzle has its winning move's motifs, which its game names
// (game.Spec.Motifs: a push in Magneton, a tumble in Tumbling Down). The
// front end translates each id (key "pz.theme.<id>").
const (
	// ThemeDoubleThreat: after the loser's most stubborn reply, the
	// winner has two or more winning moves that are distinct threats
	// (game.Motifs.Threat), so the loser could not stop them all.
	ThemeDoubleThreat = "double-threat"
)

// ThemeWinIn is the theme of a puzzle's length: "win-in-2".
func ThemeWinIn(n int) string { return fmt.Sprintf("win-in-%d", n) }

// AllThemes lists every theme id a puzzle of the game can have, in the
// order a menu shows them: none but the lengths and the double threat for
// a game that is not registered.
func AllThemes(gameName string) []string {
	out := []string{ThemeWinIn(1), ThemeWinIn(2), ThemeWinIn(3), ThemeDoubleThreat}
	if g, err := games.Lookup(gameName); err == nil && g.Spec.Motifs != nil {
		out = append(out, g.Spec.Motifs.IDs...)
	}
	return out
}

// Themes computes a puzzle's themes from its line and accept lists: its
// length, a double threat, and the motifs of the winning (last) move of
// the line. The error says what of the line does not read.
func Themes(pz *Puzzle) ([]string, error) {
	if len(pz.Line) == 0 || len(pz.Accept) == 0 {
		return nil, fmt.Errorf("puzzle %s: no line to take themes from", pz.ID)
	}
	rules, err := gameRules(pz)
	if err != nil {
		return nil, err
	}
	motifs := rules.Spec().Motifs
	out := []string{ThemeWinIn(pz.WinIn)}
	if pz.WinIn >= 2 && threats(motifs, pz.Accept[len(pz.Accept)-1]) >= 2 {
		out = append(out, ThemeDoubleThreat)
	}
	if motifs == nil {
		return out, nil
	}
	// The position before the winning move.
	s, err := rules.ParsePosition(pz.Position)
	if err != nil {
		return nil, fmt.Errorf("puzzle %s: position: %w", pz.ID, err)
	}
	last := len(pz.Line) - 1
	for _, mv := range pz.Line[:last] {
		if s, err = s.Play(mv); err != nil {
			return nil, fmt.Errorf("puzzle %s: %w", pz.ID, err)
		}
	}
	more, err := motifs.Of(s, pz.Line[last])
	if err != nil {
		return nil, fmt.Errorf("puzzle %s: winning move %s: %w", pz.ID, pz.Line[last], err)
	}
	return append(out, more...), nil
}

// threats counts the distinct threats among winning moves: the moves
// themselves unless the game says which are one threat.
func threats(motifs *game.Motifs, moves []string) int {
	if motifs == nil || motifs.Threat == nil {
		return len(moves)
	}
	distinct := map[string]bool{}
	for _, m := range moves {
		distinct[motifs.Threat(m)] = true
	}
	return len(distinct)
}
