package tumbling

import "github.com/magneton-games/magneton/game"

// symmetries are the fifteen symmetries of Tumbling Down's rules other
// than the identity: the eight of the board, each with or without the
// colours swapped (every disk and the side to move). The rules know no
// direction and no colour; only the start layouts do.
var symmetries = func() []game.Symmetry {
	var out []game.Symmetry
	for k := range 8 {
		for _, swap := range []bool{false, true} {
			if k == 0 && !swap {
				continue
			}
			name := game.TransformName(k)
			if swap {
				name += ", colours swapped"
				if k == 0 {
					name = "colours swapped"
				}
			}
			sq := func(s Square) Square { return s.Transform(k) }
			out = append(out, game.Symmetry{
				Name:       name,
				Position:   func(text string) string { return transformText(text, k, swap) },
				Move:       func(m string) string { return game.MapSquares(m, sq) },
				SwapsSides: swap,
				State: func(s game.State) game.State {
					p, ok := game.Unwrap[Position, Move](s)
					if !ok {
						return nil
					}
					q := p.transform(k, swap)
					return game.Adapt[Position, Move](q, s.Rules())
				},
			})
		}
	}
	return out
}()

// transformText maps a position text by symmetry k of Square.Transform,
// swapping the colours when swap is set; a text that does not read is
// returned as it is.
func transformText(text string, k int, swap bool) string {
	p, err := Rules{NoKingIgnored: true}.Parse(text)
	if err != nil {
		return text
	}
	var inverse [64]Square
	for s := range Square(64) {
		inverse[s.Transform(k)] = s
	}
	side := p.side
	if swap {
		side = side.Other()
	}
	return formatBoard(func(s Square) (uint8, uint64) {
		from := inverse[s]
		h, m := p.height[from], p.stack(from)
		if swap {
			m ^= lowBits(h)
		}
		return h, m
	}, side)
}

// transform returns the position's image under symmetry k of
// Square.Transform, with the colours swapped when swap is set: the
// position that transformText's text reads as, built without the text.
func (p *Position) transform(k int, swap bool) Position {
	q := Position{flags: p.flags, side: p.side}
	if swap {
		q.side = q.side.Other()
	}
	for s := range Square(64) {
		h := p.height[s]
		if h == 0 {
			continue
		}
		m := p.stack(s)
		if swap {
			m ^= lowBits(h)
		}
		q.put(s.Transform(k), h, m)
	}
	q.scanKings(Black)
	q.scanKings(Red)
	q.hash = q.computeHash()
	q.judgeKings()
	return q
}
