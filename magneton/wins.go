package magneton

import (
	"github.com/magneton-games/magneton/game"
)

// WinsInOne counts the moves with which side s would win at once if it
// were its turn (its stones in hand, its stones on the board), stopping
// at limit. Computer players ask it at every leaf of their search, for
// both sides: whether the side to move can win now, and whether the
// opponent threatens to. A finished game has none.
//
// Under the default movement rules it does not play most moves: a move
// wins only through the stones its magnet repels, and set-wise tests of
// where repelled stones can end (dropwins.go) leave a few moves, if any,
// to play out. Under other rule options it plays every move.
func (p Position) WinsInOne(s game.Side, limit int) int {
	if p.won() || limit <= 0 {
		return 0
	}
	if p.flags()&(flagWeak|flagOneSided) != 0 {
		return p.winsByPlaying(s, limit)
	}
	own, their := p.Stones(s), p.Stones(s.Other())
	if p.InHand(s) > 0 {
		return dropWinsInOne(own, their, limit)
	}
	return moveWinsInOne(own, their, limit)
}

// WinningMove returns the first of the side to move's moves, in the order
// of AppendMoves, with which it wins at once, and false when none does:
// what playing the moves in turn until one wins finds. Under the default
// movement rules it plays only the moves that WinsInOne's set-wise tests
// leave (dropwins.go), so a search's leaf learns the winning move for
// about the price of WinsInOne.
func (p Position) WinningMove() (Move, bool) {
	if p.won() {
		return NoMove, false
	}
	if p.flags()&(flagWeak|flagOneSided) != 0 {
		var buf [256]Move
		for _, m := range p.AppendMoves(buf[:0]) {
			if w, ok := p.Play(m).Winner(); ok && w == p.sideToMove() {
				return m, true
			}
		}
		return NoMove, false
	}
	if p.handMine() > 0 {
		return firstDropWin(p.mine, p.theirs)
	}
	_, m := moveWins(p.mine, p.theirs, 1)
	return m, m != NoMove
}

// winsByPlaying is WinsInOne for any rule options: it plays every move.
func (p Position) winsByPlaying(s game.Side, limit int) int {
	if s != p.sideToMove() {
		stones := [2]uint64{}
		stones[s], stones[s.Other()] = p.Stones(s), p.Stones(s.Other())
		hand := [2]int{}
		hand[s], hand[s.Other()] = p.InHand(s), p.InHand(s.Other())
		p = newPosition(stones, hand, s, p.flags())
	}
	var buf [256]Move
	n := 0
	for _, m := range p.AppendMoves(buf[:0]) {
		if w, ok := p.Play(m).Winner(); ok && w == s {
			if n++; n >= limit {
				return n
			}
		}
	}
	return n
}

// step[d] is the change of square index one step in direction d.
var step = [8]int{1, 9, 8, 7, -1, -9, -8, -7}
