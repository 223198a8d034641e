package elo

import (
	"math"
	"testing"
)

// The expected values below were not taken from this package. The round
// ones are worked out by hand in the comments; the others were computed
// from the formulas of the package comment with this Python 3 script,
// which takes the normal quantile from the standard library (1.95996398...,
// where the package rounds it to 1.959964; the difference is below 1e-4
// Elo) and the Elo of a score s as 400 log10(s/(1-s)), a different but
// equal form of the package's -400 log10(1/s - 1):
//
//	from math import log, log10, sqrt, inf
//	from statistics import NormalDist
//	z = NormalDist().inv_cdf(0.975)
//	def elo(s): return -inf if s <= 0 else inf if s >= 1 else 400*log10(s/(1-s))
//	def exp(d): return 1/(1+10**(-d/400))
//	def counts(w, d, l):  # the prior of one even game when all games ended alike
//	    n = w+d+l
//	    return (w+0.5, d, l+0.5) if n > 0 and n in (w, d, l) else (w, d, l)
//	def stats(w, d, l):
//	    n = w+d+l; m = (w+d/2)/n
//	    return n, m, (w*(1-m)**2 + d*(0.5-m)**2 + l*m**2)/n
//	def bisect(f, a, b):  # a root of f between a and b, where f changes sign
//	    fa = f(a)
//	    for _ in range(200):
//	        c = (a+b)/2; fc = f(c)
//	        if (fc > 0) == (fa > 0): a, fa = c, fc
//	        else: b = c
//	    return (a+b)/2
//	def interval(w, d, l):
//	    # the expected scores p not rejected at 5%, found by bisection (the
//	    # package solves the quadratic instead)
//	    n, m, v = stats(*counts(w, d, l)); dr = counts(w, d, l)[1]/n
//	    f = lambda p: (m-p)**2 - z*z*(p*(1-p) - dr/4)/n
//	    return elo(m), elo(bisect(f, 1e-15, m)), elo(bisect(f, m, 1-1e-15))
//	def sprt(w, d, l, e0, e1, a, b):
//	    n, m, v = stats(*counts(w, d, l)); s0, s1 = exp(e0), exp(e1)
//	    return n*(s1-s0)*(2*m-s0-s1)/(2*v), log(b/(1-a)), log((1-b)/a)

// same tells whether got is want within tol, the infinities and NaN
// matching only themselves.
func same(got, want, tol float64) bool {
	switch {
	case math.IsNaN(want):
		return math.IsNaN(got)
	case math.IsInf(want, 0):
		return got == want
	}
	return math.Abs(got-want) <= tol
}

var (
	inf = math.Inf(1)
	nan = math.NaN()
)

func TestScore(t *testing.T) {
	for _, c := range []struct {
		s        Stats
		games    int
		score    float64
		variance float64 // of one game's score
	}{
		{Stats{}, 0, 0.5, 0}, // no games: an even score, no variance
		{Stats{W: 5}, 5, 1, 0},
		{Stats{D: 4}, 4, 0.5, 0},
		{Stats{L: 3}, 3, 0, 0},
		{Stats{W: 1, L: 1}, 2, 0.5, 0.25},                // each game 1/2 away from the mean
		{Stats{W: 60, D: 20, L: 20}, 100, 0.7, 0.16},     // (60*0.09 + 20*0.04 + 20*0.49)/100
		{Stats{W: 3, D: 2, L: 5}, 10, 0.4, 0.19},         // (3*0.36 + 2*0.01 + 5*0.16)/10
		{Stats{W: 7, L: 3}, 10, 0.7, 0.21},               // (7*0.09 + 3*0.49)/10
		{Stats{D: 3, L: 7}, 10, 0.15, 0.0525},            // (3*0.1225 + 7*0.0225)/10
		{Stats{W: 200, D: 200, L: 600}, 1000, 0.3, 0.16}, // (200*0.49 + 200*0.04 + 600*0.09)/1000
		{Stats{W: 165, D: 90, L: 45}, 300, 0.7, 0.135},   // (165*0.09 + 90*0.04 + 45*0.49)/300
	} {
		if g := c.s.Games(); g != c.games {
			t.Errorf("%+v: %d games, want %d", c.s, g, c.games)
		}
		if got := c.s.Score(); !same(got, c.score, 1e-12) {
			t.Errorf("%+v: score %v, want %v", c.s, got, c.score)
		}
		if got := c.s.variance(); !same(got, c.variance, 1e-6) {
			t.Errorf("%+v: variance %v, want %v", c.s, got, c.variance)
		}
	}
}

func TestFromScore(t *testing.T) {
	for _, c := range []struct{ score, elo float64 }{
		{0.5, 0},                // an even match
		{0.75, 190.848502},      // 400 log10(3)
		{0.9, 381.697004},       // 400 log10(9)
		{0.25, -190.848502},     // symmetric
		{0.1, -381.697004},      //
		{0.7, 147.190714},       // 400 log10(7/3)
		{10.0 / 11, 400},        // 10^(400/400) = 10 to 1
		{0, -inf}, {-0.1, -inf}, // no score at all: infinitely weaker
		{1, inf}, {1.5, inf}, // a full score: infinitely stronger
		{0.999999, 2399.999826}, // 400 log10(999999)
	} {
		if got := FromScore(c.score); !same(got, c.elo, 1e-5) {
			t.Errorf("FromScore(%v) = %v, want %v", c.score, got, c.elo)
		}
	}
}

func TestExpectedScore(t *testing.T) {
	for _, c := range []struct{ elo, score float64 }{
		{0, 0.5},
		{10, 0.5143871842},  // 1/(1 + 10^-0.025)
		{400, 10.0 / 11},    // 1/(1 + 1/10)
		{-400, 1.0 / 11},    // 1/(1 + 10)
		{190.848502, 0.75},  // the Elo of 0.75 back
		{-381.697004, 0.1},  //
		{inf, 1}, {-inf, 0}, // the limits
		{1e6, 1}, {-1e6, 0}, // out of float64's range: rounded to the limits
		{-5, 0.4928049183},    // 1/(1 + 10^0.0125)
		{5, 1 - 0.4928049183}, // symmetric about 0.5
	} {
		if got := ExpectedScore(c.elo); !same(got, c.score, 1e-9) {
			t.Errorf("ExpectedScore(%v) = %v, want %v", c.elo, got, c.score)
		}
		if s := c.score; s > 0 && s < 1 && !same(FromScore(ExpectedScore(c.elo)), c.elo, 1e-6) {
			t.Errorf("FromScore(ExpectedScore(%v)) = %v", c.elo, FromScore(ExpectedScore(c.elo)))
		}
	}
}

func TestElo(t *testing.T) {
	for _, c := range []struct {
		s           Stats
		elo, lo, hi float64
	}{
		// Score 0.7: the interval leans toward 1/2 (the normal one was
		// 86.2 to 218.3, symmetric in score about 0.7).
		{Stats{W: 60, D: 20, L: 20}, 147.190714, 81.594392, 209.798273},
		{Stats{W: 7, L: 3}, 147.190714, -72.771728, 367.153157},
		{Stats{D: 3, L: 7}, -301.331067, -397.308089, -68.935804},
		{Stats{W: 2, D: 2, L: 6}, -147.190714, -318.846059, 51.388872},
		{Stats{W: 4, D: 4}, 190.848502, 3.494827, 278.880519},
		{Stats{W: 3, D: 2, L: 5}, -70.436504, -244.704989, 114.496589},
		{Stats{W: 10, D: 10, L: 10}, 0, -98.103442, 98.103442}, // symmetric about 0
		// Lopsided scores, whose normal interval ran past a score of 1
		// (+inf): finite.
		{Stats{W: 3, L: 1}, 190.848502, -146.660088, 528.357092},
		{Stats{W: 9, L: 1}, 381.697004, 67.437725, 695.956283},
		{Stats{W: 99, D: 1}, 919.541231, 534.914194, 1030.194621},
		{Stats{W: 1, L: 1}, 0, -392.519316, 392.519316},
		// Every game ended the same way: the prior of one even game gives
		// a finite difference and an interval of some width.
		{Stats{W: 1}, 190.848502, -243.148707, 624.845711}, // 1.5/2 = 0.75
		{Stats{W: 5}, 416.557074, 11.690094, 821.424055},   // 5.5/6
		{Stats{W: 10}, 528.887718, 129.789030, 927.986406},
		{Stats{W: 100}, 921.278423, 528.059681, 1314.497165},
		{Stats{L: 3}, -338.039216, -749.579993, 73.501561},
		{Stats{L: 10}, -528.887718, -927.986406, -129.789030}, // all wins, mirrored
		{Stats{D: 4}, 0, -105.549348, 105.549348},
		{Stats{D: 10}, 0, -53.719177, 53.719177},
		// No games: no interval.
		{Stats{}, 0, nan, nan},
	} {
		elo, lo, hi := c.s.Elo()
		if !same(elo, c.elo, 1e-3) || !same(lo, c.lo, 1e-3) || !same(hi, c.hi, 1e-3) {
			t.Errorf("%+v: elo %v (%v to %v), want %v (%v to %v)", c.s, elo, lo, hi, c.elo, c.lo, c.hi)
		}
		if c.s.Games() > 0 && (math.IsInf(elo, 0) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || !(lo <= elo && elo <= hi)) {
			t.Errorf("%+v: elo %v (%v to %v) is not finite and inside its interval", c.s, elo, lo, hi)
		}
	}
}

// TestIntervalProperties checks on every small match that the interval is
// finite, holds the mean score, and is the mirror image of the reversed
// match's.
func TestIntervalProperties(t *testing.T) {
	for w := range 12 {
		for d := range 12 {
			for l := range 12 {
				s := Stats{W: w, D: d, L: l}
				if s.Games() == 0 {
					continue
				}
				m, lo, hi := s.Interval()
				if !(0 < lo && lo <= m && m <= hi && hi < 1) {
					t.Fatalf("%+v: interval %v to %v around %v", s, lo, hi, m)
				}
				rm, rlo, rhi := Stats{W: l, D: d, L: w}.Interval()
				if !same(rm, 1-m, 1e-12) || !same(rlo, 1-hi, 1e-12) || !same(rhi, 1-lo, 1e-12) {
					t.Fatalf("%+v: %v (%v to %v); reversed %v (%v to %v)", s, m, lo, hi, rm, rlo, rhi)
				}
				// More games at the same result narrow the interval.
				_, lo2, hi2 := Stats{W: 4 * w, D: 4 * d, L: 4 * l}.Interval()
				if hi2-lo2 >= hi-lo {
					t.Fatalf("%+v: four times the games do not narrow %v to %v (got %v to %v)", s, lo, hi, lo2, hi2)
				}
			}
		}
	}
}

func TestSPRT(t *testing.T) {
	// The bounds at alpha = beta = 0.05: ln(0.05/0.95) and ln(0.95/0.05).
	const b5 = 2.944438979
	for _, c := range []struct {
		s                       Stats
		elo0, elo1, alpha, beta float64
		llr, lower, upper       float64
		verdict                 Verdict
	}{
		// s0 = 0.5, s1 = 1/(1+10^(-10/400)) = 0.5143872; LLR = 100 *
		// 0.0143872 * (1.4 - 1.0143872) / (2 * 0.16).
		{Stats{W: 60, D: 20, L: 20}, 0, 10, 0.05, 0.05, 1.733713312, -b5, b5, Continue},
		// Ten times the games at the same score and variance: ten times the LLR.
		{Stats{W: 600, D: 200, L: 200}, 0, 10, 0.05, 0.05, 17.33713312, -b5, b5, AcceptH1},
		{Stats{W: 200, D: 200, L: 600}, 0, 10, 0.05, 0.05, -18.63082730, -b5, b5, AcceptH0},
		// Other error rates: bounds ln(0.1/0.95) and ln(0.9/0.05).
		{Stats{W: 60, D: 20, L: 20}, 0, 10, 0.05, 0.1, 1.733713312, -2.251291799, 2.890371758, Continue},
		{Stats{W: 7, L: 3}, 0, 10, 0.05, 0.05, 0.1320924428, -b5, b5, Continue},
		{Stats{W: 2, D: 2, L: 6}, 0, 10, 0.05, 0.05, -0.1863082730, -b5, b5, Continue},
		{Stats{D: 3, L: 7}, -20, 20, 0.05, 0.05, -3.833408519, -b5, b5, AcceptH0},
		{Stats{W: 50, D: 30, L: 20}, -5, 5, 0.05, 0.05, 1.415425910, -b5, b5, Continue},
		// Just past the bounds either way.
		{Stats{W: 165, D: 90, L: 45}, 0, 5, 0.05, 0.05, 3.140292759, -b5, b5, AcceptH1},
		{Stats{W: 45, D: 90, L: 165}, 0, 5, 0.05, 0.05, -3.255335427, -b5, b5, AcceptH0},
		// No games give no evidence.
		{Stats{}, 0, 10, 0.05, 0.05, 0, -b5, b5, Continue},
		// Every game ended the same way: with the prior of one even game,
		// all wins are evidence for H1 and all losses for H0; all draws
		// (an even match) for H0 = 0 rather than H1 = 10, slowly at first.
		{Stats{W: 1}, 0, 10, 0.05, 0.05, 0.037261872, -b5, b5, Continue},
		{Stats{W: 5}, 0, 10, 0.05, 0.05, 0.462724196, -b5, b5, Continue},
		{Stats{W: 10}, 0, 10, 0.05, 0.05, 1.631713117, -b5, b5, Continue},
		{Stats{W: 50}, 0, 10, 0.05, 0.05, 36.506846111, -b5, b5, AcceptH1},
		{Stats{D: 50}, 0, 10, 0.05, 0.05, -1.076767537, -b5, b5, Continue},
		{Stats{D: 200}, 0, 10, 0.05, 0.05, -16.725292295, -b5, b5, AcceptH0},
		{Stats{L: 50}, 0, 10, 0.05, 0.05, -37.594274712, -b5, b5, AcceptH0},
	} {
		llr, lower, upper, verdict := c.s.SPRT(c.elo0, c.elo1, c.alpha, c.beta)
		if !same(llr, c.llr, 1e-6) || !same(lower, c.lower, 1e-6) || !same(upper, c.upper, 1e-6) || verdict != c.verdict {
			t.Errorf("%+v elo0=%v elo1=%v alpha=%v beta=%v: llr %v (bounds %v, %v) %q, want %v (%v, %v) %q",
				c.s, c.elo0, c.elo1, c.alpha, c.beta, llr, lower, upper, verdict, c.llr, c.lower, c.upper, c.verdict)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{0, "+0.0"},
		{math.Copysign(0, -1), "+0.0"}, // negative zero, as FromScore(0.5) is
		{-0.04, "+0.0"},                // rounds to zero: no "-0.0"
		{0.04, "+0.0"},
		{-0.06, "-0.1"},
		{0.06, "+0.1"},
		{147.190714, "+147.2"},
		{-301.331067, "-301.3"},
		{-12, "-12.0"},
		{2400, "+2400.0"},
		{inf, "+inf"},
		{-inf, "-inf"},
		{nan, "+NaN"},
	} {
		if got := Format(c.x); got != c.want {
			t.Errorf("Format(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}

// TestMatchStats checks the statistics on inputs worked out by hand (it
// was cmd/magneton's test of them before they moved here).
func TestMatchStats(t *testing.T) {
	near := func(a, b, tol float64) bool { return math.Abs(a-b) <= tol }
	// 60 wins, 20 draws, 20 losses: score 0.7, Elo -400 log10(1/0.7 - 1) = 147.2.
	s := Stats{W: 60, D: 20, L: 20}
	if !near(s.Score(), 0.7, 1e-12) {
		t.Errorf("score %v, want 0.7", s.Score())
	}
	// Per-game variance: (60*0.09 + 20*0.04 + 20*0.49)/100 = 0.16, draw
	// rate 0.2; with k = 1.96²/100 = 0.038415 the interval's ends are
	// (1.4 + k ∓ √(4k 0.16 + k² 0.8)) / (2 (1+k)) = (1.438415 ∓ 0.160519) /
	// 2.076830, 0.615311 and 0.769891: 81.6 and 209.8 Elo.
	if !near(s.variance(), 0.16, 1e-12) {
		t.Errorf("variance %v, want 0.16", s.variance())
	}
	elo, lo, hi := s.Elo()
	if !near(elo, 147.19, 0.01) || !near(lo, 81.6, 0.1) || !near(hi, 209.8, 0.1) {
		t.Errorf("elo %v (%v, %v), want 147.2 (81.6 to 209.8)", elo, lo, hi)
	}
	// An even match: 0 Elo.
	if e, _, _ := (Stats{W: 10, D: 10, L: 10}).Elo(); !near(e, 0, 1e-9) {
		t.Errorf("even match elo %v", e)
	}
	// All wins: finite, with the prior of one even game: 5.5/6.
	if e, _, _ := (Stats{W: 5}).Elo(); !near(e, FromScore(5.5/6), 1e-9) {
		t.Errorf("all wins elo %v, want %v", e, FromScore(5.5/6))
	}
	// SPRT: bounds ln(0.05/0.95) and ln(0.95/0.05).
	llr, lower, upper, verdict := s.SPRT(0, 10, 0.05, 0.05)
	if !near(lower, -2.944, 0.001) || !near(upper, 2.944, 0.001) {
		t.Errorf("bounds %v %v", lower, upper)
	}
	// s0 = 0.5, s1 = 1/(1+10^(-10/400)) = 0.514387; LLR = 100 * 0.014387 *
	// (1.4 - 1.014387) / (2 * 0.16) = 1.7337.
	if !near(llr, 1.7337, 0.001) || verdict != "continue" {
		t.Errorf("llr %v %s, want 1.7337 continue", llr, verdict)
	}
	big := Stats{W: 600, D: 200, L: 200}
	if _, _, _, v := big.SPRT(0, 10, 0.05, 0.05); v != "H1 accepted" {
		t.Errorf("1000 games at 70%%: %s", v)
	}
	bad := Stats{W: 200, D: 200, L: 600}
	if _, _, _, v := bad.SPRT(0, 10, 0.05, 0.05); v != "H0 accepted" {
		t.Errorf("1000 games at 30%%: %s", v)
	}
}

func TestProportion(t *testing.T) {
	tests := []struct {
		k, n      int
		p, lo, hi float64
	}{
		// Wilson's interval at 95%, computed by hand with z = 1.959964.
		{k: 0, n: 10, p: 0, lo: 0, hi: 0.2775},
		{k: 10, n: 10, p: 1, lo: 0.7225, hi: 1},
		{k: 50, n: 100, p: 0.5, lo: 0.4038, hi: 0.5962},
		{k: 285, n: 300, p: 0.95, lo: 0.9195, hi: 0.9694},
	}
	for _, tt := range tests {
		p, lo, hi := Proportion(tt.k, tt.n)
		if math.Abs(p-tt.p) > 1e-9 || math.Abs(lo-tt.lo) > 5e-4 || math.Abs(hi-tt.hi) > 5e-4 {
			t.Errorf("Proportion(%d, %d) = %.4f [%.4f, %.4f], want %.4f [%.4f, %.4f]", tt.k, tt.n, p, lo, hi, tt.p, tt.lo, tt.hi)
		}
	}
	if _, lo, hi := Proportion(0, 0); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("Proportion(0, 0): interval [%v, %v], want NaN", lo, hi)
	}
}
