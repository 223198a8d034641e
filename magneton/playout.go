package magneton

import (
	"math/rand/v2"

	"github.com/magneton-games/magneton/game"
)

// FastPlayout plays a random game as game.PlayoutRepeating does, with the
// same draws from rng and so the same game, in a loop of its own: the move
// is drawn and played without the generic loop's calls through the
// position's methods, and the repetition rule (h, nil for none) is applied
// to move-phase positions only, compared by their bitboards. Only those
// can repeat: while either side has stones in hand, every cycle of plies
// would include a drop by it, and a drop lowers the stones in hand for
// good. It handles the default movement and force rules (the moves
// RandomMove draws without a list) and leaves other rules to
// game.PlayoutRepeating.
func (p Position) FastPlayout(rng *rand.Rand, maxPlies int, h *game.Repetitions) (game.Result, int, bool) {
	if p.flags()&(flagWeak|flagOneSided) != 0 {
		return game.Ongoing, 0, false
	}
	if h != nil {
		h.Start(maxPlies)
	}
	r, plies := p.playout(rng, maxPlies, h)
	return r, plies, true
}

// playout is FastPlayout's loop. Each ply judges the position as
// game.PlayoutRepeating does, in the same order: a win made by the last
// move, no legal move, the repetition, the cap; then it draws the move.
// Both sides' bitboards, from the side to move's point of view, tell
// move-phase positions apart (the stones in hand are none).
func (p Position) playout(rng *rand.Rand, maxPlies int, h *game.Repetitions) (game.Result, int) {
	var sm strongMoves
	for ply := 0; ; ply++ {
		if p.won() {
			w, _ := p.Winner()
			return game.WinFor(w), ply
		}
		occ := p.occupied()
		var m Move
		if p.handMine() > 0 {
			if occ == ^uint64(0) {
				return p.noMoves(), ply
			}
			if ply == maxPlies {
				return game.Ongoing, ply
			}
			m = randomDrop(rng, occ)
		} else {
			// The position is recorded before its moves are counted, so
			// that the count and the draw are one call; the order of the
			// verdicts is PlayoutRepeating's.
			repeated := h != nil && p.state&0xffff == 0 && h.Add(p.mine, p.theirs) && h.Repeated()
			m = sm.draw(p.mine, p.theirs, rng, !repeated && ply < maxPlies)
			switch {
			case sm.total == 0:
				return p.noMoves(), ply
			case repeated:
				return game.Draw, ply
			case ply == maxPlies:
				return game.Ongoing, ply
			}
		}
		p = p.Play(m)
	}
}

// noMoves is the result when the side to move has no legal move.
func (p Position) noMoves() game.Result {
	if p.flags()&flagNoMovesDraws != 0 {
		return game.Draw
	}
	return game.LossFor(p.sideToMove())
}
