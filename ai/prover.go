package ai

import (
	"context"
	"time"

	"github.com/magneton-games/magneton/game"
)

// Prover settles positions by proof: a proof-number search (package
// prove's df-pn solver, which a game's registration supplies) that
// reports only what it proved, with no evaluation in it. It is the one
// source of the word "proven" in what the engine says: the analysis, the
// engine protocol's info lines and the computer players' endgame.
//
// A Prover keeps its table between calls (a position proved once is
// cheap to prove again, which is what lets a player follow its proof move
// after move) and is used by one goroutine at a time.
type Prover interface {
	// Settle tries to settle s, its current position, within maxNodes
	// positions expanded (0: no limit) or until ctx ends. hist are the
	// hashes of the positions before s in the game: the move it returns
	// for a proven win never leads back to one of them when another
	// proven move does not. A position not settled within the budget is
	// Proof{} with Result Ongoing, not an error; an error is a position
	// the prover cannot search (the game is over, another game).
	Settle(ctx context.Context, s game.State, hist []uint64, maxNodes int64) (Proof, error)
}

// Proof is what a Prover settled about a position.
type Proof struct {
	// Result is the game's result with best play from the position: a
	// win of one side, a draw (neither side can force a win), or Ongoing
	// when the budget ran out first.
	Result game.Result
	// Moves is the winner's moves to its win on the longest line of the
	// proof: the winner wins in Moves moves or fewer whatever the loser
	// does. The proof search looks for a proof, not the shortest one, so
	// a shorter win may exist unless Exact says otherwise.
	Moves int
	// Exact is set when no shorter win exists (proven too): a win in one
	// move, or a longer one when every shorter bound was disproved.
	Exact bool
	// Move is the side to move's move, in the game's notation: for a
	// proven win, the first move of the proof; for a proven loss, the
	// move that resists longest by the proofs (whose proof of the
	// opponent's win is the longest); "" for a draw or no result.
	Move string
	// Line, when the prover knows it, is the proof's longest line from
	// the position, Move first: the winner's moves and the loser's
	// longest resistance (the book of proven positions gives it).
	Line  []string
	Nodes int64 // positions expanded
}

// Proven reports whether the proof settled a win or a loss.
func (p Proof) Proven() bool {
	_, ok := p.Result.Winner()
	return ok
}

// Signed returns Moves as a Mate count for the side to move: positive
// when it wins, negative when it loses, 0 when no win or loss is proven.
func (p Proof) Signed(side game.Side) int {
	w, ok := p.Result.Winner()
	switch {
	case !ok:
		return 0
	case w == side:
		return p.Moves
	}
	return -p.Moves
}

// The computer players' use of their Prover in the endgame (level 8):
// when their search first sees a forced result (a mate score, which
// alpha-beta's pruning can get wrong) they ask the prover at once, after
// the search (that move may take up to a quarter longer), and from then
// on before searching, as long as the search still sees one, within
// these budgets; they play its move when it proves a win (never throwing
// a proven win away) or a loss (resisting longest by the proofs).
const (
	// EndgameNodes bounds one move's proof search.
	EndgameNodes = 20_000
	// EndgameShare is the share of the move's time the proof search may
	// take, at most EndgameTime.
	EndgameShare = 4
	EndgameTime  = time.Second
	// EndgameHashMiB is the size of a player's proof table (made at its
	// first proof search: the players that never ask make none).
	EndgameHashMiB = 4
)
