package magneton

import (
	"fmt"

	"github.com/magneton-games/magneton/game"
)

// Magneton's motifs (game.Motifs): what a move does.
const (
	// MotifDrop: the move drops a stone (the first phase).
	MotifDrop = "drop"
	// MotifMovePhase: the move slides a stone (the second phase).
	MotifMovePhase = "move-phase"
	// MotifPush: the slide goes away from the nearest stone behind it,
	// one of the mover's own colour, which repels it.
	MotifPush = "push"
	// MotifPull: the slide ends next to an enemy stone, which attracted
	// it.
	MotifPull = "pull"
)

var motifs = &game.Motifs{
	IDs: []string{MotifDrop, MotifMovePhase, MotifPush, MotifPull},
	Of:  moveMotifs,
}

// moveMotifs: a drop, or a slide that pushes, pulls, or both.
func moveMotifs(s game.State, text string) ([]string, error) {
	p, ok := game.Unwrap[Position, Move](s)
	if !ok {
		return nil, fmt.Errorf("motifs of %s: the position is not one of Magneton", text)
	}
	m, err := p.ParseMove(text)
	if err != nil {
		return nil, err
	}
	if m.IsDrop() {
		return []string{MotifDrop}, nil
	}
	from, to := m.From(), m.To()
	own, _ := p.At(from)
	df, dr := sign(to.File()-from.File()), sign(to.Rank()-from.Rank())
	out := []string{MotifMovePhase}
	// Behind the origin: the nearest stone, if it is of the mover's
	// colour, repels it.
	for f, r := from.File()-df, from.Rank()-dr; onBoard(f, r); f, r = f-df, r-dr {
		if c, ok := p.At(SquareAt(f, r)); ok {
			if c == own {
				out = append(out, MotifPush)
			}
			break
		}
	}
	if f, r := to.File()+df, to.Rank()+dr; onBoard(f, r) {
		if c, ok := p.At(SquareAt(f, r)); ok && c != own {
			out = append(out, MotifPull)
		}
	}
	return out, nil
}

func onBoard(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
