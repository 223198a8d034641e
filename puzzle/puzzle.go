// Package puzzle finds, checks and keeps puzzles: positions from real
// games where the side to move has a forced win that the project's proof
// search proves (ai.Profile.ForcedResult: no evaluation enters it), with
// one first move that wins within the puzzle's length.
//
// A puzzle's line is the winner's moves with the loser's most stubborn
// replies between them (the reply after which the win takes longest);
// Accept lists, for each of the winner's turns on the line, every move
// that keeps the proven win within the moves left, so that a solver who
// finds another way is not told it is wrong. Since the proof search sees
// only wins made of threats, "unique" means: no other first move has a
// win the proof search can see within the puzzle's length.
package puzzle

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

// Puzzle is one puzzle.
type Puzzle struct {
	ID       string `json:"id"`
	Game     string `json:"game"`     // the game's name, as games.Lookup knows it
	Rules    string `json:"rules"`    // the settings, as game.Settings writes them
	Position string `json:"position"` // the position to solve, the winner to move
	// WinIn is the number of the winner's moves to the win.
	WinIn int `json:"win_in"`
	// Line holds the solution: the winner's moves with the loser's
	// replies between them, 2*WinIn-1 moves.
	Line []string `json:"line"`
	// Accept holds, for each of the winner's turns on the line (Line[0],
	// Line[2], ...), every move that keeps a proven win within the moves
	// left; Accept[0] is Line[0] alone.
	Accept [][]string `json:"accept"`
	// Themes are the puzzle's themes, computed by Themes from the line
	// (and checked by Verify to be what Themes computes).
	Themes []string `json:"themes,omitempty"`
	// Record names the game record the position comes from (the same for
	// every puzzle of one self-play game), so that the next puzzle shown
	// can come from another.
	Record string `json:"record,omitempty"`
	// Source says where the position comes from.
	Source string `json:"source,omitempty"`
}

// Budget bounds the proof searches of Find and Verify: the nodes of one
// ForcedResult call.
const Budget = 200_000

// prover is the proof search of a game.
type prover struct {
	g   *games.Game
	ctx context.Context
}

// result is ForcedResult of s within plies (0 for none found).
func (p prover) result(s game.State, plies int) (int, error) {
	if plies <= 0 {
		return 0, nil
	}
	return p.g.AI.ForcedResult(p.ctx, s, plies, Budget)
}

// winsWithin reports whether the move m of s (whose side is to move)
// wins by force within n of its side's moves: it ends the game with a
// win, or leaves the opponent lost within 2n-2 plies.
func (p prover) winsWithin(s game.State, m string, n int) (game.State, bool, error) {
	c, err := s.Play(m)
	if err != nil {
		return nil, false, err
	}
	if res, _ := c.Outcome(); res.Over() {
		return c, res == game.WinFor(s.Side()), nil
	}
	if n <= 1 {
		return c, false, nil
	}
	r, err := p.result(c, 2*n-2)
	if err != nil {
		return c, false, err
	}
	return c, r < 0 && -r <= n-1, nil
}

// winning returns the moves of s that win within n moves.
func (p prover) winning(s game.State, n int) ([]string, error) {
	var out []string
	for _, m := range s.Moves() {
		_, ok, err := p.winsWithin(s, m, n)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, m)
		}
	}
	return out, nil
}

// Find checks whether s is a puzzle: its side to move wins by force in
// at most maxWin moves, and by exactly one first move. It returns the
// puzzle (without ID and Source), or nil when s is none.
func Find(ctx context.Context, g *games.Game, s game.State, maxWin int) (*Puzzle, error) {
	if res, _ := s.Outcome(); res.Over() {
		return nil, nil
	}
	pr := prover{g: g, ctx: ctx}
	n, err := pr.result(s, 2*maxWin-1)
	if err != nil || n <= 0 {
		return nil, err
	}
	first, err := pr.winning(s, n)
	if err != nil || len(first) != 1 {
		return nil, err
	}
	pz := &Puzzle{Game: g.Spec.Name, Rules: s.Rules().Settings().String(), Position: s.String()}
	cur, k, mv := s, n, first[0]
	for {
		pz.Line = append(pz.Line, mv)
		if cur, err = cur.Play(mv); err != nil {
			return nil, err
		}
		if res, _ := cur.Outcome(); res.Over() || k == 1 {
			break
		}
		// The loser's most stubborn reply.
		reply, longest := "", 0
		for _, r := range cur.Moves() {
			c, err := cur.Play(r)
			if err != nil {
				return nil, err
			}
			if res, _ := c.Outcome(); res == game.WinFor(s.Side()) {
				continue // the reply loses at once: never the most stubborn
			} else if res.Over() {
				return nil, nil // the reply saves the game: the proof search was wrong about it, or the rules end it otherwise
			}
			w, err := pr.result(c, 2*k-3)
			if err != nil {
				return nil, err
			}
			if w <= 0 {
				return nil, nil // the win after this reply is beyond the budget: not a clean puzzle
			}
			if w > longest {
				reply, longest = r, w
			}
		}
		if reply == "" {
			return nil, nil // no reply: the game would have ended
		}
		pz.Line = append(pz.Line, reply)
		if cur, err = cur.Play(reply); err != nil {
			return nil, err
		}
		k = longest
		next, err := pr.winning(cur, k)
		if err != nil || len(next) == 0 {
			return nil, err
		}
		mv = next[0]
	}
	pz.WinIn = (len(pz.Line) + 1) / 2
	if pz.Accept, err = pr.accepted(s, pz); err != nil || len(pz.Accept[0]) != 1 {
		return nil, err
	}
	return pz, nil
}

// accepted lists, for each of the winner's turns on a puzzle's line,
// the moves that win within the moves left.
func (p prover) accepted(s game.State, pz *Puzzle) ([][]string, error) {
	var out [][]string
	cur := s
	for i, mv := range pz.Line {
		if i%2 == 0 {
			want, err := p.winning(cur, pz.WinIn-i/2)
			if err != nil {
				return nil, fmt.Errorf("move %d: %w", i+1, err)
			}
			out = append(out, want)
		}
		next, err := cur.Play(mv)
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		cur = next
	}
	return out, nil
}

// Verify checks a puzzle with the rules and the proof search alone: the
// position, the line's moves, that the line ends the game with the
// winner's win, that no first move but the line's wins within WinIn
// moves, and each Accept list. The error says what is wrong and where.
func Verify(ctx context.Context, pz *Puzzle) error {
	g, err := games.Lookup(pz.Game)
	if err != nil {
		return fmt.Errorf("puzzle %s: %w", pz.ID, err)
	}
	rules, err := gameRules(pz)
	if err != nil {
		return err
	}
	s, err := rules.ParsePosition(pz.Position)
	if err != nil {
		return fmt.Errorf("puzzle %s: position: %w", pz.ID, err)
	}
	switch {
	case pz.WinIn < 1 || len(pz.Line) != 2*pz.WinIn-1:
		return fmt.Errorf("puzzle %s: a win in %d needs %d moves in its line, not %d", pz.ID, pz.WinIn, 2*pz.WinIn-1, len(pz.Line))
	case len(pz.Accept) != pz.WinIn:
		return fmt.Errorf("puzzle %s: %d accept lists for a win in %d", pz.ID, len(pz.Accept), pz.WinIn)
	}
	pr := prover{g: g, ctx: ctx}
	winner, cur := s.Side(), s
	for i, mv := range pz.Line {
		if i%2 == 0 {
			// The winning moves here, found before the line's move is played,
			// so that a wrong move is reported as the one that does not win.
			want, err := pr.winning(cur, pz.WinIn-i/2)
			if err != nil {
				return fmt.Errorf("puzzle %s: move %d: %w", pz.ID, i+1, err)
			}
			switch {
			case !slices.Equal(want, pz.Accept[i/2]):
				return fmt.Errorf("puzzle %s: move %d: the winning moves are %v, the puzzle accepts %v", pz.ID, i+1, want, pz.Accept[i/2])
			case i == 0 && len(want) != 1:
				return fmt.Errorf("puzzle %s: %d first moves win (%v): a puzzle has one", pz.ID, len(want), want)
			case !slices.Contains(want, mv):
				return fmt.Errorf("puzzle %s: move %d %s of the line does not win in %d", pz.ID, i+1, mv, pz.WinIn-i/2)
			}
		}
		next, err := cur.Play(mv)
		if err != nil {
			return fmt.Errorf("puzzle %s: move %d: %w", pz.ID, i+1, err)
		}
		if res, _ := next.Outcome(); res.Over() && i < len(pz.Line)-1 {
			return fmt.Errorf("puzzle %s: the game ends at move %d %s, before the line does", pz.ID, i+1, mv)
		}
		cur = next
	}
	if res, _ := cur.Outcome(); res != game.WinFor(winner) {
		return fmt.Errorf("puzzle %s: the line ends %s, not with a win for the side to move", pz.ID, res)
	}
	themes, err := Themes(pz)
	if err != nil {
		return err
	}
	if !slices.Equal(themes, pz.Themes) {
		return fmt.Errorf("puzzle %s: the line's themes are %v, the puzzle says %v", pz.ID, themes, pz.Themes)
	}
	return nil
}

// start returns a puzzle's position and game.
func start(pz *Puzzle) (game.State, *games.Game, error) {
	g, err := games.Lookup(pz.Game)
	if err != nil {
		return nil, nil, fmt.Errorf("puzzle %s: %w", pz.ID, err)
	}
	rules, err := gameRules(pz)
	if err != nil {
		return nil, nil, err
	}
	s, err := rules.ParsePosition(pz.Position)
	if err != nil {
		return nil, nil, fmt.Errorf("puzzle %s: position: %w", pz.ID, err)
	}
	return s, g, nil
}

// gameRules returns the rules of a puzzle's game and settings.
func gameRules(pz *Puzzle) (game.Rules, error) {
	rules, err := games.Rules(pz.Game, pz.Rules)
	if err != nil {
		return nil, fmt.Errorf("puzzle %s: rules: %w", pz.ID, err)
	}
	return rules, nil
}

// Read reads puzzles, one JSON object a line (blank lines and lines
// starting with # are skipped); the error names the line.
func Read(r io.Reader) ([]*Puzzle, error) {
	var out []*Puzzle
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	seen := map[string]int{}
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var pz Puzzle
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&pz); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		switch {
		case pz.ID == "":
			return nil, fmt.Errorf("line %d: a puzzle without an id", n)
		case seen[pz.ID] != 0:
			return nil, fmt.Errorf("line %d: puzzle %s again (first on line %d)", n, pz.ID, seen[pz.ID])
		}
		seen[pz.ID] = n
		out = append(out, &pz)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read puzzles: %w", err)
	}
	return out, nil
}

// Write writes puzzles as Read reads them.
func Write(w io.Writer, puzzles []*Puzzle) error {
	enc := json.NewEncoder(w)
	for _, pz := range puzzles {
		if err := enc.Encode(pz); err != nil {
			return err
		}
	}
	return nil
}
