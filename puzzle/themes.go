package puzzle

import (
	"fmt"
	"strconv"
	"strings"
)

// The themes a puzzle can have, as lichess tags its puzzles: computed by
// Themes from the proven solution line alone, so that `magneton puzzles
// verify` can recompute them. The front end translates each id (key
// "pz.theme.<id>").
const (
	// ThemeDoubleThreat: after the loser's most stubborn reply, the
	// winner has two or more winning moves that are distinct threats
	// (see threats), so the loser could not stop them all.
	ThemeDoubleThreat = "double-threat"
	// Magneton: the winning move is a drop (phase 1) or a slide (phase
	// 2); a slide is a push when the stone slides away from a stone of
	// its own colour, a pull when it slides up to an enemy stone.
	ThemeDrop      = "drop"
	ThemeMovePhase = "move-phase"
	ThemePush      = "push"
	ThemePull      = "pull"
	// Tumbling Down: the winning move is a tumble of a stack (of two
	// disks or more) or a step; a tumble that reaches the edge with
	// disks left piles them there (edge pile); a tumble of a stack
	// holding enemy disks is a mixed tumble.
	ThemeTumble      = "tumble"
	ThemeStep        = "step"
	ThemeEdgePile    = "edge-pile"
	ThemeMixedTumble = "mixed-tumble"
)

// ThemeWinIn is the theme of a puzzle's length: "win-in-2".
func ThemeWinIn(n int) string { return fmt.Sprintf("win-in-%d", n) }

// AllThemes lists every theme id a puzzle of the game can have, in the
// order a menu shows them.
func AllThemes(gameName string) []string {
	out := []string{ThemeWinIn(1), ThemeWinIn(2), ThemeWinIn(3), ThemeDoubleThreat}
	switch gameName {
	case "magneton":
		out = append(out, ThemeDrop, ThemeMovePhase, ThemePush, ThemePull)
	case "tumbling-down":
		out = append(out, ThemeTumble, ThemeStep, ThemeEdgePile, ThemeMixedTumble)
	}
	return out
}

// Themes computes a puzzle's themes from its line and accept lists: its
// length, a double threat, and what the winning (last) move of the line
// is in its game. The error says what of the line does not read.
func Themes(pz *Puzzle) ([]string, error) {
	if len(pz.Line) == 0 || len(pz.Accept) == 0 {
		return nil, fmt.Errorf("puzzle %s: no line to take themes from", pz.ID)
	}
	out := []string{ThemeWinIn(pz.WinIn)}
	if pz.WinIn >= 2 && threats(pz.Game, pz.Accept[len(pz.Accept)-1]) >= 2 {
		out = append(out, ThemeDoubleThreat)
	}
	// The position before the winning move.
	rules, err := gameRules(pz)
	if err != nil {
		return nil, err
	}
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
	var more []string
	switch pz.Game {
	case "magneton":
		more, err = magnetonThemes(s.String(), pz.Line[last])
	case "tumbling-down":
		more, err = tumblingThemes(s.String(), pz.Line[last])
	}
	if err != nil {
		return nil, fmt.Errorf("puzzle %s: winning move %s: %w", pz.ID, pz.Line[last], err)
	}
	return append(out, more...), nil
}

// threats counts the distinct threats among winning moves: in Tumbling
// Down the stacks they start from (a step and a tumble of one stack onto
// the same King are one threat), in Magneton the moves.
func threats(gameName string, moves []string) int {
	if gameName != "tumbling-down" {
		return len(moves)
	}
	from := map[string]bool{}
	for _, m := range moves {
		sq, _, _ := strings.Cut(strings.ReplaceAll(m, ">", "-"), "-")
		from[sq] = true
	}
	return len(from)
}

// grid is a board read from a position text: cell[file][rank] is a
// square's contents as the text writes them ("" for empty).
type grid struct {
	cell         [][]string
	files, ranks int
}

// maxFiles bounds the boards readGrid reads, so that a bad text cannot
// make it build a huge one.
const maxFiles = 26

// readGrid reads the board part of a position text: ranks from the top
// separated by '/'; within a rank, squares either one character each
// (sep "") or separated by sep; a number is a run of empty squares.
func readGrid(text, sep string) (grid, error) {
	board, _, _ := strings.Cut(text, " ")
	rows := strings.Split(board, "/")
	var g grid
	if len(rows) > maxFiles {
		return g, fmt.Errorf("%d ranks", len(rows))
	}
	g.ranks = len(rows)
	for i, row := range rows {
		var cells []string
		var items []string
		if sep == "" {
			items = strings.Split(row, "")
		} else {
			items = strings.Split(row, sep)
		}
		for _, it := range items {
			if n, err := strconv.Atoi(it); err == nil {
				if n < 1 || len(cells)+n > maxFiles {
					return g, fmt.Errorf("rank %d: a run of %d empty squares", len(rows)-i, n)
				}
				for range n {
					cells = append(cells, "")
				}
				continue
			}
			cells = append(cells, it)
		}
		if i == 0 {
			if len(cells) == 0 || len(cells) > maxFiles {
				return g, fmt.Errorf("a rank of %d squares", len(cells))
			}
			g.files = len(cells)
			g.cell = make([][]string, g.files)
			for f := range g.cell {
				g.cell[f] = make([]string, g.ranks)
			}
		}
		if len(cells) != g.files {
			return g, fmt.Errorf("rank %d has %d squares, not %d", g.ranks-i, len(cells), g.files)
		}
		for f, c := range cells {
			g.cell[f][g.ranks-1-i] = c
		}
	}
	return g, nil
}

func (g grid) on(f, r int) bool { return f >= 0 && r >= 0 && f < g.files && r < g.ranks }

// square reads a square name such as "d4" on g.
func (g grid) square(name string) (int, int, error) {
	if len(name) < 2 {
		return 0, 0, fmt.Errorf("no square %q", name)
	}
	f := int(name[0] - 'a')
	r, err := strconv.Atoi(name[1:])
	if err != nil || !g.on(f, r-1) {
		return 0, 0, fmt.Errorf("no square %q", name)
	}
	return f, r - 1, nil
}

// step returns the unit direction from (f0, r0) to (f1, r1) along a
// line, and the number of squares between them; an error for a move that
// is not along a line.
func step(f0, r0, f1, r1 int) (int, int, int, error) {
	sign := func(x int) int {
		switch {
		case x > 0:
			return 1
		case x < 0:
			return -1
		}
		return 0
	}
	df, dr := sign(f1-f0), sign(r1-r0)
	n := max(abs(f1-f0), abs(r1-r0))
	if n == 0 || (df != 0 && dr != 0 && abs(f1-f0) != abs(r1-r0)) {
		return 0, 0, 0, fmt.Errorf("no line from %c%d to %c%d", 'a'+f0, r0+1, 'a'+f1, r1+1)
	}
	return df, dr, n, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// slide is a move along a line of a grid: from (f0, r0) to (f1, r1), a
// step (df, dr) at a time.
type slide struct {
	g                      grid
	f0, r0, f1, r1, df, dr int
}

// readSlide reads the position (cells split by sep) and the move from-to,
// which must start on an occupied square and go along a line.
func readSlide(position, sep, from, to string) (slide, error) {
	g, err := readGrid(position, sep)
	if err != nil {
		return slide{}, err
	}
	sl := slide{g: g}
	if sl.f0, sl.r0, err = g.square(from); err != nil {
		return slide{}, err
	}
	if sl.f1, sl.r1, err = g.square(to); err != nil {
		return slide{}, err
	}
	if g.cell[sl.f0][sl.r0] == "" {
		return slide{}, fmt.Errorf("nothing on %s", from)
	}
	if sl.df, sl.dr, _, err = step(sl.f0, sl.r0, sl.f1, sl.r1); err != nil {
		return slide{}, err
	}
	return sl, nil
}

// magnetonThemes: a drop, or a slide that pushes (away from an own
// stone) or pulls (up to an enemy stone).
func magnetonThemes(position, mv string) ([]string, error) {
	from, to, slide := strings.Cut(mv, "-")
	if !slide {
		return []string{ThemeDrop}, nil
	}
	sl, err := readSlide(position, "", from, to)
	if err != nil {
		return nil, err
	}
	g, f0, r0, f1, r1, df, dr := sl.g, sl.f0, sl.r0, sl.f1, sl.r1, sl.df, sl.dr
	own := g.cell[f0][r0]
	out := []string{ThemeMovePhase}
	// Behind the origin: the nearest stone, if it is of the mover's colour,
	// repels it.
	for f, r := f0-df, r0-dr; g.on(f, r); f, r = f-df, r-dr {
		if c := g.cell[f][r]; c != "" {
			if c == own {
				out = append(out, ThemePush)
			}
			break
		}
	}
	if f, r := f1+df, r1+dr; g.on(f, r) && g.cell[f][r] != "" && g.cell[f][r] != own {
		out = append(out, ThemePull)
	}
	return out, nil
}

// tumblingThemes: a step, or a tumble, which may pile disks at the edge
// and may carry enemy disks.
func tumblingThemes(position, mv string) ([]string, error) {
	from, to, tumble := strings.Cut(mv, ">")
	if !tumble {
		return []string{ThemeStep}, nil
	}
	sl, err := readSlide(position, ",", from, to)
	if err != nil {
		return nil, err
	}
	g, f0, r0, df, dr := sl.g, sl.f0, sl.r0, sl.df, sl.dr
	stack := g.cell[f0][r0]
	out := []string{ThemeTumble}
	room := 0
	for f, r := f0+df, r0+dr; g.on(f, r); f, r = f+df, r+dr {
		room++
	}
	if len(stack) > room {
		out = append(out, ThemeEdgePile)
	}
	if top := stack[len(stack)-1:]; strings.Count(stack, top) != len(stack) {
		out = append(out, ThemeMixedTumble)
	}
	return out, nil
}
