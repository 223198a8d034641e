package tumbling

import (
	"fmt"
	"strings"

	"github.com/magneton-games/magneton/game"
)

// Tumbling Down's motifs (game.Motifs): what a move does.
const (
	// MotifStep: the move steps a stack (or a lone disk) to the next square.
	MotifStep = "step"
	// MotifTumble: the move tumbles a stack of two disks or more, one disk
	// a square.
	MotifTumble = "tumble"
	// MotifEdgePile: the tumble reaches the edge with disks left, which
	// pile up on the last square.
	MotifEdgePile = "edge-pile"
	// MotifMixedTumble: the tumbled stack holds disks of both colours.
	MotifMixedTumble = "mixed-tumble"
)

var motifs = &game.Motifs{
	IDs:    []string{MotifTumble, MotifStep, MotifEdgePile, MotifMixedTumble},
	Of:     moveMotifs,
	Threat: threatOf,
}

// moveMotifs: a step, or a tumble, which may pile disks at the edge and
// may carry enemy disks.
func moveMotifs(s game.State, text string) ([]string, error) {
	p, ok := game.Unwrap[Position, Move](s)
	if !ok {
		return nil, fmt.Errorf("motifs of %s: the position is not one of Tumbling Down", text)
	}
	m, err := p.ParseMove(text)
	if err != nil {
		return nil, err
	}
	if !m.IsTumble() {
		return []string{MotifStep}, nil
	}
	from, to := m.From(), m.To()
	df, dr := to.File()-from.File(), to.Rank()-from.Rank()
	room := 0
	for f, r := to.File(), to.Rank(); f >= 0 && f < 8 && r >= 0 && r < 8; f, r = f+df, r+dr {
		room++
	}
	out := []string{MotifTumble}
	h, colours := p.Stack(from)
	if h > room {
		out = append(out, MotifEdgePile)
	}
	if colours != 0 && colours != 1<<h-1 {
		out = append(out, MotifMixedTumble)
	}
	return out, nil
}

// threatOf: a winning move's threat is the stack it moves, so that a step
// and a tumble of one stack onto the same King are one threat.
func threatOf(move string) string {
	from, _, _ := strings.Cut(strings.ReplaceAll(move, ">", "-"), "-")
	return from
}
