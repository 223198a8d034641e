package tumbling

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Diagram draws the position for a terminal. Each square shows the colour
// of its top disk and the stack's height: a capital letter (B, R) for a
// stack of one colour only, a small one (b, r) for a mixed stack, and a
// star on the Kings. Below the board come the mixed stacks from the bottom
// up, since the picture cannot show them, and the side to move or the
// winner. With color, squares get a wooden background and disks their own
// colours (ANSI escape codes).
func (p Position) Diagram(color bool) string {
	var b strings.Builder
	const files = "    a    b    c    d    e    f    g    h\n"
	b.WriteString(files)
	kings := p.kings[0] | p.kings[1]
	var mixed []string
	for rank := 7; rank >= 0; rank-- {
		fmt.Fprintf(&b, " %d ", rank+1)
		for file := range 8 {
			sq := SquareAt(file, rank)
			h, m := p.Stack(sq)
			cell := " ·   "
			top := 0
			if h > 0 {
				top = int(m >> (h - 1) & 1)
				letter := colourLetter[top]
				if (p.pure[0]|p.pure[1])>>sq&1 != 0 {
					letter -= 'a' - 'A'
				} else {
					var st strings.Builder
					for i := range h {
						st.WriteByte(colourLetter[m>>i&1])
					}
					mixed = append(mixed, sq.String()+" "+st.String())
				}
				mark := ""
				if kings>>sq&1 != 0 {
					mark = "*"
				}
				cell = fmt.Sprintf(" %-4s", string(letter)+strconv.Itoa(h)+mark)
			}
			if !color {
				b.WriteString(cell)
				continue
			}
			bg := "\x1b[48;5;180m" // light wood
			if (file+rank)%2 == 0 {
				bg = "\x1b[48;5;137m" // dark wood
			}
			fg := "\x1b[38;5;94m"
			if h > 0 {
				fg = [2]string{"\x1b[1;30m", "\x1b[1;31m"}[top]
			}
			b.WriteString(bg + fg + cell + "\x1b[0m")
		}
		fmt.Fprintf(&b, " %d\n", rank+1) // a space: a cell of a tall stack fills its five columns
	}
	b.WriteString(files)
	if len(mixed) > 0 {
		fmt.Fprintf(&b, "Mixed stacks, bottom first: %s.\n", strings.Join(mixed, ", "))
	}
	for c := range 2 {
		if n := bits.OnesCount64(p.kings[c]); n > 0 {
			fmt.Fprintf(&b, "%s's King%s: height %d.\n", sideNames[c], map[bool]string{true: "s", false: ""}[n > 1], p.kingH[c])
		}
	}
	res, why := p.Outcome()
	if w, ok := res.Winner(); ok {
		fmt.Fprintf(&b, "%s has won (%s).\n", sideNames[w], why)
	} else if res.Over() {
		fmt.Fprintf(&b, "The game is drawn (%s).\n", why)
	} else {
		fmt.Fprintf(&b, "%s to move.\n", sideNames[p.side])
	}
	return b.String()
}
