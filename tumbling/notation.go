package tumbling

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/magneton-games/magneton/game"
)

var sideNames = [2]string{"Black", "Red"}

// colourLetter is the letter of a disk's colour in position texts.
var colourLetter = [2]byte{'b', 'r'}

// String writes the position text: ranks 8 to 1 separated by "/"; within a
// rank, squares separated by ","; a square is its stack from the bottom up
// in letters b (black) and r (red), or a number for a run of empty squares;
// then a space and the side to move, b or r. The original start is
// "bbbb,bbb,bb,bb,b,3/bbb,bb,bb,b,4/bb,bb,b,5/bb,b,5,r/b,5,r,rr/5,r,rr,rr/4,r,rr,rr,rrr/3,r,rr,rr,rrr,rrrr b".
func (p Position) String() string {
	return formatBoard(func(sq Square) (uint8, uint64) { return p.height[sq], p.stack(sq) }, p.side)
}

// formatBoard writes a position text from each square's stack (its height
// and colour mask) and the side to move.
func formatBoard(stack func(Square) (uint8, uint64), side game.Side) string {
	var b strings.Builder
	b.Grow(160)
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		first := true
		sep := func() {
			if !first {
				b.WriteByte(',')
			}
			first = false
		}
		for file := range 8 {
			h, m := stack(SquareAt(file, rank))
			if h == 0 {
				empty++
				continue
			}
			if empty > 0 {
				sep()
				b.WriteByte('0' + byte(empty))
				empty = 0
			}
			sep()
			for i := range h {
				b.WriteByte(colourLetter[m>>i&1])
			}
		}
		if empty > 0 {
			sep()
			b.WriteByte('0' + byte(empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteByte(' ')
	b.WriteByte(colourLetter[side])
	return b.String()
}

// Parse reads a position text as written by Position.String, under these
// rules. Each colour may have at most DisksPerSide disks on the board;
// fewer is allowed, for studies. Under no-king=loses a position in which a
// side has no single-colour stack is already decided (see judgeKings). The
// error names what is wrong and where.
func (r Rules) Parse(text string) (Position, error) {
	fields := strings.Fields(text)
	if len(fields) != 2 {
		return Position{}, game.Mistaken("td_fields", fmt.Sprintf("position %q: want 2 fields (the board, then the side to move b or r), got %d", text, len(fields)), "got", strconv.Itoa(len(fields)))
	}
	p := Position{flags: r.flags()}
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return Position{}, game.Mistaken("ranks", fmt.Sprintf("position %q: the board has %d ranks separated by '/', want 8", text, len(ranks)), "got", strconv.Itoa(len(ranks)), "want", "8")
	}
	var count [2]int
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for _, item := range strings.Split(row, ",") {
			switch {
			case item == "":
				return Position{}, game.Mistaken("td_empty_entry", fmt.Sprintf("position %q: rank %d: an empty square entry (two commas in a row, or a comma at an end)", text, rank+1), "rank", strconv.Itoa(rank+1))
			case item[0] >= '0' && item[0] <= '9':
				n, err := strconv.Atoi(item)
				if err != nil || n < 1 || n > 8 {
					return Position{}, game.Mistaken("td_run", fmt.Sprintf("position %q: rank %d: %q is not a run of 1 to 8 empty squares", text, rank+1, item), "rank", strconv.Itoa(rank+1), "item", item)
				}
				file += n
			default:
				if file >= 8 {
					return Position{}, game.Mistaken("td_rank_long", fmt.Sprintf("position %q: rank %d has more than 8 squares", text, rank+1), "rank", strconv.Itoa(rank+1))
				}
				sq := SquareAt(file, rank)
				if len(item) > MaxHeight {
					return Position{}, game.Mistaken("td_tall", fmt.Sprintf("position %q: %s: a stack of %d disks, more than the %d there are", text, sq, len(item), MaxHeight), "square", sq.String(), "n", strconv.Itoa(len(item)), "max", strconv.Itoa(MaxHeight))
				}
				var mask uint64
				for j := 0; j < len(item); j++ {
					switch item[j] {
					case 'b':
						count[Black]++
					case 'r':
						count[Red]++
						mask |= 1 << j
					default:
						return Position{}, game.Mistaken("td_disk_char", fmt.Sprintf("position %q: %s: %q in stack %q is not b (black) or r (red)", text, sq, item[j], item), "square", sq.String(), "char", string(item[j]), "item", item)
					}
				}
				p.put(sq, uint8(len(item)), mask)
				file++
			}
		}
		if file != 8 {
			return Position{}, game.Mistaken("rank_squares", fmt.Sprintf("position %q: rank %d has %d squares, want 8", text, rank+1, file), "rank", strconv.Itoa(rank+1), "got", strconv.Itoa(file), "want", "8")
		}
	}
	for c, n := range count {
		if n > DisksPerSide {
			return Position{}, game.Mistaken("td_too_many", fmt.Sprintf("position %q: %s has %d disks, more than %d", text, sideNames[c], n, DisksPerSide), "side", sideNames[c], "n", strconv.Itoa(n), "max", strconv.Itoa(DisksPerSide))
		}
	}
	switch fields[1] {
	case "b":
		p.side = Black
	case "r":
		p.side = Red
	default:
		return Position{}, game.Mistaken("td_side", fmt.Sprintf("position %q: side to move %q is not b or r", text, fields[1]), "got", fields[1])
	}
	p.scanKings(Black)
	p.scanKings(Red)
	p.hash = p.computeHash()
	p.judgeKings()
	return p, nil
}

// FormatMove writes a move in the project's notation: "e5-f6" or "e5>f6".
func (p Position) FormatMove(m Move) string { return m.String() }

// ParseMove reads a step ("e5-f6") or a tumble ("e5>f6") and checks that it
// is legal here. A one-disk stack's tumble is the same move as its step and
// is read as the step, except under moves=tumble-only, where a lone disk
// steps and ">" is kept for stacks. The error names the move and says what
// is wrong.
func (p Position) ParseMove(s string) (Move, error) {
	text := strings.TrimSpace(s)
	if len(text) != 5 || (text[2] != '-' && text[2] != '>') {
		return NoMove, game.Mistaken("td_not_move", fmt.Sprintf("%q: not a step like e5-f6 or a tumble like e5>f6", s))
	}
	from, err := parseSquare(text, text[:2])
	if err != nil {
		return NoMove, err
	}
	to, err := parseSquare(text, text[3:])
	if err != nil {
		return NoMove, err
	}
	tumble := text[2] == '>'
	d, ok := directionTo(from, to)
	if !ok {
		return NoMove, game.Mistaken("td_not_next", fmt.Sprintf("%s: %s is not next to %s (a move goes one square in one of the 8 directions)", text, to, from), "from", from.String(), "to", to.String())
	}
	if w, ok := p.Winner(); ok {
		return NoMove, game.Mistaken("td_over", fmt.Sprintf("%s: the game is over, %s won (%s)", text, sideNames[w], endings[p.ending]), "side", sideNames[w])
	}
	name := sideNames[p.side]
	h := p.height[from]
	switch {
	case h == 0:
		return NoMove, game.Mistaken("td_empty", fmt.Sprintf("%s: %s is empty", text, from), "square", from.String())
	case p.tops[p.side]>>from&1 == 0:
		return NoMove, game.Mistaken("td_not_top", fmt.Sprintf("%s: the stack on %s has a %s disk on top, and %s moves only stacks topped by %s", text, from, strings.ToLower(sideNames[p.side^1]), name, strings.ToLower(name)), "square", from.String(), "side", name)
	case h == 1 && tumble && p.flags&flagTumbleOnly != 0:
		return NoMove, game.Mistaken("td_single", fmt.Sprintf("%s: the stack on %s is one disk, which steps (write %s-%s); under moves=tumble-only '>' is for stacks of two or more", text, from, from, to), "square", from.String(), "from", from.String(), "to", to.String())
	case h == 1:
		return Step(from, d), nil
	case tumble:
		return Tumble(from, d), nil
	case p.flags&flagTumbleOnly != 0:
		return NoMove, game.Mistaken("td_no_step", fmt.Sprintf("%s: under moves=tumble-only a stack of %d disks cannot step, only tumble (write %s>%s)", text, h, from, to), "n", strconv.Itoa(int(h)), "from", from.String(), "to", to.String())
	}
	return Step(from, d), nil
}

// parseSquare reads one square of move text, telling a square off the
// board ("i9", "a0") from text that is no square at all.
func parseSquare(move, name string) (Square, error) {
	if sq, ok := ParseSquare(name); ok {
		return sq, nil
	}
	f, r := name[0], name[1]
	if f >= 'a' && f <= 'z' && r >= '0' && r <= '9' {
		return NoSquare, game.Mistaken("td_off_board", fmt.Sprintf("%s: %s is off the board (files a-h, ranks 1-8)", move, name), "square", name)
	}
	return NoSquare, game.Mistaken("td_not_square", fmt.Sprintf("%s: %q is not a square like e5", move, name), "square", name)
}
