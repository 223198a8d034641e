// Package rating keeps players' ratings with Mark Glickman's Glicko-2
// system, as his "Example of the Glicko-2 system" (Boston University,
// November 2013, glicko.net/glicko/glicko2.pdf) specifies it, steps 1
// to 8, with the Illinois algorithm of step 5 for the volatility.
//
// # Glicko-2 in a few sentences
//
// Elo gives a player one number. Glicko also says how sure it is of that
// number, and Glicko-2 how steady the player is. A [Rating] has three
// parts: R, the rating, on the Elo-like scale where a newcomer is 1500 and
// 400 points of difference are odds of about ten to one; RD, the rating
// deviation, the standard deviation of what R is believed to be (the
// player's strength lies within R ± 2RD with about 95% confidence); and
// Vol, the volatility σ, how erratically the player performs, which sets
// how fast RD grows back when the player is not seen. After a game R moves
// further when the player's own RD is large (little was known) and less
// when the opponent's RD is large (a result against an unknown tells
// little), RD shrinks, and Vol rises after a surprising result and falls
// after an expected one. [Expected] is the score the system predicts.
//
// # Rating periods
//
// Glicko-2 updates ratings once per rating period and takes the games of a
// period as played at the same time, against the opponents' ratings from
// the start of the period. The paper suggests periods holding 10 to 15
// games per player; this package is meant to be used as lichess uses it,
// with one update per game: each game is its own period for both players,
// and each side's update takes the other's rating from before the game:
//
//	a2, err := rating.DefaultParams.Update(a, []rating.Result{{Opponent: b, Score: 1}})
//	b2, err := rating.DefaultParams.Update(b, []rating.Result{{Opponent: a, Score: 0}})
//
// That is what players expect to see (their rating changes the moment a
// game ends) and it needs no batch job. [Params.Update] still accepts a
// whole period's results for a site that batches. The deviation grows with
// time only through an update with no results (step 6 of the paper): a
// site that wants the ratings of absent players to become uncertain again
// calls Update with no results once per idle period, of a length it
// chooses.
//
// # Parameters and bounds
//
// New players start at 1500, RD 350 and volatility 0.06, the paper's
// values ([New]). The one system constant, τ ([Params.Tau]), limits how
// fast the volatility can change; [DefaultParams] has lichess's 0.75,
// within the 0.3 to 1.2 the paper suggests.
//
// Beyond the paper, every rating Update returns is bounded: RD within
// [MinRD, MaxRD], R within [MinR, MaxR] and Vol within [MinVol, MaxVol];
// the constants say why each bound is there. Ratings passed in are taken
// inside the same bounds (except that a deviation below MinRD is used as
// it is), so any finite input gives a finite, bounded result. Input that is
// not a rating or a score at all (NaN, an infinity, a negative deviation,
// a volatility of zero, a score outside [0, 1]) makes Update return an
// error instead.
package rating
