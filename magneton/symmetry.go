package magneton

import (
	"math/bits"

	"github.com/magneton-games/magneton/game"
)

// symmetries are the seven symmetries of the board other than the
// identity: Magneton's rules know no direction, so each maps legal moves
// to legal moves and play to play.
var symmetries = func() []game.Symmetry {
	var out []game.Symmetry
	for k := 1; k < 8; k++ {
		sq := func(s Square) Square { return s.Transform(k) }
		out = append(out, game.Symmetry{
			Name:     game.TransformName(k),
			Position: func(text string) string { return transformText(text, k) },
			Move:     func(m string) string { return game.MapSquares(m, sq) },
			State: func(s game.State) game.State {
				p, ok := game.Unwrap[Position, Move](s)
				if !ok {
					return nil
				}
				return game.Adapt[Position, Move](p.transform(k), s.Rules())
			},
		})
	}
	return out
}()

// transformText maps a position text by symmetry k of Square.Transform; a
// text that does not read is returned as it is.
func transformText(text string, k int) string {
	p, err := Rules{}.Parse(text)
	if err != nil {
		return text
	}
	return p.transform(k).String()
}

// transform returns the position's image under symmetry k of
// Square.Transform.
func (p Position) transform(k int) Position {
	var stones [2]uint64
	for c := range stones {
		for b := p.Stones(game.Side(c)); b != 0; b &= b - 1 {
			stones[c] |= 1 << Square(bits.TrailingZeros64(b)).Transform(k)
		}
	}
	return newPosition(stones, [2]int{p.InHand(White), p.InHand(Black)}, p.Side(), p.flags())
}
