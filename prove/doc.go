// Package prove is the project's proof-number solver: a depth-first
// proof-number search (df-pn, Nagai 2002) over the game-neutral
// game.Position interface, which settles a position for good (a win, a
// loss or a draw with best play) and writes the proof of a win as a
// certificate that Verify checks with nothing but the rules.
//
// The search asks one question at a time: does the attacker win by
// force? A draw is a failure for the attacker; a position is settled as
// a draw when neither side wins. Its knowledge of a game is the search
// kit of the computer players (ai.Kit): Decided for the end of the game,
// the win-in-one test at every new position (a side that wins at once
// has succeeded, whichever it is), and the threat test for move
// ordering: a move that leaves the opponent no threat to parry starts
// with a higher proof number, so forcing moves are tried first. The
// table is sized in MiB by the caller, replaces the entry of least work
// (the "small tree" rule), and can be saved and loaded to resume a run.
// Settled results (proofs and disproofs) are kept apart from it, never
// replaced, in up to as much memory again: they are few (about one entry
// in 270 on Tumbling Down's start) and they are what a certificate is
// written from, which then needs no second search.
//
// Repetition and the graph-history interaction: a position seen before
// on the current line is scored a draw, the defender's success. That is
// exact for a position with no history (the root): a side that can force
// a win can force one that never repeats a position (play always towards
// the shortest win), and a side that cannot win can keep from losing, so
// repeating is never needed to win, and a draw by the third occurrence
// is as good to the defender as the first return. But such a result is
// true only of the line it was found on: the same position reached by
// another line may be a win. So each result carries the shallowest ply of
// the line it relied on, and a settled result that relied on a position
// above the node is not stored in the table; it is returned to the
// parent, which keeps it while it searches (the parent's line is the
// same). Once the search returns to the position repeated, the result
// relies only on positions from there on and is stored. A proven win
// never relies on a repetition (a repetition only ever helps the
// defender), so every stored proof is path-independent, which is what
// the certificates need. TestGraphsAgreeWithBruteForce checks this on
// random graphs with cycles against exhaustive search; storing every
// result instead fails it.
//
// A root with a history (earlier positions that count towards the
// repetition rule) is solved as if it had none.
//
// Where the engine speaks (the play server's analysis and reviews, the
// engine protocol's info lines, the strongest computer player's endgame)
// "proven" comes from Game.Prover: small searches of this solver that
// keep their table from one call to the next, and report the winner's
// moves on the proof's longest line (a bound on the win's length, the
// shortest when it is one or two moves: every position is first tested
// for a win at once), the winner's move of the proof (off the game's
// earlier positions when it can be) and, for the loser, the move whose
// proof is longest.
package prove
