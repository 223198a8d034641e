package rating

import (
	"fmt"
	"math"
	"strconv"
)

// Rating is a player's Glicko-2 rating on the Glicko scale, the one players
// see (the paper's step 2 converts it to the Glicko-2 scale for the
// computation, step 8 back).
//
// The zero Rating is not a rating: its volatility is 0, and Update rejects
// it so that a rating that was never loaded does not pass for a 0-rated
// certainty. Start new players at [New].
type Rating struct {
	// R is the rating: 1500 for a newcomer, higher for a stronger player.
	R float64
	// RD is the rating deviation, how uncertain R is: the player's strength
	// is within R ± 2RD with about 95% confidence.
	RD float64
	// Vol is the volatility σ, how erratic the player's results are; it
	// sets how fast RD grows back in a rating period without games.
	Vol float64
}

// New returns the rating of a player without games, as step 1 of the
// paper sets it: 1500, with the largest deviation, 350, since nothing is
// known of the player yet, and a volatility of 0.06.
func New() Rating {
	return Rating{R: 1500, RD: MaxRD, Vol: 0.06}
}

// Result is one game of a rating period, seen from the player being
// updated.
type Result struct {
	// Opponent is the opponent's rating at the start of the period, before
	// the game. Its Vol does not enter the computation but must be a
	// volatility, as for any Rating passed to Update.
	Opponent Rating
	// Score is the player's result: 1 for a win, 0.5 for a draw, 0 for a
	// loss. Values in between are accepted for games scored in fractions.
	Score float64
}

// Params holds the system constant of Glicko-2.
type Params struct {
	// Tau (τ) limits how much the volatility can change in one rating
	// period: a small τ keeps improbable results from raising the
	// volatility, and with it the size of later rating changes, by much.
	// The paper suggests 0.3 to 1.2 (and as low as 0.2 where extremely
	// improbable results are expected). Update rejects a Tau outside
	// [0.01, 10], limits far beyond any useful value: they keep step 5,
	// which divides by τ², numerically sound, and they make the zero
	// Params an error rather than a silent τ of 0.
	Tau float64
}

// DefaultParams are the parameters to use unless a site has tested
// others: τ = 0.75, as on lichess, inside the 0.3 to 1.2 the paper
// suggests.
var DefaultParams = Params{Tau: 0.75}

// The bounds on a rating. The paper has none, but a live site needs them.
const (
	// MaxRD is the deviation of a player of whom nothing is known, the
	// paper's value for a new player. Step 6 grows the deviation of an
	// absent player without limit; beyond 350 it would say less than
	// knowing nothing, so it stops here.
	MaxRD = 350.0
	// MinRD is the floor of the deviation. Without it the deviation of a
	// regular player shrinks toward zero and the rating stops moving, even
	// when the player improves; lichess floors it at 45, and so does this
	// package.
	MinRD = 45.0
	// MinR and MaxR bound the rating, as lichess does (400 to 4000). A long
	// run of extremely improbable results can push a Glicko rating without
	// limit; the clamp keeps one such sequence from running away with the
	// scale, and no real player is near either end.
	MinR = 400.0
	MaxR = 4000.0
	// MaxVol caps the volatility at lichess's 0.1. The volatility feeds the
	// deviation, which feeds the size of every later change: past about
	// 0.1 a rating can swing so far on each game that it never settles
	// again. The cap applies to the volatility step 5 computes before it
	// is used in steps 6 and 7.
	MaxVol = 0.1
	// MinVol is a numerical floor, far below any volatility a real history
	// produces (each expected result lowers the volatility by less, the
	// lower it is): it keeps ln σ², where step 5 starts, finite.
	MinVol = 1e-4
)

const (
	// scale converts between the Glicko and Glicko-2 scales (step 2): it
	// is 400/ln 10, which makes the two logistic curves the same.
	scale = 173.7178
	// epsilon is the convergence tolerance of step 5, the paper's.
	epsilon = 1e-6
	// maxIterations stops step 5 should it ever fail to converge, which
	// the Illinois algorithm does not do on a bracketed root: it takes a
	// few iterations at the usual τ and about 30 at worst (τ = 10, a
	// sweeping upset).
	maxIterations = 100
	// The range of Params.Tau that Update accepts.
	minTau, maxTau = 0.01, 10
)

// Provisional tells whether the rating is still too uncertain to show as
// established: lichess shows "?" after a rating while its deviation is
// above 110, which a newcomer comes down to in about ten games. (lichess
// counts a deviation of exactly 110 as provisional; here it is the first
// established one.)
func (r Rating) Provisional() bool {
	return r.RD > 110
}

// String returns the rating as players see it: R rounded to an integer,
// with a "?" after it while the rating is provisional, as "1500?" or
// "1623". It leaves out RD and Vol, which mean little to players.
func (r Rating) String() string {
	// Adding 0 turns the -0 that Round returns for -0.5 < R < 0 into 0.
	s := strconv.FormatFloat(math.Round(r.R)+0, 'f', 0, 64)
	if r.Provisional() {
		s += "?"
	}
	return s
}

// Expected returns the score a is expected to make against b, from 0 to 1,
// as Update predicts it: the paper's E on the Glicko-2 scale. Only b's
// deviation enters, as in the paper: the less is known of b, the closer
// the prediction is to an even game. Equal ratings expect 0.5. R and RD are
// taken within the bounds, as Update takes them; Expected does not check
// its input otherwise, and a NaN gives NaN.
func Expected(a, b Rating) float64 {
	a, b = inside(a), inside(b)
	e, _ := expect(g(b.RD/scale) * (a.R - b.R) / scale)
	return e
}

// Update returns the rating r has after one rating period with the given
// results, following steps 2 to 8 of the paper, bounded as the package
// documentation says. Results are taken as played at the same time
// against the opponents' ratings from before the period; with no results
// only the deviation grows (step 6), so that an absent player's rating
// becomes uncertain again.
//
// Update returns an error, and r unchanged, when the input is not ratings
// and scores at all: a NaN or infinite field, a negative deviation, a
// volatility of zero or less (as in the zero Rating), a score outside
// [0, 1], or a Tau outside [0.01, 10]. The error names the offending field.
// Any other finite input gives a finite rating within the bounds. Update
// does not allocate, except for the error.
func (p Params) Update(r Rating, results []Result) (Rating, error) {
	if !(p.Tau >= minTau && p.Tau <= maxTau) {
		return r, fmt.Errorf("rating: Params.Tau = %v is outside [%v, %v] (DefaultParams has %v)",
			p.Tau, minTau, maxTau, DefaultParams.Tau)
	}
	if err := check(r); err != "" {
		return r, fmt.Errorf("rating: player: %s", err)
	}
	// Step 2: the player on the Glicko-2 scale, μ = (R-1500)/scale and
	// φ = RD/scale. Only differences of μ enter below, so μ is kept as R.
	p0 := inside(r)
	phi2 := (p0.RD / scale) * (p0.RD / scale)
	sigma := p0.Vol

	if len(results) == 0 {
		// Step 6 alone: a period without games leaves R and σ as they
		// are and grows φ to φ* = sqrt(φ² + σ²).
		return bound(Rating{R: p0.R, RD: scale * math.Sqrt(phi2+sigma*sigma), Vol: sigma}), nil
	}

	// Steps 3 and 4: info = Σ g(φj)² E (1-E) is 1/v, and
	// gain = Σ g(φj) (sj - E) is Δ/v.
	var info, gain float64
	for i, res := range results {
		if err := check(res.Opponent); err != "" {
			return r, fmt.Errorf("rating: results[%d].Opponent: %s", i, err)
		}
		if !(res.Score >= 0 && res.Score <= 1) {
			return r, fmt.Errorf("rating: results[%d].Score = %v: a score is between 0 (loss) and 1 (win)", i, res.Score)
		}
		o := inside(res.Opponent)
		gj := g(o.RD / scale)
		e, ee := expect(gj * (p0.R - o.R) / scale)
		info += gj * gj * ee
		gain += gj * (res.Score - e)
	}
	// info is positive: within the bounds g(φj) > 0.66 and E (1-E) > 1e-10.
	v := 1 / info
	delta := v * gain

	// Step 5: the new volatility σ'.
	sigma = clamp(p.volatility(phi2, v, delta*delta, sigma), MinVol, MaxVol)

	// Steps 6 and 7: φ* = sqrt(φ² + σ'²), φ' = 1/sqrt(1/φ*² + 1/v) and
	// μ' = μ + φ'² Σ g(φj)(sj - E). Step 8 converts back:
	// r' = scale μ' + 1500, which is R + scale φ'² gain; in that form a win
	// can never lower R by a rounding error.
	phiNew := 1 / math.Sqrt(1/(phi2+sigma*sigma)+info)
	return bound(Rating{
		R:   p0.R + scale*phiNew*phiNew*gain,
		RD:  scale * phiNew,
		Vol: sigma,
	}), nil
}

// volatility is step 5 of the paper: it returns σ', exp(x/2) for the root
// x of
//
//	f(x) = e^x (Δ² - φ² - v - e^x) / (2 (φ² + v + e^x)²) - (x - a) / τ²
//
// where a = ln σ², found with the Illinois algorithm (a regula falsi that
// halves the weight of an end point kept twice, so that it converges fast
// where plain regula falsi stalls).
func (p Params) volatility(phi2, v, delta2, sigma float64) float64 {
	tau2 := p.Tau * p.Tau
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi2 + v + ex
		return ex*(delta2-phi2-v-ex)/(2*d*d) - (x-a)/tau2
	}

	// 5.2: the starting bracket [A, B], or [B, A].
	A := a
	var B float64
	if delta2 > phi2+v {
		B = math.Log(delta2 - phi2 - v)
	} else {
		// The first term of f is at least -1/2 here, so f(a - kτ) >= k/τ
		// - 1/2 and k stops by τ/2 + 1.
		k := 1.0
		for f(a-k*p.Tau) < 0 {
			k++
		}
		B = a - k*p.Tau
	}

	// 5.3 and 5.4. The 2013 paper swaps the ends when f_C f_B < 0; this
	// swaps when f_C f_B <= 0, as other printings of the algorithm do:
	// with <, a C that hits the root exactly would leave A in place for
	// good and the loop would not end. Otherwise the two agree.
	fA, fB := f(A), f(B)
	for i := 0; i < maxIterations && math.Abs(B-A) > epsilon; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	// 5.5.
	return math.Exp(A / 2)
}

// g is the paper's g(φ): it weighs down a game against an opponent whose
// rating is uncertain, from 1 for a certain rating toward 0.
func g(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// expect returns the paper's E = 1/(1 + exp(-x)) for x = g(φj)(μ - μj),
// and E(1-E), computed as E² exp(-x) so that it keeps its precision where
// E is close to 1.
func expect(x float64) (e, variance float64) {
	t := math.Exp(-x)
	e = 1 / (1 + t)
	return e, e * e * t
}

// check returns what makes r no rating at all, or "" when r is one.
func check(r Rating) string {
	switch {
	case math.IsNaN(r.R) || math.IsInf(r.R, 0):
		return fmt.Sprintf("R = %v is not a finite number", r.R)
	case math.IsNaN(r.RD) || math.IsInf(r.RD, 0):
		return fmt.Sprintf("RD = %v is not a finite number", r.RD)
	case r.RD < 0:
		return fmt.Sprintf("RD = %v: a deviation cannot be negative", r.RD)
	case math.IsNaN(r.Vol) || math.IsInf(r.Vol, 0):
		return fmt.Sprintf("Vol = %v is not a finite number", r.Vol)
	case r.Vol <= 0:
		return fmt.Sprintf("Vol = %v: a volatility is positive (the zero Rating is not a rating; start players at New())", r.Vol)
	}
	return ""
}

// inside takes a rating passed in within the bounds, so that the
// computation cannot overflow. A deviation below MinRD is kept: it is a
// legitimate, very certain rating (the paper's example has an opponent at
// 30), and only the deviations Update returns are floored.
func inside(r Rating) Rating {
	return Rating{
		R:   clamp(r.R, MinR, MaxR),
		RD:  math.Min(r.RD, MaxRD),
		Vol: clamp(r.Vol, MinVol, MaxVol),
	}
}

// bound applies the bounds to a rating Update returns.
func bound(r Rating) Rating {
	return Rating{
		R:   clamp(r.R, MinR, MaxR),
		RD:  clamp(r.RD, MinRD, MaxRD),
		Vol: clamp(r.Vol, MinVol, MaxVol),
	}
}

func clamp(x, lo, hi float64) float64 {
	return math.Max(lo, math.Min(x, hi))
}
