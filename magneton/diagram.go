package magneton

import (
	"fmt"
	"strings"
)

// Diagram draws the position for a terminal: the board with rank and file
// labels, then the side to move, the stones in hand and any winner. White
// stones are ○ and black ones ●; with color, the squares get a wooden
// background and the stones their own colours (ANSI escape codes).
func (p Position) Diagram(color bool) string {
	var b strings.Builder
	const files = "    a b c d e f g h\n"
	b.WriteString(files)
	for rank := 7; rank >= 0; rank-- {
		fmt.Fprintf(&b, " %d ", rank+1)
		for file := range 8 {
			sq := SquareAt(file, rank)
			c, ok := p.At(sq)
			glyph := "·"
			if ok {
				glyph = [2]string{"○", "●"}[c]
			}
			if !color {
				b.WriteString(" " + glyph)
				continue
			}
			bg := "\x1b[48;5;180m" // light wood
			if (file+rank)%2 == 0 {
				bg = "\x1b[48;5;137m" // dark wood
			}
			fg := "\x1b[38;5;94m"
			if ok {
				glyph = "●"
				fg = [2]string{"\x1b[1;97m", "\x1b[1;30m"}[c]
			}
			b.WriteString(bg + fg + " " + glyph + "\x1b[0m")
		}
		fmt.Fprintf(&b, "  %d\n", rank+1)
	}
	b.WriteString(files)
	if w, ok := p.Winner(); ok {
		fmt.Fprintf(&b, "%s has won with a line of four.\n", sideNames[w])
	} else {
		fmt.Fprintf(&b, "%s to move.", sideNames[p.Side()])
		if p.InHand(White)+p.InHand(Black) > 0 {
			fmt.Fprintf(&b, " In hand: White %d, Black %d.", p.InHand(White), p.InHand(Black))
		}
		b.WriteByte('\n')
	}
	return b.String()
}
