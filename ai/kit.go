package ai

import (
	"github.com/magneton-games/magneton/game"
)

// Kit is what the searches need to know about one game beyond the
// game-neutral game.Position: how to evaluate a position and how to number
// moves. It is the only game-specific part of a search; each game's kit is
// in the game's own AI package (magneton/magnetonai, tumbling/tumblingai),
// beside its rules.
type Kit[P game.Position[P, M], M comparable] struct {
	// Game names the game, as its Spec does.
	Game string
	// Eval scores a position that is not over from the side to move's
	// point of view, in hundredths of a "unit" (like centipawns). It must
	// stay well inside ±MaxEval.
	Eval func(p P) int
	// MoveKey numbers a move: distinct legal moves of one position get
	// distinct keys below MoveKeys. Killers, history and the
	// transposition table store moves by key.
	MoveKey  func(m M) uint16
	MoveKeys int
	// Decided reports the result that the last move decided (a line, a
	// capture) cheaply, without generating moves. A position for which it
	// reports false may still be over (no legal move); the search finds
	// that out when it generates the moves.
	Decided func(p P) (game.Result, bool)
	// MayWin, if not nil, is a cheap test run before the leaves' search
	// for a win in one: false means no move of the side to move wins at
	// once, and the search skips playing them all.
	MayWin func(p P) bool
	// WinMove, if not nil, returns the first of p's moves, in the order
	// of p.AppendMoves, with which the side to move wins at once, and
	// false when none does, for less than listing and playing them. The
	// leaves' search for a win in one then asks it instead of MayWin and
	// WinCandidates: in Magneton a third of the leaves can win at once,
	// and playing their moves in turn until one wins cost such a leaf
	// more than its test.
	WinMove func(p P) (M, bool)
	// WinCandidates, if not nil, appends to buf those of moves (the legal
	// moves of p) that may win at once, a superset of the winning moves,
	// and returns buf. The leaves' search for a win in one then plays
	// only these instead of every move, which in a game with a hundred
	// moves a position is most of the cost of a leaf.
	WinCandidates func(p P, moves, buf []M) []M
	// Threatened, if not nil, reports whether the opponent of the side to
	// move could win at once if it were its turn (or may: a superset is
	// fine). At the leaves the search then looks one move further, to see
	// whether the side to move can parry: the threat extension.
	Threatened func(p P) bool
	// EvalThreatened, if not nil, returns Eval(p) and Threatened(p) at
	// once, for a game whose evaluation counts the opponent's wins in one
	// anyway (Magneton's threats feature): a quiet leaf then counts them
	// once instead of twice, and that count is most of a leaf's cost.
	EvalThreatened func(p P) (score int, threatened bool)
	// Pass, if not nil, returns p with the other side to move and the
	// board unchanged: the null move of null-move pruning, which the
	// search then uses. Only for games where moving is rarely worse than
	// passing.
	Pass func(p P) P
	// DeepReductions reduces the search of late, quiet moves by about
	// ln(depth)·ln(move number)/2 plies (at least one), instead of one
	// or two: for games with a hundred moves a position, where the late
	// ones are rarely best.
	DeepReductions bool
}

// Score bounds. A won position scores Mate minus the number of plies to the
// win, a lost one the negation; evaluations stay within ±MaxEval.
const (
	Mate    = 30000
	MaxEval = 20000
	inf     = 32000
	// mateBound: scores beyond it are wins or losses found by the search.
	mateBound = Mate - 1000
)

// MateMoves converts a score to the number of moves (of the side to move)
// to a forced end: positive when the side to move wins, negative when it
// loses, and 0 when the score is not a forced result.
func MateMoves(score int) int {
	switch {
	case score > mateBound:
		return (Mate - score + 1) / 2
	case score < -mateBound:
		return -(Mate + score + 1) / 2
	}
	return 0
}

// Weigh is a linear evaluation, for a game's Kit.Eval: the features times
// their weights, summed and kept within ±MaxEval, as the searches need.
func Weigh(features, weights []int) int {
	s := 0
	for i, x := range features {
		s += x * weights[i]
	}
	return max(-MaxEval, min(MaxEval, s))
}

// resultScore scores a finished game for the side to move at the given ply.
func resultScore(r game.Result, side game.Side, ply int) int {
	w, ok := r.Winner()
	switch {
	case !ok:
		return 0
	case w == side:
		return Mate - ply
	default:
		return -(Mate - ply)
	}
}
