// Package tictactoe is the rules of a throwaway third game, noughts and
// crosses on a 3x3 board, kept to check that the project's games are each
// one registration: its computer players are package tictactoeai, and the
// tests that need the game register it (games.Register) as a built-in
// game is registered; nothing else in the tree names it, yet the command
// line, the match runner, the engine protocol and the conformance suite
// all play it. Only tests import it.
//
// Squares are a1 to c3, numbered file-major like game.Square (a1=0, a2=1,
// a3=2, b1=3, ..., c3=8). A position text is the ranks from 3 down to 1,
// separated by "/", each three of x, o and ".", then a space and the side
// to move: the start is ".../.../... x". X moves first. Under the rule
// option goal=three-loses (the variant "misere") the player who makes
// three in a row loses.
package tictactoe

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"

	"github.com/magneton-games/magneton/game"
)

// Move is the square a stone is put on, 0 to 8.
type Move uint8

// Lines are the eight lines of three as masks of squares (bit n for
// square n).
var Lines = [8]uint16{
	0b000000111, 0b000111000, 0b111000000, // the files a, b, c
	0b001001001, 0b010010010, 0b100100100, // the ranks 1, 2, 3
	0b100010001, 0b001010100, // the diagonals a1-c3 and a3-c1
}

const full = 0b111111111

// Three and Full are the game's own endings.
var (
	Three = &game.Ending{Word: "three in a row", Text: "three in a row"}
	Full  = &game.Ending{Word: "full board", Text: "a full board"}
)

// Rules: Misere makes three in a row lose.
type Rules struct{ Misere bool }

// Spec describes the game to game-neutral code.
var Spec = &game.Spec{
	Name:        "tictactoe",
	Aliases:     []string{"noughts-and-crosses"},
	Title:       "Tic-tac-toe",
	SideNames:   [2]string{"X", "O"},
	SideLetters: [2]string{"x", "o"},
	Board:       game.Board{Files: 3, Ranks: 3},
	Options: []game.Option{
		{Name: "goal", Values: []string{"three-wins", "three-loses"}, Summary: "whether three in a row wins or loses"},
	},
	Variants: []game.Variant{
		{Name: "misere", Settings: game.Settings{"goal": "three-loses"}, Summary: "three in a row loses"},
	},
	New:     func(s game.Settings) game.Rules { return Rules{Misere: s["goal"] == "three-loses"} },
	Endings: []*game.Ending{Three, Full},
	Bench:   []game.BenchCase{{Phase: "start", Position: ".../.../... x", Depth: 9}},
}

// The symmetries' functions write positions, which names the sides from
// Spec: they join it here.
func init() { Spec.Symmetries = symmetries() }

// Spec returns the game these are rules of.
func (r Rules) Spec() *game.Spec { return Spec }

// Settings returns the option's value.
func (r Rules) Settings() game.Settings {
	return Spec.TwoWaySettings(r.Misere)
}

// RepetitionLimit is 0: a position never comes again.
func (r Rules) RepetitionLimit() int { return 0 }

// Start returns the empty board, X to move.
func (r Rules) Start() game.State { return game.Adapt[Position, Move](Position{misere: r.Misere}, r) }

// ParsePosition reads a position text.
func (r Rules) ParsePosition(text string) (game.State, error) {
	p, err := r.Parse(text)
	return game.AdaptParsed[Position, Move](p, err, r)
}

// Position is a position: each side's stones and the side to move.
type Position struct {
	stones [2]uint16
	side   game.Side
	misere bool
}

// Parse reads a position text; the error says what is wrong and where.
func (r Rules) Parse(text string) (Position, error) {
	p := Position{misere: r.Misere}
	board, side, ok := strings.Cut(strings.TrimSpace(text), " ")
	ranks := strings.Split(board, "/")
	if !ok || len(ranks) != 3 {
		return p, fmt.Errorf("position %q: want three ranks separated by / and the side to move, like \".../.../... x\"", text)
	}
	for i, row := range ranks {
		if len(row) != 3 {
			return p, fmt.Errorf("position %q: rank %d is %q, want three of x, o and \".\"", text, 3-i, row)
		}
		for f := range 3 {
			sq := f*3 + 2 - i
			switch row[f] {
			case 'x':
				p.stones[0] |= 1 << sq
			case 'o':
				p.stones[1] |= 1 << sq
			case '.':
			default:
				return p, fmt.Errorf("position %q: rank %d: %q is not x, o or \".\"", text, 3-i, row[f])
			}
		}
	}
	switch side {
	case "x":
		p.side = 0
	case "o":
		p.side = 1
	default:
		return p, fmt.Errorf("position %q: the side to move is %q, want x or o", text, side)
	}
	if d := bits.OnesCount16(p.stones[0]) - bits.OnesCount16(p.stones[1]); d < 0 || d > 1 || (d == 0) != (p.side == 0) {
		return p, fmt.Errorf("position %q: X has %d stones and O %d with %s to move; X moves first", text, bits.OnesCount16(p.stones[0]), bits.OnesCount16(p.stones[1]), side)
	}
	if p.has(0) && p.has(1) {
		return p, fmt.Errorf("position %q: both sides have three in a row", text)
	}
	return p, nil
}

// has reports whether side s has three in a row.
func (p Position) has(s game.Side) bool {
	for _, l := range Lines {
		if p.stones[s]&l == l {
			return true
		}
	}
	return false
}

// Side returns the side to move.
func (p Position) Side() game.Side { return p.side }

// Stones returns the squares of side s's stones as a mask (bit n for
// square n), to count the lines a side may still make.
func (p Position) Stones(s game.Side) uint16 { return p.stones[s] }

// Misere reports whether the position is played under misère rules, where
// three in a row loses.
func (p Position) Misere() bool { return p.misere }

// AppendMoves appends the empty squares, none once the game is over.
func (p Position) AppendMoves(buf []Move) []Move {
	if r, _ := p.Outcome(); r.Over() {
		return buf
	}
	for b := full &^ (p.stones[0] | p.stones[1]); b != 0; b &= b - 1 {
		buf = append(buf, Move(bits.TrailingZeros16(b)))
	}
	return buf
}

// Play puts the side to move's stone on m.
func (p Position) Play(m Move) Position {
	p.stones[p.side] |= 1 << m
	p.side = p.side.Other()
	return p
}

// Outcome: three in a row for the side that just moved wins (loses under
// misere); a full board without it is a draw.
func (p Position) Outcome() (game.Result, *game.Ending) {
	mover := p.side.Other()
	if p.has(mover) {
		if p.misere {
			return game.LossFor(mover), Three
		}
		return game.WinFor(mover), Three
	}
	if p.stones[0]|p.stones[1] == full {
		return game.Draw, Full
	}
	return game.Ongoing, nil
}

// Hash mixes the whole position into 64 bits (it has only 19 of them).
func (p Position) Hash() uint64 {
	return (uint64(p.stones[0]) | uint64(p.stones[1])<<9 | uint64(p.side)<<18) * 0x9e3779b97f4a7c15
}

// String writes the position text.
func (p Position) String() string {
	var b strings.Builder
	for rank := 2; rank >= 0; rank-- {
		for f := range 3 {
			sq := f*3 + rank
			switch {
			case p.stones[0]>>sq&1 != 0:
				b.WriteByte('x')
			case p.stones[1]>>sq&1 != 0:
				b.WriteByte('o')
			default:
				b.WriteByte('.')
			}
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString(" " + Spec.SideLetters[p.side])
	return b.String()
}

// FormatMove writes a square name.
func (p Position) FormatMove(m Move) string { return string([]byte{'a' + byte(m/3), '1' + byte(m%3)}) }

// ParseMove reads a square name and checks the square is free.
func (p Position) ParseMove(s string) (Move, error) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'c' || s[1] < '1' || s[1] > '3' {
		return 0, fmt.Errorf("%q: a move is a square, a1 to c3", s)
	}
	m := Move((s[0]-'a')*3 + s[1] - '1')
	if r, _ := p.Outcome(); r.Over() {
		return 0, fmt.Errorf("%s: the game is over (%s)", s, r)
	}
	if (p.stones[0]|p.stones[1])>>m&1 != 0 {
		return 0, fmt.Errorf("%s: the square is taken", s)
	}
	return m, nil
}

// RandomMove draws an empty square.
func (p Position) RandomMove(rng *rand.Rand, buf []Move) (Move, bool) {
	moves := p.AppendMoves(buf[:0])
	if len(moves) == 0 {
		return 0, false
	}
	return moves[rng.IntN(len(moves))], true
}

// Diagram draws the board.
func (p Position) Diagram(bool) string {
	s := strings.ReplaceAll(strings.Fields(p.String())[0], "/", "\n")
	return s + "\n" + Spec.SideNames[p.side] + " to move.\n"
}

// symmetries are the seven symmetries of the 3x3 board besides the
// identity.
func symmetries() []game.Symmetry {
	var out []game.Symmetry
	for k := 1; k < 8; k++ {
		sq := func(s int) int {
			f, r := game.TransformCell(s/3, s%3, 3, k)
			return f*3 + r
		}
		out = append(out, game.Symmetry{
			Name: game.TransformName(k),
			Position: func(text string) string {
				p, err := Rules{}.Parse(text)
				if err != nil {
					return text
				}
				q := p
				q.stones = [2]uint16{}
				for c := range 2 {
					for s := range 9 {
						if p.stones[c]>>s&1 != 0 {
							q.stones[c] |= 1 << sq(s)
						}
					}
				}
				return q.String()
			},
			Move: func(m string) string {
				mv, err := Position{}.ParseMove(m)
				if err != nil {
					return m
				}
				return Position{}.FormatMove(Move(sq(int(mv))))
			},
		})
	}
	return out
}
