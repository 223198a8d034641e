// Package elo measures the difference in strength of two players, A and B,
// from the wins, draws and losses of A in a match between them.
//
// # Score and Elo
//
// A's score counts a win 1, a draw 1/2 and a loss 0, and is the mean over
// the games, from 0 to 1. The Elo scale turns a difference in strength D
// into the score A is expected to make, and back:
//
//	score = 1 / (1 + 10^(-D/400))        D = -400 log10(1/score - 1)
//
// so 0 Elo is an even match, +100 Elo a score of 64%, +191 Elo 75% and
// +382 Elo 90%. A score of 0 or 1 is -∞ or +∞ Elo.
//
// # The 95% interval
//
// A match is a sample: the same two players would score a little
// differently in another match of the same length. Taking the games as
// independent draws of the same result, the variance of one game's score
// is estimated from the match as
//
//	v = (W (1-m)² + D (1/2-m)² + L m²) / n
//
// for n = W+D+L games with mean score m. By the central limit theorem the
// mean of n games is close to normally distributed with standard error
// se = √(v/n) (the normal approximation of the mean score), so the
// interval m ± 1.96 se holds A's expected score in about 95% of matches
// (1.96 is the 97.5% quantile of the standard normal distribution).
// [Stats.Elo] gives that interval in Elo. The approximation is poor for
// few games or a lopsided score: when A wins, draws or loses every game v
// is 0 and the interval shrinks to the point itself, which is infinite for
// all wins or all losses, and an end of the interval beyond a score of 0
// or 1 is infinite.
//
// # The SPRT
//
// A sequential probability ratio test decides between two hypotheses
// about the difference, H0: it is elo0, and H1: it is elo1 (elo0 < elo1),
// from the games played so far, so that a match can stop as soon as the
// evidence is strong enough. The evidence is the log-likelihood ratio
//
//	LLR = ln(P(results | H1) / P(results | H0))
//
// which grows with results that are more likely under H1 and falls with
// those more likely under H0. Wald's bounds
//
//	lower = ln(β / (1-α))        upper = ln((1-β) / α)
//
// give the error rates: stopping at the first game where LLR >= upper
// (accept H1) or LLR <= lower (accept H0) accepts H1 when H0 is true with
// probability at most about α, and H0 when H1 is true with probability at
// most about β. With α = β = 0.05 the bounds are ±2.94.
//
// The probability of a match's results depends on how often the players
// draw, which neither hypothesis says. The generalised SPRT used in
// chess-engine testing (Fishtest, for example) puts in the variance v
// measured in the match and takes the mean score as normally distributed
// as above, with mean s0 = 1/(1 + 10^(-elo0/400)) under H0 and s1 under
// H1. The ratio of the two normal densities at the measured mean m is then
//
//	LLR = n/(2v) ((m-s0)² - (m-s1)²) = n (s1-s0) (2m - s0 - s1) / (2v)
//
// which is what [Stats.SPRT] computes.
package elo

import (
	"fmt"
	"math"
)

// z95 is the 97.5% quantile of the standard normal distribution: a normal
// variable lies within z95 standard deviations of its mean 95% of the time.
const z95 = 1.959964

// Stats is the result of a match from player A's point of view: A's wins,
// draws and losses. Its zero value is a match with no games.
type Stats struct {
	W, D, L int
}

// Games returns the number of games, W+D+L.
func (s Stats) Games() int { return s.W + s.D + s.L }

// Score returns A's mean score from 0 to 1, a win counting 1 and a draw 1/2.
// With no games it is 0.5.
func (s Stats) Score() float64 {
	n := s.Games()
	if n == 0 {
		return 0.5
	}
	return (float64(s.W) + float64(s.D)/2) / float64(n)
}

// variance returns the variance of one game's score, estimated from the
// games (see the package comment); 0 with no games.
func (s Stats) variance() float64 {
	n := float64(s.Games())
	if n == 0 {
		return 0
	}
	m := s.Score()
	return (float64(s.W)*(1-m)*(1-m) + float64(s.D)*(0.5-m)*(0.5-m) + float64(s.L)*m*m) / n
}

// Elo returns the Elo difference of A over B, FromScore of the Score, and
// the ends lo and hi of its 95% confidence interval from the normal
// approximation of the mean score (see the package comment). A positive
// difference means A is the stronger. Any of the three is -Inf or +Inf
// where the score or an end of its interval is 0 or less, or 1 or more,
// as with all wins or all losses. With no games elo is 0 and lo and hi
// are NaN.
func (s Stats) Elo() (elo, lo, hi float64) {
	n := float64(s.Games())
	m := s.Score()
	se := math.Sqrt(s.variance() / n)
	return FromScore(m), FromScore(m - z95*se), FromScore(m + z95*se)
}

// Verdict is the decision of an SPRT.
type Verdict string

// The verdicts of Stats.SPRT.
const (
	Continue Verdict = "continue"    // not enough evidence either way yet: play on
	AcceptH0 Verdict = "H0 accepted" // the difference is elo0 rather than elo1
	AcceptH1 Verdict = "H1 accepted" // the difference is elo1 rather than elo0
)

// SPRT runs the sequential probability ratio test of H0: the Elo
// difference of A over B is elo0, against H1: it is elo1, with alpha the
// probability of accepting H1 when H0 holds and beta that of accepting H0
// when H1 holds (0.05 each is usual). It returns the log-likelihood ratio
// llr of the games so far, in the generalised (normal approximation) form
// of chess-engine testing (see the package comment), Wald's bounds lower
// and upper, and the verdict: AcceptH1 when llr >= upper, AcceptH0 when
// llr <= lower, Continue between them. With no games, or when every game
// ended the same way (the variance is 0), llr is 0 and the verdict
// Continue.
func (s Stats) SPRT(elo0, elo1, alpha, beta float64) (llr, lower, upper float64, verdict Verdict) {
	lower = math.Log(beta / (1 - alpha))
	upper = math.Log((1 - beta) / alpha)
	n := float64(s.Games())
	v := s.variance()
	if n == 0 || v == 0 {
		return 0, lower, upper, Continue
	}
	s0 := ExpectedScore(elo0)
	s1 := ExpectedScore(elo1)
	llr = n * (s1 - s0) * (2*s.Score() - s0 - s1) / (2 * v)
	switch {
	case llr >= upper:
		verdict = AcceptH1
	case llr <= lower:
		verdict = AcceptH0
	default:
		verdict = Continue
	}
	return llr, lower, upper, verdict
}

// FromScore returns the Elo difference at which a player's expected score
// is score (0 to 1): -400 log10(1/score - 1). It is 0 for 0.5, about +191
// for 0.75, -Inf for a score of 0 or less and +Inf for 1 or more.
func FromScore(score float64) float64 {
	if score <= 0 {
		return math.Inf(-1)
	}
	if score >= 1 {
		return math.Inf(1)
	}
	return -400 * math.Log10(1/score-1)
}

// ExpectedScore returns the score (0 to 1) expected of a player diff Elo
// stronger than its opponent: 1 / (1 + 10^(-diff/400)), the inverse of
// FromScore.
func ExpectedScore(diff float64) float64 {
	return 1 / (1 + math.Pow(10, -diff/400))
}

// Format writes an Elo difference with its sign and one decimal, like
// "+147.2" or "-12.0"; "+inf" and "-inf" for the infinities, "+0.0"
// for any difference that rounds to zero (never "-0.0"), and "+NaN" for
// NaN.
func Format(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	if math.Abs(x) < 0.05 {
		x = 0 // not "-0.0"
	}
	return fmt.Sprintf("%+.1f", x)
}
