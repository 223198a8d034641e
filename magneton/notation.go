package magneton

import (
	"fmt"

	"github.com/magneton-games/magneton/game"
	"strconv"
	"strings"
)

var sideNames = [2]string{"White", "Black"}

// String writes the position text: ranks 8 to 1 separated by "/", with W
// for a white stone, B for a black one and a digit for a run of empty
// squares; then the side to move (w or b) and the stones in hand of White
// and of Black. The start is "8/8/8/8/8/8/8/8 w 12 12".
func (p Position) String() string {
	var b strings.Builder
	b.Grow(40)
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := range 8 {
			c, ok := p.At(SquareAt(file, rank))
			if !ok {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte('0' + byte(empty))
				empty = 0
			}
			b.WriteByte("WB"[c])
		}
		if empty > 0 {
			b.WriteByte('0' + byte(empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteByte(' ')
	b.WriteByte("wb"[p.Side()])
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(p.InHand(White)))
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(p.InHand(Black)))
	return b.String()
}

// Parse reads a position text as written by Position.String, under these
// rules. The error names what is wrong and where.
func (r Rules) Parse(text string) (Position, error) {
	fields := strings.Fields(text)
	if len(fields) != 4 {
		return Position{}, game.Mistaken("mg_fields", fmt.Sprintf("position %q: want 4 fields (board, side to move, White's and Black's stones in hand), got %d", text, len(fields)), "got", strconv.Itoa(len(fields)))
	}
	var stones [2]uint64
	var hand [2]int
	var side game.Side
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return Position{}, game.Mistaken("ranks", fmt.Sprintf("position %q: the board has %d ranks separated by '/', want 8", text, len(ranks)), "got", strconv.Itoa(len(ranks)), "want", "8")
	}
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			switch {
			case c >= '1' && c <= '8':
				file += int(c - '0')
			case c == 'W' || c == 'B':
				if file < 8 {
					side := White
					if c == 'B' {
						side = Black
					}
					stones[side] |= 1 << SquareAt(file, rank)
				}
				file++
			default:
				return Position{}, game.Mistaken("mg_rank_char", fmt.Sprintf("position %q: rank %d: %q is not W, B or a digit 1-8", text, rank+1, c), "rank", strconv.Itoa(rank+1), "char", string(c))
			}
		}
		if file != 8 {
			return Position{}, game.Mistaken("rank_squares", fmt.Sprintf("position %q: rank %d has %d squares, want 8", text, rank+1, file), "rank", strconv.Itoa(rank+1), "got", strconv.Itoa(file), "want", "8")
		}
	}
	switch fields[1] {
	case "w":
		side = White
	case "b":
		side = Black
	default:
		return Position{}, game.Mistaken("mg_side", fmt.Sprintf("position %q: side to move %q is not w or b", text, fields[1]), "got", fields[1])
	}
	for i, name := range [2]string{"White", "Black"} {
		n, err := strconv.Atoi(fields[2+i])
		if err != nil || n < 0 || n > StonesPerSide {
			return Position{}, game.Mistaken("mg_hand", fmt.Sprintf("position %q: %s's stones in hand %q is not a number from 0 to %d", text, name, fields[2+i], StonesPerSide), "side", name, "got", fields[2+i], "max", strconv.Itoa(StonesPerSide))
		}
		if on := popcount(stones[i]); on+n > StonesPerSide {
			return Position{}, game.Mistaken("mg_too_many", fmt.Sprintf("position %q: %s has %d stones on the board and %d in hand, more than %d", text, name, on, n, StonesPerSide), "side", name, "on", strconv.Itoa(on), "hand", strconv.Itoa(n), "max", strconv.Itoa(StonesPerSide))
		}
		hand[i] = n
	}
	return newPosition(stones, hand, side, r.flags()), nil
}

// FormatMove writes a move in the project's notation: "d4" or "d4-a1".
func (p Position) FormatMove(m Move) string { return m.String() }

// ParseMove reads a move ("d4", "d4-a1" or "d4a1") and checks that it is
// legal here. The error names the move and says what is wrong.
func (p Position) ParseMove(s string) (Move, error) {
	text := strings.TrimSpace(s)
	name := sideNames[p.Side()]
	var from, to Square
	drop := false
	switch {
	case len(text) == 2:
		sq, ok := ParseSquare(text)
		if !ok {
			return NoMove, game.Mistaken("mg_not_square", fmt.Sprintf("%q: not a square (a1 to h8) or a move like d4-a1", s))
		}
		to, drop = sq, true
	case len(text) == 5 && text[2] == '-', len(text) == 4:
		a, b := text[:2], text[len(text)-2:]
		var ok1, ok2 bool
		from, ok1 = ParseSquare(a)
		to, ok2 = ParseSquare(b)
		if !ok1 || !ok2 {
			return NoMove, game.Mistaken("mg_not_move", fmt.Sprintf("%q: not a move like d4-a1 (squares a1 to h8)", s))
		}
	default:
		return NoMove, game.Mistaken("mg_not_drop_or_move", fmt.Sprintf("%q: not a drop like d4 or a move like d4-a1", s))
	}
	if w, ok := p.Winner(); ok {
		return NoMove, game.Mistaken("mg_over", fmt.Sprintf("%s: the game is over, %s made a line of four", text, sideNames[w]), "side", sideNames[w])
	}
	occ := p.occupied()
	if drop {
		if p.handMine() == 0 {
			return NoMove, game.Mistaken("mg_must_move", fmt.Sprintf("%s: %s has no stones in hand and must move a stone on the board (like d4-a1)", text, name), "side", name)
		}
		if occ>>to&1 != 0 {
			return NoMove, game.Mistaken("not_empty", fmt.Sprintf("%s: %s is not empty", text, to), "square", to.String())
		}
		return Drop(to), nil
	}
	if p.handMine() > 0 {
		return NoMove, game.Mistaken("mg_must_drop", fmt.Sprintf("%s: %s still has %d stones in hand and must drop one (like d4)", text, name, p.handMine()), "side", name, "n", strconv.FormatUint(p.handMine(), 10))
	}
	if p.mine>>from&1 == 0 {
		return NoMove, game.Mistaken("mg_not_yours", fmt.Sprintf("%s: %s is not your stone", text, from), "square", from.String())
	}
	if p.destinations(from)>>to&1 == 0 {
		return NoMove, game.Mistaken("mg_no_magnet", fmt.Sprintf("%s: no magnet sends %s to %s", text, from, to), "from", from.String(), "to", to.String())
	}
	return Slide(from, to), nil
}
