// Command tune fits the weights of a game's evaluation to the results of
// self-play games (the "Texel" method): it plays games between computer
// players from random openings, keeps every position after the opening in
// which the side to move cannot win at once, and fits a logistic model
//
//	P(side to move wins) = 1 / (1 + exp(-sum(w_i * f_i) / 200))
//
// to the games' results (1 win, 0.5 draw, 0 loss) by gradient descent on
// the cross entropy (with --last N, only the positions of each game's last
// N plies), where f_i are the evaluation's features (the game's
// ai.Profile Evaluation). The scale 200 is the one MCTS
// uses to turn an evaluation into a win probability. It prints the fitted
// weights as the Go array to paste into the game's evaluation, in its AI
// package beside its rules (magneton/magnetonai/eval.go,
// tumbling/tumblingai/eval.go).
//
// With --pgn it fits the games of record files instead, such as those of
// a match between two different players (`magneton match --pgn`), whose
// decisive games show how the stronger one wins.
//
// Usage:
//
//	go run ./tools/tune --game magneton --games 600 --player level:4
//	go run ./tools/tune --game magneton --pgn a.pgn,b.pgn --last 12
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/record"
)

const scale = 200.0

type sample struct {
	f []float64
	y float64 // result for the side to move
}

// options are tune's flags.
type options struct {
	game       string // the game, by any of its names
	games      int    // self-play games
	player     string // the player of the self-play games
	openings   int    // random plies at the start of each game
	maxPlies   int    // plies after which a game is a draw
	iterations int    // gradient descent steps
	seed       uint64
	only       string // the features to fit (--fit), comma-separated
	last       int    // the plies at each game's end whose positions to keep
	pgn        string // record files to fit, comma-separated
	verify     int    // games of the fitted weights against the current ones
}

// parseFlags reads the flags.
func parseFlags() options {
	var o options
	flag.StringVar(&o.game, "game", "magneton", "the game, by any of its names")
	flag.IntVar(&o.games, "games", 400, "self-play games")
	flag.StringVar(&o.player, "player", "level:4", "player of the self-play games")
	flag.IntVar(&o.openings, "openings", 6, "random plies at the start of each game")
	flag.IntVar(&o.maxPlies, "max-plies", 300, "plies after which a game is a draw")
	flag.IntVar(&o.iterations, "iterations", 3000, "gradient descent steps")
	flag.Uint64Var(&o.seed, "seed", 1, "random seed")
	flag.StringVar(&o.only, "fit", "", "comma-separated features to fit, the others keeping their current weights (default: all, from zero)")
	flag.IntVar(&o.last, "last", 0, "keep only the positions of each game's last N plies (0: all), so that the fit sees what comes just before a win")
	flag.StringVar(&o.pgn, "pgn", "", "comma-separated PGN files (as match --pgn writes them) whose games to fit, instead of self-play games (or beside them, when --games is given too)")
	flag.IntVar(&o.verify, "verify", 0, "after fitting, play this many games between --player with the fitted weights and with the current ones")
	flag.Parse()
	return o
}

func main() {
	o := parseFlags()
	gm, err := games.Lookup(o.game)
	if err != nil {
		exit(2, err)
	}
	rules := gm.Spec.New(gm.Spec.Defaults())
	eval := gm.AI.Evaluation()
	names, current := eval.Names, eval.Weights
	features := func(s game.State) ([]float64, bool) {
		f, err := eval.Features(s)
		return toFloat(f), err == nil
	}
	start, free, err := startWeights(names, current, o.only)
	if err != nil {
		exit(2, err)
	}
	rng := rand.New(rand.NewPCG(o.seed, 7))
	var data []sample
	results := map[game.Result]int{}
	if o.pgn != "" {
		data, results, err = recordSamples(strings.Split(o.pgn, ","), gm.Spec.Name, o.last, features)
		if err != nil {
			exit(2, fmt.Errorf("--pgn: %w", err))
		}
	}
	selfPlayGames := o.selfPlayGames()
	if data, err = addSelfPlay(o, rules, selfPlayGames, rng, features, data, results); err != nil {
		exit(1, err)
	}
	fmt.Fprintf(os.Stderr, "games: first wins %d, second wins %d, draws %d; %d positions\n",
		results[game.FirstWins], results[game.SecondWins], results[game.Draw]+results[game.Ongoing], len(data))
	w := fit(data, start, free, o.iterations)
	printWeights(o, selfPlayGames, names, w, data)
	if o.verify > 0 {
		if err := verifyFit(o, rules, w, rng); err != nil {
			exit(1, err)
		}
	}
}

// exit reports err and ends the program with the exit status code.
func exit(code int, err error) {
	fmt.Fprintln(os.Stderr, "tune:", err)
	os.Exit(code)
}

// selfPlayGames is the number of self-play games to play: --games, but
// with --pgn only when --games is given.
func (o options) selfPlayGames() int {
	if o.pgn == "" {
		return o.games
	}
	n := 0
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "games" {
			n = o.games
		}
	})
	return n
}

// addSelfPlay plays n self-play games of --player, adding their samples
// to data and their results to results, with a progress line on standard
// error every 50 games.
func addSelfPlay(o options, rules game.Rules, n int, rng *rand.Rand, features func(game.State) ([]float64, bool), data []sample, results map[game.Result]int) ([]sample, error) {
	for i := 0; i < n; i++ {
		samples, r, err := selfPlay(rules, o.player, o.openings, o.maxPlies, o.last, rng, features)
		if err != nil {
			return nil, err
		}
		results[r]++
		data = append(data, samples...)
		if (i+1)%50 == 0 {
			fmt.Fprintf(os.Stderr, "%d games, %d positions\n", i+1, len(data))
		}
	}
	return data, nil
}

// printWeights prints the fitted weights w as the Go array to paste, after
// the command that fitted them (with selfPlayGames self-play games) and
// each feature's weight, and the cross entropy of the fit on data against
// that of weights all zero.
func printWeights(o options, selfPlayGames int, names []string, w []float64, data []sample) {
	fitFlag := ""
	if o.only != "" {
		fitFlag = " --fit " + o.only
	}
	if o.last > 0 {
		fitFlag += fmt.Sprintf(" --last %d", o.last)
	}
	source := ""
	if o.pgn != "" {
		source = " --pgn " + o.pgn
	}
	if selfPlayGames > 0 || o.pgn == "" {
		source += fmt.Sprintf(" --games %d --player %s --openings %d --seed %d", selfPlayGames, o.player, o.openings, o.seed)
	}
	fmt.Printf("// fitted by: go run ./tools/tune --game %s%s%s\n", o.game, source, fitFlag)
	var parts []string
	for i, x := range w {
		parts = append(parts, fmt.Sprintf("%d", int(math.Round(x))))
		fmt.Printf("// %-12s %8.2f\n", names[i], x)
	}
	fmt.Printf("{%s}\n", strings.Join(parts, ", "))
	fmt.Printf("// cross entropy: fitted %.4f, all zero %.4f\n", loss(data, w), loss(data, make([]float64, len(w))))
}

// verifyFit plays --verify games of --player with the fitted weights w,
// rounded, against the current ones, and prints the fitted ones' score.
func verifyFit(o options, rules game.Rules, w []float64, rng *rand.Rand) error {
	iw := make([]int, len(w))
	for i, x := range w {
		iw[i] = int(math.Round(x))
	}
	score, wins, draws, losses, err := verifyMatch(rules, o.player, iw, o.verify, o.openings, o.maxPlies, rng)
	if err != nil {
		return err
	}
	fmt.Printf("// verification: %s with the fitted weights against the current ones, %d games: %.1f%% (%d-%d-%d)\n", o.player, o.verify, 100*score, wins, draws, losses)
	return nil
}

// verifyMatch plays the fitted weights (A) against the current ones (B),
// colours alternating, from random openings.
func verifyMatch(rules game.Rules, name string, weights []int, n, opening, maxPlies int, rng *rand.Rand) (score float64, w, d, l int, err error) {
	for i := 0; i < n; i++ {
		a, err := games.NewPlayer(name, rules, ai.Config{Seed: int64(i) + 1, HashMB: 8, Weights: weights})
		if err != nil {
			return 0, 0, 0, 0, err
		}
		b, err := games.NewPlayer(name, rules, ai.Config{Seed: int64(i) + 1, HashMB: 8})
		if err != nil {
			return 0, 0, 0, 0, err
		}
		players := [2]ai.Player{a, b}
		aSide := game.First
		if i%2 == 1 {
			players = [2]ai.Player{b, a}
			aSide = game.Second
		}
		g := game.NewGame(rules.Start())
		playOpening(g, opening, rng)
		for ply := 0; ply < maxPlies; ply++ {
			if r, _ := g.Result(); r.Over() {
				break
			}
			m, err := players[g.Position().Side()].Move(context.Background(), g, ai.Limits{})
			if err != nil {
				return 0, 0, 0, 0, err
			}
			if err := g.Play(m); err != nil {
				return 0, 0, 0, 0, err
			}
		}
		r, _ := g.Result()
		switch winner, ok := r.Winner(); {
		case !ok:
			d++
		case winner == aSide:
			w++
		default:
			l++
		}
	}
	return (float64(w) + float64(d)/2) / float64(n), w, d, l, nil
}

// playOpening plays n random moves that do not end the game.
func playOpening(g *game.Game, n int, rng *rand.Rand) {
	for i := 0; i < n; i++ {
		moves := g.Position().Moves()
		rng.Shuffle(len(moves), func(a, b int) { moves[a], moves[b] = moves[b], moves[a] })
		for _, m := range moves {
			next, _ := g.Position().Play(m)
			if r, _ := next.Outcome(); !r.Over() {
				_ = g.Play(m)
				break
			}
		}
	}
}

func toFloat(f []int) []float64 {
	out := make([]float64, len(f))
	for i, x := range f {
		out[i] = float64(x)
	}
	return out
}

// selfPlay plays one game and returns its quiet positions after the
// opening labelled with the result for their side to move (see
// gameSamples).
func selfPlay(rules game.Rules, name string, opening, maxPlies, last int, rng *rand.Rand, features func(game.State) ([]float64, bool)) ([]sample, game.Result, error) {
	var players [2]ai.Player
	for i := range players {
		p, err := games.NewPlayer(name, rules, ai.Config{Seed: rng.Int64N(1<<62) + 1, HashMB: 8})
		if err != nil {
			return nil, 0, err
		}
		players[i] = p
	}
	g := game.NewGame(rules.Start())
	playOpening(g, opening, rng)
	from := len(g.Moves())
	for ply := 0; ply < maxPlies; ply++ {
		if r, _ := g.Result(); r.Over() {
			break
		}
		m, err := players[g.Position().Side()].Move(context.Background(), g, ai.Limits{})
		if err != nil {
			return nil, 0, err
		}
		if err := g.Play(m); err != nil {
			return nil, 0, err
		}
	}
	r, _ := g.Result()
	return gameSamples(g, from, last, features), r, nil
}

// gameSamples returns the quiet positions of a game from its from-th on,
// labelled with the game's result for their side to move (1 a win, 0 a
// loss, 0.5 a draw or an unfinished game); with last above 0, only those
// of the game's last plies. In Magneton a position a hundred plies before
// the end says almost nothing about the result (the board changes with
// every magnet), so labelling it with the result only adds noise, while
// the positions just before a win show what led to it.
func gameSamples(g *game.Game, from, last int, features func(game.State) ([]float64, bool)) []sample {
	r, _ := g.Result()
	states := g.States()
	end := len(states) - 1 // the final position has no move to learn from
	start := max(from, 0)
	if last > 0 {
		start = max(start, end-last) // earlier ones are too far from the end to say what decided the game
	}
	var out []sample
	for i := start; i < end; i++ {
		s := states[i]
		if winsAtOnce(s) {
			continue
		}
		f, ok := features(s)
		if !ok {
			continue
		}
		y := 0.5
		if w, ok := r.Winner(); ok {
			y = 0
			if w == s.Side() {
				y = 1
			}
		}
		out = append(out, sample{f, y})
	}
	return out
}

// recordSamples reads the games of PGN files (as `magneton match --pgn`
// writes them), replays each under its rules, and returns the samples of
// gameSamples from every game of the given game; the error names the file
// and the game that does not replay.
func recordSamples(files []string, gameName string, last int, features func(game.State) ([]float64, bool)) ([]sample, map[game.Result]int, error) {
	var data []sample
	results := map[game.Result]int{}
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			return nil, nil, err
		}
		recs, err := record.ParseAll(string(text))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", file, err)
		}
		for i, rec := range recs {
			g, err := rec.Replay()
			if err != nil {
				return nil, nil, fmt.Errorf("%s, game %d: %w", file, i+1, err)
			}
			if g.Rules().Spec().Name != gameName {
				return nil, nil, fmt.Errorf("%s, game %d: a game of %s, not %s", file, i+1, g.Rules().Spec().Name, gameName)
			}
			r, _ := g.Result()
			results[r]++
			data = append(data, gameSamples(g, 0, last, features)...)
		}
	}
	return data, results, nil
}

// winsAtOnce reports whether the side to move has a winning move: such
// positions are not quiet, and the search never evaluates them.
func winsAtOnce(s game.State) bool {
	for _, m := range s.Moves() {
		next, err := s.Play(m)
		if err != nil {
			continue
		}
		if r, _ := next.Outcome(); r == game.WinFor(s.Side()) {
			return true
		}
	}
	return false
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x/scale)) }

func loss(data []sample, w []float64) float64 {
	var l float64
	for _, d := range data {
		p := math.Min(math.Max(sigmoid(dot(w, d.f)), 1e-9), 1-1e-9)
		l -= d.y*math.Log(p) + (1-d.y)*math.Log(1-p)
	}
	return l / float64(len(data))
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// startWeights returns the weights the fit starts from and which of them
// it may change: all of them from zero, or with --fit only the named
// features, the others held at their current weights (to add a feature
// without refitting, on new data, weights that matches have confirmed).
func startWeights(names []string, current []int, only string) (start []float64, free []bool, err error) {
	start = make([]float64, len(names))
	free = make([]bool, len(names))
	if only == "" {
		for i := range free {
			free[i] = true
		}
		return start, free, nil
	}
	for i, x := range current {
		start[i] = float64(x)
	}
	for _, name := range strings.Split(only, ",") {
		i := slices.Index(names, strings.TrimSpace(name))
		if i < 0 {
			return nil, nil, fmt.Errorf("--fit: no feature %q (the features: %s)", name, strings.Join(names, ", "))
		}
		free[i] = true
	}
	return start, free, nil
}

// fit minimises the cross entropy by gradient descent with Adam steps,
// from start, changing only the free weights.
func fit(data []sample, start []float64, free []bool, iters int) []float64 {
	n := len(start)
	w := slices.Clone(start)
	m := make([]float64, n)
	v := make([]float64, n)
	const lr, b1, b2 = 1.0, 0.9, 0.999
	for t := 1; t <= iters; t++ {
		g := make([]float64, n)
		for _, d := range data {
			e := (sigmoid(dot(w, d.f)) - d.y) / scale
			for i, x := range d.f {
				g[i] += e * x
			}
		}
		for i := range g {
			if !free[i] {
				continue
			}
			g[i] /= float64(len(data))
			m[i] = b1*m[i] + (1-b1)*g[i]
			v[i] = b2*v[i] + (1-b2)*g[i]*g[i]
			mh := m[i] / (1 - math.Pow(b1, float64(t)))
			vh := v[i] / (1 - math.Pow(b2, float64(t)))
			w[i] -= lr * mh / (math.Sqrt(vh) + 1e-12)
		}
	}
	return w
}
