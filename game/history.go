package game

import (
	"fmt"
	"maps"
	"slices"
)

// Game is a game in progress or finished: the positions from the start, the
// moves played, and the result, including the draw by repetition that no
// single position can see. It also records endings from outside the rules
// (resignation, agreement, time).
type Game struct {
	rules  Rules
	states []State  // states[0] is the initial position; states[i+1] follows moves[i]
	moves  []string // as played, in the game's notation
	seen   map[uint64]int
	result Result
	ending *Ending
}

// NewGame starts a game from the given position (use rules.Start() for the
// usual start).
func NewGame(start State) *Game {
	g := &Game{rules: start.Rules(), states: []State{start}, seen: map[uint64]int{start.Hash(): 1}}
	g.judge()
	return g
}

// Rules returns the rules the game is played under.
func (g *Game) Rules() Rules { return g.rules }

// Position returns the current position.
func (g *Game) Position() State { return g.states[len(g.states)-1] }

// Start returns the initial position.
func (g *Game) Start() State { return g.states[0] }

// Moves returns the moves played so far. The slice must not be changed.
func (g *Game) Moves() []string { return g.moves }

// States returns the positions from the start, one more than the moves.
// The slice must not be changed.
func (g *Game) States() []State { return g.states }

// Result returns the result and how the game ended (nil while it goes on).
func (g *Game) Result() (Result, *Ending) { return g.result, g.ending }

// Play checks and plays a move given in the game's notation.
func (g *Game) Play(move string) error {
	if g.result.Over() {
		return fmt.Errorf("%s: the game is over (%s, %s)", move, g.result, g.ending)
	}
	next, err := g.Position().Play(move)
	if err != nil {
		return err
	}
	g.states = append(g.states, next)
	g.moves = append(g.moves, move)
	g.seen[next.Hash()]++
	g.judge()
	return nil
}

// judge sets the result from the current position and the repetition count.
func (g *Game) judge() {
	p := g.Position()
	g.result, g.ending = p.Outcome()
	if g.result.Over() {
		return
	}
	if limit := g.rules.RepetitionLimit(); limit > 0 && g.seen[p.Hash()] >= limit {
		g.result, g.ending = Draw, Repetition
	}
}

// Undo takes back the last move; it reports false when there is none. An
// ending from outside the rules (resignation, agreement, time) is undone too.
func (g *Game) Undo() bool {
	if len(g.moves) == 0 {
		return false
	}
	last := g.Position()
	g.seen[last.Hash()]--
	g.states = g.states[:len(g.states)-1]
	g.moves = g.moves[:len(g.moves)-1]
	g.judge()
	return true
}

// End finishes the game by an ending from outside the rules: Resignation,
// Timeout or Abandonment (side loses), Agreement, AbandonmentDraw or
// PlyLimit (a draw, side is ignored).
func (g *Game) End(side Side, ending *Ending) error {
	if g.result.Over() {
		return fmt.Errorf("the game is already over (%s, %s)", g.result, g.ending)
	}
	switch ending {
	case Resignation, Timeout, Abandonment:
		g.result = LossFor(side)
	case Agreement, AbandonmentDraw, PlyLimit:
		g.result = Draw
	default:
		return fmt.Errorf("a game cannot be ended by %q from outside the rules", ending)
	}
	g.ending = ending
	return nil
}

// Repetitions returns how often the current position has occurred.
func (g *Game) Repetitions() int { return g.seen[g.Position().Hash()] }

// Claim applies the result a record gives for the game after its moves.
// When the moves ended the game, the claim must agree with them. When they
// did not, a claimed end needs ending, one from outside the rules
// (Resignation, Timeout or Abandonment for a win, Agreement,
// AbandonmentDraw or PlyLimit for a draw), and Claim ends
// the game by it; a claim of a game going on changes nothing. The error
// says how the claim and the moves disagree.
func (g *Game) Claim(claimed Result, ending *Ending) error {
	got, _ := g.Result()
	switch {
	case got.Over() && claimed != got:
		return fmt.Errorf("the record says %s but the moves end the game %s", claimed, got)
	case got.Over() || !claimed.Over():
		return nil
	}
	loser := First
	if claimed == FirstWins {
		loser = Second
	}
	switch {
	case ending == nil:
		return fmt.Errorf("the record says %s but the game is not over after the moves, and it does not say how it ended (resignation, agreement or time forfeit)", claimed)
	case (claimed == Draw) != (ending == Agreement || ending == AbandonmentDraw || ending == PlyLimit):
		return fmt.Errorf("the record says %s by %s, which cannot end a game so", claimed, ending)
	}
	return g.End(loser, ending)
}

// Clone returns a copy of the game that plays on without changing g: what
// a holder of g who shares it with others (a search on another goroutine)
// changes instead of g.
func (g *Game) Clone() *Game {
	c := *g
	c.states = slices.Clone(g.states)
	c.moves = slices.Clone(g.moves)
	c.seen = maps.Clone(g.seen)
	return &c
}
