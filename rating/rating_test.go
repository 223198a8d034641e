package rating_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/rating"
	"pgregory.net/rapid"
)

// opp returns an opponent's rating. Update does not use an opponent's
// volatility, but checks that it is one.
func opp(r, rd float64) rating.Rating {
	return rating.Rating{R: r, RD: rd, Vol: 0.06}
}

// fields prints r's fields: %v would print r.String, the rounded rating.
func fields(r rating.Rating) string {
	return fmt.Sprintf("{R:%v RD:%v Vol:%v}", r.R, r.RD, r.Vol)
}

// outOfBounds says how r breaks the bounds every rating Update returns
// must keep, or returns "" when it keeps them. NaN breaks every bound.
func outOfBounds(r rating.Rating) string {
	switch {
	case !(r.R >= rating.MinR && r.R <= rating.MaxR):
		return fmt.Sprintf("R = %v is outside [%v, %v]", r.R, rating.MinR, rating.MaxR)
	case !(r.RD >= rating.MinRD && r.RD <= rating.MaxRD):
		return fmt.Sprintf("RD = %v is outside [%v, %v]", r.RD, rating.MinRD, rating.MaxRD)
	case !(r.Vol >= rating.MinVol && r.Vol <= rating.MaxVol):
		return fmt.Sprintf("Vol = %v is outside [%v, %v]", r.Vol, rating.MinVol, rating.MaxVol)
	}
	return ""
}

// The worked example of the paper: a player at 1500, RD 200 and volatility
// 0.06 plays three opponents in one period with τ = 0.5.
var (
	paperPlayer  = rating.Rating{R: 1500, RD: 200, Vol: 0.06}
	paperParams  = rating.Params{Tau: 0.5}
	paperResults = []rating.Result{
		{Opponent: opp(1400, 30), Score: 1},
		{Opponent: opp(1550, 100), Score: 0},
		{Opponent: opp(1700, 300), Score: 0},
	}
)

func TestUpdatePaperExample(t *testing.T) {
	// The paper's results to its published precision. They are rounded
	// (its r' is 173.7178 μ' + 1500 with μ' already rounded to -0.2069);
	// at full precision the update gives 1464.0507, 151.5165 and
	// 0.0599960, inside the tolerances. The deviations are far above
	// MinRD, so the floor does not enter.
	const wantR, wantRD, wantVol = 1464.06, 151.52, 0.05999
	// The games of a period count as played at the same time, so their
	// order must not matter.
	tests := []struct {
		name    string
		results []rating.Result
	}{
		{"paper's order", paperResults},
		{"reversed", []rating.Result{paperResults[2], paperResults[1], paperResults[0]}},
		{"rotated", []rating.Result{paperResults[1], paperResults[2], paperResults[0]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := paperParams.Update(paperPlayer, tt.results)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got.R-wantR) >= 0.01 || math.Abs(got.RD-wantRD) >= 0.01 || math.Abs(got.Vol-wantVol) >= 0.00001 {
				t.Errorf("Update = %s, want R %v, RD %v, Vol %v", fields(got), wantR, wantRD, wantVol)
			}
		})
	}
}

func TestUpdateNoGames(t *testing.T) {
	// The RD wanted is step 6, sqrt(RD² + (173.7178 σ)²), worked out in
	// Python, within the bounds.
	tests := []struct {
		name   string
		player rating.Rating
		wantRD float64
	}{
		{"paper's player", rating.Rating{R: 1500, RD: 200, Vol: 0.06}, 200.271416699},
		{"established", rating.Rating{R: 1850, RD: 60, Vol: 0.05}, 60.625445855},
		{"volatile", rating.Rating{R: 1320, RD: 100, Vol: 0.09}, 101.214824901},
		{"below the floor", rating.Rating{R: 2100, RD: 30, Vol: 0.06}, rating.MinRD},
		{"near the cap", rating.Rating{R: 1500, RD: 340, Vol: 0.1}, 340.443503008},
		{"at the cap", rating.New(), rating.MaxRD},
	}
	for _, tt := range tests {
		for _, results := range [][]rating.Result{nil, {}} {
			got, err := rating.DefaultParams.Update(tt.player, results)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if got.R != tt.player.R || got.Vol != tt.player.Vol || math.Abs(got.RD-tt.wantRD) > 1e-6 {
				t.Errorf("%s: Update(%s, %#v) = %s, want R and Vol unchanged and RD %v",
					tt.name, fields(tt.player), results, fields(got), tt.wantRD)
			}
			if got.RD < tt.player.RD || got.RD == tt.player.RD && got.RD != rating.MaxRD {
				t.Errorf("%s: RD went from %v to %v without games, want it to grow (up to %v)",
					tt.name, tt.player.RD, got.RD, rating.MaxRD)
			}
		}
	}
}

func TestUpdateErrors(t *testing.T) {
	good := []rating.Result{{Opponent: opp(1500, 100), Score: 1}}
	tests := []struct {
		name    string
		params  rating.Params
		player  rating.Rating
		results []rating.Result
		want    string // in the error
	}{
		{"zero Params", rating.Params{}, rating.New(), good, "Params.Tau = 0 is outside"},
		{"NaN tau", rating.Params{Tau: math.NaN()}, rating.New(), good, "Params.Tau = NaN"},
		{"huge tau", rating.Params{Tau: 1e6}, rating.New(), nil, "Params.Tau = 1e+06"},
		{"zero Rating", rating.DefaultParams, rating.Rating{}, good, "player: Vol = 0: a volatility is positive"},
		{"zero Rating, no games", rating.DefaultParams, rating.Rating{}, nil, "player: Vol = 0"},
		{"NaN rating", rating.DefaultParams, rating.Rating{R: math.NaN(), RD: 50, Vol: 0.06}, good, "player: R = NaN is not a finite number"},
		{"infinite deviation", rating.DefaultParams, rating.Rating{R: 1500, RD: math.Inf(1), Vol: 0.06}, good, "player: RD = +Inf"},
		{"negative deviation", rating.DefaultParams, rating.Rating{R: 1500, RD: -1, Vol: 0.06}, good, "player: RD = -1: a deviation cannot be negative"},
		{"negative volatility", rating.DefaultParams, rating.Rating{R: 1500, RD: 50, Vol: -0.06}, good, "player: Vol = -0.06"},
		{"infinite volatility", rating.DefaultParams, rating.Rating{R: 1500, RD: 50, Vol: math.Inf(-1)}, good, "player: Vol = -Inf"},
		{"score above 1", rating.DefaultParams, rating.New(), []rating.Result{good[0], {Opponent: opp(1500, 50), Score: 1.5}}, "results[1].Score = 1.5: a score is between 0 (loss) and 1 (win)"},
		{"negative score", rating.DefaultParams, rating.New(), []rating.Result{{Opponent: opp(1500, 50), Score: -0.5}}, "results[0].Score = -0.5"},
		{"NaN score", rating.DefaultParams, rating.New(), []rating.Result{good[0], good[0], {Opponent: opp(1500, 50), Score: math.NaN()}}, "results[2].Score = NaN"},
		{"zero opponent", rating.DefaultParams, rating.New(), []rating.Result{{Score: 1}}, "results[0].Opponent: Vol = 0"},
		{"NaN opponent", rating.DefaultParams, rating.New(), []rating.Result{good[0], {Opponent: opp(math.NaN(), 50), Score: 0}}, "results[1].Opponent: R = NaN"},
		{"negative opponent deviation", rating.DefaultParams, rating.New(), []rating.Result{{Opponent: opp(1500, -50), Score: 0}}, "results[0].Opponent: RD = -50"},
	}
	for _, tt := range tests {
		got, err := tt.params.Update(tt.player, tt.results)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "rating: ") {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
		if fields(got) != fields(tt.player) { // as text, so that NaN matches NaN
			t.Errorf("%s: Update returned %s with its error, want the player unchanged, %s", tt.name, fields(got), fields(tt.player))
		}
	}
}

func TestExpected(t *testing.T) {
	// The E values are the paper's, to its three decimals.
	tests := []struct {
		name string
		a, b rating.Rating
		want float64
		tol  float64
	}{
		{"new players", rating.New(), rating.New(), 0.5, 0},
		{"equal R, different RD", rating.Rating{R: 1500, RD: 50, Vol: 0.06}, rating.New(), 0.5, 0},
		{"equal R, strong", rating.Rating{R: 2400, RD: 45, Vol: 0.05}, rating.Rating{R: 2400, RD: 200, Vol: 0.08}, 0.5, 0},
		{"paper, opponent 1", paperPlayer, paperResults[0].Opponent, 0.639, 0.0005},
		{"paper, opponent 2", paperPlayer, paperResults[1].Opponent, 0.432, 0.0005},
		{"paper, opponent 3", paperPlayer, paperResults[2].Opponent, 0.303, 0.0005},
		// 400 points with a certain opponent are odds of ten to one.
		{"400 points", opp(1900, 0), opp(1500, 0), 10.0 / 11, 1e-6},
	}
	for _, tt := range tests {
		if got := rating.Expected(tt.a, tt.b); math.Abs(got-tt.want) > tt.tol {
			t.Errorf("%s: Expected(%s, %s) = %v, want %v", tt.name, fields(tt.a), fields(tt.b), got, tt.want)
		}
	}
}

func TestProvisionalAndString(t *testing.T) {
	tests := []struct {
		r           rating.Rating
		provisional bool
		s           string
	}{
		{rating.New(), true, "1500?"},
		{rating.Rating{R: 1623.4, RD: 60, Vol: 0.06}, false, "1623"},
		{rating.Rating{R: 1622.5, RD: 110, Vol: 0.06}, false, "1623"},
		{rating.Rating{R: 1622.49, RD: 110.01, Vol: 0.06}, true, "1622?"},
		{rating.Rating{R: 400, RD: 45, Vol: 0.06}, false, "400"},
		{rating.Rating{R: 3999.7, RD: 45, Vol: 0.06}, false, "4000"},
		{rating.Rating{R: -0.3, RD: 45, Vol: 0.06}, false, "0"}, // not "-0"
	}
	for _, tt := range tests {
		if got := tt.r.Provisional(); got != tt.provisional {
			t.Errorf("%s.Provisional() = %v, want %v", fields(tt.r), got, tt.provisional)
		}
		if got := tt.r.String(); got != tt.s {
			t.Errorf("%s.String() = %q, want %q", fields(tt.r), got, tt.s)
		}
	}
}

// anyRating draws a rating of any finite values Update accepts, mostly
// realistic ones.
func anyRating(t *rapid.T, label string) rating.Rating {
	return rating.Rating{
		R:   rapid.OneOf(rapid.Float64Range(rating.MinR, rating.MaxR), rapid.Float64()).Draw(t, label+".R"),
		RD:  rapid.OneOf(rapid.Float64Range(0, rating.MaxRD), rapid.Float64Min(0)).Draw(t, label+".RD"),
		Vol: rapid.OneOf(rapid.Float64Range(rating.MinVol, rating.MaxVol), rapid.Float64Min(math.SmallestNonzeroFloat64)).Draw(t, label+".Vol"),
	}
}

// boundedRating draws a rating within the bounds, which Update takes as it
// is (a deviation below MinRD included).
func boundedRating(t *rapid.T, label string) rating.Rating {
	return rating.Rating{
		R:   rapid.Float64Range(rating.MinR, rating.MaxR).Draw(t, label+".R"),
		RD:  rapid.Float64Range(0, rating.MaxRD).Draw(t, label+".RD"),
		Vol: rapid.Float64Range(rating.MinVol, rating.MaxVol).Draw(t, label+".Vol"),
	}
}

func TestUpdateBoundedProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := rating.Params{Tau: rapid.OneOf(rapid.Just(rating.DefaultParams.Tau), rapid.Float64Range(0.01, 10)).Draw(t, "tau")}
		player := anyRating(t, "player")
		n := rapid.IntRange(0, 20).Draw(t, "games")
		results := make([]rating.Result, n)
		for i := range results {
			results[i] = rating.Result{
				Opponent: anyRating(t, fmt.Sprintf("opponent%d", i)),
				Score:    rapid.OneOf(rapid.SampledFrom([]float64{0, 0.5, 1}), rapid.Float64Range(0, 1)).Draw(t, fmt.Sprintf("score%d", i)),
			}
		}
		got, err := p.Update(player, results)
		if err != nil {
			t.Fatal(err)
		}
		if msg := outOfBounds(got); msg != "" {
			t.Fatalf("Update = %s: %s", fields(got), msg)
		}
	})
}

func TestUpdateOneGameProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		player := boundedRating(t, "player")
		opponent := anyRating(t, "opponent")
		win, err := rating.DefaultParams.Update(player, []rating.Result{{Opponent: opponent, Score: 1}})
		if err != nil {
			t.Fatal(err)
		}
		if win.R < player.R {
			t.Fatalf("a win took R from %v to %v", player.R, win.R)
		}
		loss, err := rating.DefaultParams.Update(player, []rating.Result{{Opponent: opponent, Score: 0}})
		if err != nil {
			t.Fatal(err)
		}
		if loss.R > player.R {
			t.Fatalf("a loss took R from %v to %v", player.R, loss.R)
		}
		draw, err := rating.DefaultParams.Update(player, []rating.Result{{Opponent: player, Score: 0.5}})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(draw.R-player.R) > 1e-9 {
			t.Fatalf("a draw against an identical opponent took R from %v to %v", player.R, draw.R)
		}
	})
}

func TestExpectedProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b := boundedRating(t, "a"), boundedRating(t, "b")
		b.RD = a.RD // with the same uncertainty, the two expectations add up to one game
		ab, ba := rating.Expected(a, b), rating.Expected(b, a)
		if !(ab >= 0 && ab <= 1) || math.Abs(ab+ba-1) > 1e-12 {
			t.Fatalf("Expected(a, b) = %v and Expected(b, a) = %v, want two scores adding up to 1", ab, ba)
		}
		if a.R > b.R && ab < 0.5 || a.R < b.R && ab > 0.5 {
			t.Fatalf("Expected(a, b) = %v for R %v against %v", ab, a.R, b.R)
		}
	})
}

func TestUpdateDoesNotAllocate(t *testing.T) {
	results := []rating.Result{{Opponent: opp(1600, 80), Score: 1}}
	if n := testing.AllocsPerRun(100, func() {
		if _, err := rating.DefaultParams.Update(rating.New(), results); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Update allocates %v times per game, want 0", n)
	}
}

func FuzzUpdate(f *testing.F) {
	f.Add(1500.0, 200.0, 0.06, 1400.0, 30.0, 1.0)
	f.Add(400.0, 45.0, 0.06, 4000.0, 0.0, 1.0)
	f.Add(4000.0, 0.0, 0.1, 400.0, 350.0, 0.0)
	f.Add(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(1e308, 1e308, 1e308, -1e308, 1e308, 0.5)
	f.Add(-1e308, 5e-324, 5e-324, 1e308, 5e-324, 0.5)
	f.Add(1500.0, 350.0, 0.06, 1500.0, -1.0, 2.0)
	f.Fuzz(func(t *testing.T, r, rd, vol, oppR, oppRD, score float64) {
		player := rating.Rating{R: r, RD: rd, Vol: vol}
		opponent := rating.Rating{R: oppR, RD: oppRD, Vol: 0.06}
		finite := true
		for _, x := range []float64{r, rd, vol, oppR, oppRD, score} {
			finite = finite && !math.IsNaN(x) && !math.IsInf(x, 0)
		}
		valid := finite && rd >= 0 && vol > 0 && oppRD >= 0 && score >= 0 && score <= 1

		got, err := rating.DefaultParams.Update(player, []rating.Result{{Opponent: opponent, Score: score}})
		if !valid {
			if err == nil {
				t.Fatalf("Update(%s, %s, %v) = %s, want an error", fields(player), fields(opponent), score, fields(got))
			}
			return
		}
		if err != nil {
			t.Fatalf("Update(%s, %s, %v): %v", fields(player), fields(opponent), score, err)
		}
		if msg := outOfBounds(got); msg != "" {
			t.Fatalf("Update(%s, %s, %v) = %s: %s", fields(player), fields(opponent), score, fields(got), msg)
		}
		idle, err := rating.DefaultParams.Update(player, nil)
		if err != nil {
			t.Fatalf("Update(%s, nil): %v", fields(player), err)
		}
		if msg := outOfBounds(idle); msg != "" {
			t.Fatalf("Update(%s, nil) = %s: %s", fields(player), fields(idle), msg)
		}
	})
}

func BenchmarkUpdate(b *testing.B) {
	player := rating.New()
	results := []rating.Result{{Opponent: opp(1600, 80), Score: 1}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rating.DefaultParams.Update(player, results); err != nil {
			b.Fatal(err)
		}
	}
}

// One game between two new players, each its own rating period: both
// updates take the ratings from before the game.
func ExampleParams_Update() {
	alice, bob := rating.New(), rating.New()
	a, err := rating.DefaultParams.Update(alice, []rating.Result{{Opponent: bob, Score: 1}})
	if err != nil {
		panic(err)
	}
	b, err := rating.DefaultParams.Update(bob, []rating.Result{{Opponent: alice, Score: 0}})
	if err != nil {
		panic(err)
	}
	fmt.Printf("alice %v (RD %.0f), bob %v (RD %.0f)\n", a, a.RD, b, b.RD)
	// Output: alice 1662? (RD 290), bob 1338? (RD 290)
}
