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
// +382 Elo 90%. A score of 0 or 1 is -∞ or +∞ Elo, which is why the
// statistics of a match below never rest on such a score.
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
// for n = W+D+L games with mean score m and draw rate d = D/n; it equals
// m(1-m) - d/4. The usual interval m ± 1.96 √(v/n) (the normal
// approximation of the mean score; 1.96 is the 97.5% quantile of the
// standard normal distribution) fails for lopsided scores: its ends run
// past 0 and 1, which are infinite Elo, and it has no width at all when
// every game ended the same way. [Stats.Elo] uses instead the Wilson score
// interval, extended to draws: the expected scores p that the match does
// not reject at the 5% level, those with
//
//	(m - p)² <= z² σ²(p) / n,   σ²(p) = p(1-p) - d/4
//
// where σ²(p) is the variance of one game's score for a player whose
// expected score is p at the match's draw rate. Its ends are the roots of
// a quadratic, with k = z²/n:
//
//	p = (2m + k ∓ √(4k v + k² (1-d))) / (2 (1+k))
//
// which lie strictly between 0 and 1 whenever v > 0, so the interval is
// finite in Elo; without draws it is Wilson's interval for a proportion.
// Unlike the normal interval it is not symmetric about m: it leans toward
// 1/2, where a short match's lopsided score most likely came from.
//
// When every game ended the same way (all wins, all draws or all losses)
// v is 0 and the score may be 0 or 1: the match then says nothing of how
// much stronger one side is, and the statistics add a prior of one even
// game, half a win and half a loss, to the counts (as some chess tools
// add half a point to each side for a score of 0 or 100%). Ten wins
// out of ten are then a score of 10.5/11, +528.9 Elo (95%: +129.8 to
// +928.0), and ten draws 0 Elo (95%: -53.7 to +53.7). Other results are
// taken as they are.
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
// which is what [Stats.SPRT] computes, on the counts with the prior of
// one even game when every game ended the same way (v would be 0, and the
// LLR 0/0), as for the interval: ten wins out of ten are evidence for the
// stronger hypothesis, ten draws for the weaker when it is nearer an even
// match.
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

// counts returns the wins, draws and losses the statistics rest on: the
// match's own, or, when every game ended the same way, those with a prior
// of one even game added, half a win and half a loss (see the package
// comment). With no games they are all 0.
func (s Stats) counts() (w, d, l float64) {
	w, d, l = float64(s.W), float64(s.D), float64(s.L)
	n := s.Games()
	if n > 0 && (s.W == n || s.D == n || s.L == n) {
		w, l = w+0.5, l+0.5
	}
	return w, d, l
}

// moments returns the number of games n, the mean score m, the draw rate
// d and the variance v of one game's score of the counts w, d, l; all 0
// (and m 0.5) with no games.
func moments(w, dr, l float64) (n, m, d, v float64) {
	n = w + dr + l
	if n == 0 {
		return 0, 0.5, 0, 0
	}
	m = (w + dr/2) / n
	d = dr / n
	v = (w*(1-m)*(1-m) + dr*(0.5-m)*(0.5-m) + l*m*m) / n
	return n, m, d, v
}

// variance returns the variance of one game's score in the match itself,
// without the prior (see the package comment); 0 with no games.
func (s Stats) variance() float64 {
	_, _, _, v := moments(float64(s.W), float64(s.D), float64(s.L))
	return v
}

// Interval returns the ends lo and hi (0 < lo <= hi < 1) of the 95% score
// interval of A's expected score, and the mean score m it is built
// around: the Wilson score interval extended to draws, on the counts with
// the prior of one even game when every game ended the same way (see the
// package comment). With no games m is 0.5 and lo and hi are NaN.
func (s Stats) Interval() (m, lo, hi float64) {
	n, m, d, v := moments(s.counts())
	if n == 0 {
		return 0.5, math.NaN(), math.NaN()
	}
	k := z95 * z95 / n
	root := math.Sqrt(4*k*v + k*k*(1-d))
	lo = (2*m + k - root) / (2 * (1 + k))
	hi = (2*m + k + root) / (2 * (1 + k))
	return m, min(lo, m), max(hi, m)
}

// Elo returns the Elo difference of A over B and the ends lo and hi of its
// 95% confidence interval: FromScore of the ends of Interval and of the
// mean score they are built around, which is the match's Score unless
// every game ended the same way (see the package comment). A positive
// difference means A is the stronger. All three are finite for any match
// with games; with no games elo is 0 and lo and hi are NaN.
func (s Stats) Elo() (elo, lo, hi float64) {
	m, l, h := s.Interval()
	return FromScore(m), FromScore(l), FromScore(h)
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
// llr <= lower, Continue between them. When every game ended the same way
// the counts have the prior of one even game added, as for Elo, so that
// all wins are evidence for H1 (llr > 0); with no games llr is 0 and the
// verdict Continue. Checked after each game, the test stops a match as
// soon as the verdict is not Continue.
func (s Stats) SPRT(elo0, elo1, alpha, beta float64) (llr, lower, upper float64, verdict Verdict) {
	lower = math.Log(beta / (1 - alpha))
	upper = math.Log((1 - beta) / alpha)
	n, m, _, v := moments(s.counts())
	if n == 0 || v == 0 {
		return 0, lower, upper, Continue
	}
	s0 := ExpectedScore(elo0)
	s1 := ExpectedScore(elo1)
	llr = n * (s1 - s0) * (2*m - s0 - s1) / (2 * v)
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

// Proportion returns the share p = k/n of successes in n trials and the
// ends lo and hi of its 95% Wilson score interval, which stays inside
// [0, 1] and is not empty at k = 0 or k = n (the suite's scores: how often
// a player kept a proven result). With no trials p is 0 and lo and hi are
// NaN.
func Proportion(k, n int) (p, lo, hi float64) {
	if n <= 0 {
		return 0, math.NaN(), math.NaN()
	}
	p = float64(k) / float64(n)
	z2 := z95 * z95
	nf := float64(n)
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z95 / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return p, max(0, centre-half), min(1, centre+half)
}
