package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/elo"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/record"
)

func init() {
	commands = append(commands, matchCommand)
}

// forcedResult is the proof search of ai.Profile.ForcedResult for the
// game of rules.
func forcedResult(ctx context.Context, rules game.Rules, s game.State, plies int, maxNodes int64) (int, error) {
	gm, err := games.Of(rules.Spec())
	if err != nil {
		return 0, err
	}
	return gm.AI.ForcedResult(ctx, s, plies, maxNodes)
}

type matchOptions struct {
	a, b        string
	games       int
	movetime    time.Duration
	movetimeA   time.Duration // A's own time a move (time odds); 0: movetime
	concurrency int
	openings    string
	pgn         string
	sprt        string
	threads     int
	threadsA    int // A's own search threads; 0: threads
	hash        int
	seed        uint64
	maxPlies    int
	quiet       bool
}

func matchCommand(g *globalOptions) *cobra.Command {
	o := &matchOptions{}
	c := &cobra.Command{
		Use:   "match --a PLAYER --b PLAYER",
		Short: "Play games between two players and measure their difference in strength",
		Long: `Play --games games between players A and B, alternating colours, and print
the score, the Elo difference with its 95% interval and, with --sprt, the
verdict of a sequential probability ratio test. The last line is
"score A: NN.N% (W-D-L)" from A's point of view.

Players: ` + games.PlayerNames() + `.

Each pair of games starts from the same opening with colours swapped;
--openings random:N plays N random moves first (none that end the game);
balanced:N does the same but draws again while the side to move can force
a win, or its opponent can, within ` + strconv.Itoa(balancedPlies) + ` plies by threats (found by a proof
search that uses no evaluation): such an opening decides its pair of games
one each, whoever plays it.
A game still going after --max-plies plies is scored a draw.

With --sprt the test is checked after each game, and the match stops as
soon as it accepts either hypothesis (games still being played are then
left out); the summary says after how many games and why. The Elo
interval is Wilson's score interval extended to draws, finite for any
result: when every game ended the same way the statistics add a prior of
one even game (half a win and half a loss), so that ten wins out of ten
are +528.9 Elo (95%: +129.8 to +928.0), not infinite.

--pgn opens the file (appending to it, creating it if needed) before the
first game, and adds each game's record as the game ends.`,
		Example: `  magneton match --a level:4 --b level:3 --games 20 --movetime 50ms
  magneton match --a level:8 --b simple-ab --movetime-a 25ms --movetime 100ms --openings balanced:4 --max-plies 300
  magneton match --game tumbling --a level:8 --b boardspace-d5 --games 400 --openings balanced:4 --sprt 0,50 --pgn games.pgn
  magneton match --a ugi:./other-engine --b level:6 --concurrency 2 --quiet`,
		Args: exactArgs(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			if err := o.checkLimits(c); err != nil {
				return err
			}
			_, rules, err := g.setup()
			if err != nil {
				return err
			}
			return runMatch(c.Context(), rules, o, c.OutOrStdout(), c.ErrOrStderr())
		},
	}
	f := c.Flags()
	f.StringVar(&o.a, "a", "", "player A (required)")
	f.StringVar(&o.b, "b", "", "player B (required)")
	f.IntVar(&o.games, "games", 2, fmt.Sprintf("number of games, 1 to %d", maxMatchGames))
	f.DurationVar(&o.movetime, "movetime", 100*time.Millisecond, "thinking time per move, above 0 and at most 24h")
	f.DurationVar(&o.movetimeA, "movetime-a", 0, "A's own thinking time per move, for a match at time odds (default: --movetime)")
	f.IntVar(&o.concurrency, "concurrency", 1, fmt.Sprintf("games played at once, 1 to %d", maxConcurrency))
	f.StringVar(&o.openings, "openings", "", "openings: random:N plays N random moves from the start; balanced:N leaves out those already decided")
	f.StringVar(&o.pgn, "pgn", "", "append each game's record to this file as it ends")
	f.StringVar(&o.sprt, "sprt", "", "elo0,elo1: run an SPRT of H0 elo=elo0 against H1 elo=elo1 (alpha=beta=0.05), stopping the match when it decides")
	f.IntVar(&o.threads, "threads", 1, fmt.Sprintf("search threads of each player, %d to %d", ai.MinThreads, ai.MaxThreads))
	f.IntVar(&o.threadsA, "threads-a", 0, "A's own search threads, for a match of threads against threads at equal time (default: --threads)")
	f.IntVar(&o.hash, "hash", 64, fmt.Sprintf("transposition table of each player, in MB, %d to %d (all the players' tables together at most %d)", ai.MinHashMB, ai.MaxHashMB, maxMatchTableMemory))
	f.Uint64Var(&o.seed, "seed", 1, "seed of the openings and the players' random choices")
	f.IntVar(&o.maxPlies, "max-plies", 600, fmt.Sprintf("plies after which a game is adjudicated a draw, %d to %d", minMaxPlies, maxMaxPlies))
	f.BoolVar(&o.quiet, "quiet", false, "no progress bar")
	return c
}

// gameOutcome is one finished game of a match.
type gameOutcome struct {
	index   int
	aFirst  bool
	result  game.Result
	ending  *game.Ending
	g       *game.Game
	opening int
	err     error
	think   [2]time.Duration // A's and B's total thinking time
	moves   [2]int
	// adjudicated: drawn at --max-plies
	adjudicated bool
	illegal     string // why a player lost by an illegal move
}

// openingSpec is a parsed --openings.
type openingSpec struct {
	plies    int  // random plies from the start
	balanced bool // leave out openings with a forced win
}

func parseOpenings(s string) (openingSpec, error) {
	if s == "" {
		return openingSpec{}, nil
	}
	kind, n, _ := strings.Cut(s, ":")
	k, err := strconv.Atoi(n)
	if kind != "random" && kind != "balanced" || err != nil || k < 0 || k > 40 {
		return openingSpec{}, usagef("--openings %q: want random:N or balanced:N with 0 <= N <= 40", s)
	}
	return openingSpec{plies: k, balanced: kind == "balanced"}, nil
}

// The proof search that tells a balanced opening: its horizon in plies,
// and the nodes it may spend on one opening (a few tenths of a second; an
// opening it cannot settle in them counts as balanced).
const (
	balancedPlies = 11
	balancedNodes = 2_000_000
)

// makeOpenings draws n openings. It returns how many decided ones it
// replaced when spec.balanced.
func makeOpenings(ctx context.Context, rules game.Rules, spec openingSpec, n int, rng *rand.Rand) ([][]string, int, error) {
	openings := make([][]string, n)
	replaced := 0
	for i := range openings {
		for tries := 0; ; tries++ {
			openings[i] = randomOpening(rules, spec.plies, rng)
			if !spec.balanced {
				break
			}
			if tries == 1000 {
				return nil, 0, fmt.Errorf("openings: no balanced opening of %d plies in 1000 tries", spec.plies)
			}
			g := game.NewGame(rules.Start())
			for _, m := range openings[i] {
				if err := g.Play(m); err != nil {
					return nil, 0, fmt.Errorf("openings: %w", err)
				}
			}
			if r, _ := g.Result(); r.Over() {
				break // no move at all: randomOpening could not go on
			}
			mate, err := forcedResult(ctx, rules, g.Position(), balancedPlies, balancedNodes)
			if err != nil {
				return nil, 0, fmt.Errorf("openings: %w", err)
			}
			if mate == 0 {
				break
			}
			replaced++
		}
	}
	return openings, replaced, nil
}

func parseSPRT(s string) (elo0, elo1 float64, ok bool, err error) {
	if s == "" {
		return 0, 0, false, nil
	}
	a, b, found := strings.Cut(s, ",")
	e0, err0 := strconv.ParseFloat(a, 64)
	e1, err1 := strconv.ParseFloat(b, 64)
	if !found || err0 != nil || err1 != nil || e0 >= e1 {
		return 0, 0, false, usagef("--sprt %q: want elo0,elo1 with elo0 < elo1, like 0,10", s)
	}
	return e0, e1, true, nil
}

// randomOpening plays n random moves from the start, avoiding moves that
// end the game.
func randomOpening(rules game.Rules, n int, rng *rand.Rand) []string {
	var moves []string
	st := rules.Start()
	for len(moves) < n {
		cand := st.Moves()
		rng.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
		played := false
		for _, m := range cand {
			next, err := st.Play(m)
			if err != nil {
				continue
			}
			if r, _ := next.Outcome(); r.Over() {
				continue
			}
			st, moves, played = next, append(moves, m), true
			break
		}
		if !played {
			break
		}
	}
	return moves
}

// runMatch plays the match of o and prints its summary on stdout, the
// progress bar and illegal moves on stderr. The record file, if any, is
// opened before the first game, and each game is added to it as it ends.
func runMatch(ctx context.Context, rules game.Rules, o *matchOptions, stdout, stderr io.Writer) error {
	set, err := checkMatch(rules, o)
	if err != nil {
		return err
	}
	var pgn io.Writer
	if o.pgn != "" {
		f, err := os.OpenFile(o.pgn, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("match: --pgn: %w", err)
		}
		defer f.Close()
		pgn = f
	}
	rng := rand.New(rand.NewPCG(o.seed, 0x0be))
	openings, replaced, err := makeOpenings(ctx, rules, set.openings, (o.games+1)/2, rng)
	if err != nil {
		return fmt.Errorf("match: %w", err)
	}
	mctx, stopMatch := context.WithCancel(ctx)
	defer stopMatch()
	t, err := tallyMatch(playMatchGames(mctx, rules, o, openings), o, set, pgn, stopMatch, stderr)
	if err != nil {
		return err
	}
	switch {
	case t.sprtStop != "":
		fmt.Fprintf(stdout, "match stopped by the SPRT after %d of %d games: %s\n", t.done, o.games, t.sprtStop)
	case ctx.Err() != nil && t.done < o.games:
		fmt.Fprintf(stdout, "match interrupted after %d of %d games\n", t.done, o.games)
	}
	printMatchSummary(stdout, rules, o, set, len(openings), replaced, t)
	return nil
}

// matchSettings are the options of a match that checkMatch parses.
type matchSettings struct {
	openings   openingSpec
	sprt       bool // run an SPRT of elo0 against elo1
	elo0, elo1 float64
}

// checkLimits checks the numbers of the match's flags against their
// ranges; its errors are usage errors that name the flag and the range.
func (o *matchOptions) checkLimits(c *cobra.Command) error {
	if err := intIn(c, "games", o.games, 1, maxMatchGames, ""); err != nil {
		return err
	}
	if err := intIn(c, "concurrency", o.concurrency, 1, maxConcurrency, ""); err != nil {
		return err
	}
	if err := intIn(c, "max-plies", o.maxPlies, minMaxPlies, maxMaxPlies, ""); err != nil {
		return err
	}
	flags := searchFlags{threads: &o.threads, hash: &o.hash, times: map[string]*time.Duration{"movetime": &o.movetime}}
	if c.Flags().Changed("movetime-a") {
		flags.times["movetime-a"] = &o.movetimeA
	}
	if err := flags.check(c); err != nil {
		return err
	}
	if c.Flags().Changed("threads-a") {
		if err := intIn(c, "threads-a", o.threadsA, ai.MinThreads, ai.MaxThreads, ""); err != nil {
			return err
		}
	}
	// Each game has two players, each with its own table.
	if total := 2 * min(o.concurrency, o.games) * o.hash; total > maxMatchTableMemory {
		return usagef("match: --hash %d with --concurrency %d gives the players %d MB of tables in all, more than %d: lower one of them", o.hash, o.concurrency, total, maxMatchTableMemory)
	}
	return nil
}

// playerThreads is the search threads of player who (0 is A).
func (o *matchOptions) playerThreads(who int) int {
	if who == 0 && o.threadsA > 0 {
		return o.threadsA
	}
	return o.threads
}

// moveTime is the thinking time of a move of player who (0 is A).
func (o *matchOptions) moveTime(who int) time.Duration {
	if who == 0 && o.movetimeA > 0 {
		return o.movetimeA
	}
	return o.movetime
}

// checkMatch checks the options and the names of the players before the
// match starts. Its errors are usage errors.
func checkMatch(rules game.Rules, o *matchOptions) (matchSettings, error) {
	var set matchSettings
	if o.a == "" || o.b == "" {
		return set, usagef("match: --a and --b name the players (%s)", games.PlayerNames())
	}
	if o.games < 1 || o.concurrency < 1 || o.movetime <= 0 {
		return set, usagef("match: --games, --concurrency and --movetime must be positive")
	}
	var err error
	if set.openings, err = parseOpenings(o.openings); err != nil {
		return set, err
	}
	if set.elo0, set.elo1, set.sprt, err = parseSPRT(o.sprt); err != nil {
		return set, err
	}
	for _, name := range []string{o.a, o.b} {
		if strings.HasPrefix(name, "ugi:") {
			continue // an engine is started by its worker
		}
		if _, err := games.NewPlayer(name, rules, ai.Config{HashMB: ai.MinHashMB}); err != nil {
			return set, usageError{err}
		}
	}
	return set, nil
}

// playMatchGames plays the o.games games of the match on
// min(o.concurrency, o.games) workers and sends their outcomes, in the
// order they finish, on the channel it returns, which it closes after the
// last one. Game i starts from openings[i/2]. Once ctx is done no more
// games start.
func playMatchGames(ctx context.Context, rules game.Rules, o *matchOptions, openings [][]string) <-chan gameOutcome {
	jobs := make(chan int)
	results := make(chan gameOutcome)
	var wg sync.WaitGroup
	for w := 0; w < min(o.concurrency, o.games); w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			matchWorker(ctx, rules, o, w, openings, jobs, results)
		}(w)
	}
	go func() {
		defer close(jobs)
		for i := 0; i < o.games; i++ {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	return results
}

// matchWorker is worker w of a match: with its own pair of players, A and
// B, it plays the games whose numbers come on jobs until jobs is closed,
// and sends their outcomes on results. If it cannot make its players, it
// answers every job with the error.
func matchWorker(ctx context.Context, rules game.Rules, o *matchOptions, w int, openings [][]string, jobs <-chan int, results chan<- gameOutcome) {
	var players [2]ai.Player
	for i, name := range []string{o.a, o.b} {
		p, err := games.NewPlayer(name, rules, ai.Config{Threads: o.playerThreads(i), HashMB: o.hash, Seed: int64(o.seed)*1000 + int64(w)*2 + int64(i) + 1})
		if err != nil {
			for range jobs {
				results <- gameOutcome{err: err}
			}
			return
		}
		players[i] = p
		if c, ok := p.(io.Closer); ok {
			defer c.Close()
		}
	}
	for i := range jobs {
		results <- playMatchGame(ctx, rules, players, i, openings[i/2], o)
	}
}

// matchTally is the count of a match's finished games.
type matchTally struct {
	st                    elo.Stats        // A's wins, draws and losses
	firstWins, firstDraws int              // the first player's wins and draws
	done                  int              // games finished
	think                 [2]time.Duration // A's and B's total thinking time
	moves                 [2]int           // A's and B's moves
	endings               map[string]int   // games by how they ended
	finished              []*gameOutcome   // by game number; nil for a game not played
	sprtStop              string           // why the SPRT stopped the match; "" if it did not
}

// add counts the finished game r.
func (t *matchTally) add(r *gameOutcome) {
	t.done++
	t.finished[r.index] = r
	aSide := game.First
	if !r.aFirst {
		aSide = game.Second
	}
	switch w, ok := r.result.Winner(); {
	case !ok:
		t.st.D++
		t.firstDraws++
	case w == aSide:
		t.st.W++
	default:
		t.st.L++
	}
	if r.result == game.FirstWins {
		t.firstWins++
	}
	if r.adjudicated {
		t.endings["max plies"]++
	} else {
		t.endings[r.ending.String()]++
	}
	for i := range 2 {
		t.think[i] += r.think[i]
		t.moves[i] += r.moves[i]
	}
}

// tallyMatch counts the outcomes of the games as they come from results
// until it is closed, adds each finished game to pgn (if not nil), and
// writes the illegal moves and, unless o.quiet, the progress bar on
// stderr. With an SPRT it checks the test after each game and calls stop
// when the test decides; it calls stop too at the first error of a game or
// of the record file, which it returns once results is closed. A game cut
// short because the match was stopped or interrupted is not counted.
func tallyMatch(results <-chan gameOutcome, o *matchOptions, set matchSettings, pgn io.Writer, stop func(), stderr io.Writer) (*matchTally, error) {
	t := &matchTally{endings: map[string]int{}, finished: make([]*gameOutcome, o.games)}
	start := time.Now()
	var firstErr error
	fail := func(err error) {
		if firstErr == nil {
			firstErr = err
			stop()
		}
	}
	for r := range results {
		if r.err != nil {
			if !errors.Is(r.err, context.Canceled) {
				fail(r.err)
			}
			continue
		}
		t.add(&r)
		if r.illegal != "" {
			fmt.Fprintf(stderr, "\ngame %d: %s\n", r.index+1, r.illegal)
		}
		if pgn != nil {
			if _, err := io.WriteString(pgn, matchRecord(o, &r)+"\n"); err != nil {
				fail(fmt.Errorf("writing game %d to %s: %w", r.index+1, o.pgn, err))
			}
		}
		if set.sprt && t.sprtStop == "" && firstErr == nil {
			if llr, lower, upper, verdict := t.st.SPRT(set.elo0, set.elo1, 0.05, 0.05); verdict != elo.Continue {
				bound := fmt.Sprintf("reached the upper bound %.2f", upper)
				if verdict == elo.AcceptH0 {
					bound = fmt.Sprintf("reached the lower bound %.2f", lower)
				}
				t.sprtStop = fmt.Sprintf("%s (llr %.2f %s)", verdict, llr, bound)
				stop()
			}
		}
		if !o.quiet {
			progress(stderr, t.done, o.games, t.st, time.Since(start))
		}
	}
	if !o.quiet && t.done > 0 {
		fmt.Fprintln(stderr)
	}
	if firstErr != nil {
		return nil, fmt.Errorf("match: %w", firstErr)
	}
	return t, nil
}

// matchRecord is the record of a finished game of the match.
func matchRecord(o *matchOptions, r *gameOutcome) string {
	names := [2]string{o.a, o.b}
	if !r.aFirst {
		names = [2]string{o.b, o.a}
	}
	return formatRecord(r.g, names, map[string]string{
		"Event": "magneton match", "Round": strconv.Itoa(r.index + 1),
	})
}

// printMatchSummary writes the summary of the match on w: what was played,
// how the games ended, the players' thinking times, the first player's
// results, the Elo difference, the SPRT and, last, A's score. openings is
// the number of openings drawn, replaced the number of decided ones drawn
// again.
func printMatchSummary(w io.Writer, rules game.Rules, o *matchOptions, set matchSettings, openings, replaced int, t *matchTally) {
	st := t.st
	n := st.Games()
	times := fmt.Sprintf("%v a move", o.movetime)
	if o.movetimeA > 0 {
		times = fmt.Sprintf("%v a move for A, %v for B", o.movetimeA, o.movetime)
	}
	if o.threadsA > 0 {
		times += fmt.Sprintf(", %d search threads for A, %d for B", o.threadsA, o.threads)
	}
	fmt.Fprintf(w, "%s, %d games, %s, openings %q: A = %s, B = %s\n", rules.Spec().Title, n, times, o.openings, o.a, o.b)
	if set.openings.balanced {
		fmt.Fprintf(w, "openings: %d, %d decided ones drawn again\n", openings, replaced)
	}
	var endings []string
	for k, v := range t.endings {
		endings = append(endings, fmt.Sprintf("%s %d", k, v))
	}
	fmt.Fprintf(w, "endings: %s\n", strings.Join(sortStrings(endings), ", "))
	for i, name := range []string{"A", "B"} {
		if t.moves[i] > 0 {
			fmt.Fprintf(w, "%s thought %.1f ms a move on average\n", name, float64(t.think[i].Microseconds())/1000/float64(t.moves[i]))
		}
	}
	if n > 0 {
		fmt.Fprintf(w, "first player: %d wins, %d draws, %d losses (score %.1f%%)\n", t.firstWins, t.firstDraws, n-t.firstWins-t.firstDraws, 100*(float64(t.firstWins)+float64(t.firstDraws)/2)/float64(n))
		d, lo, hi := st.Elo()
		fmt.Fprintf(w, "elo difference: %s (95%%: %s to %s)\n", elo.Format(d), elo.Format(lo), elo.Format(hi))
		if set.sprt {
			llr, lower, upper, verdict := st.SPRT(set.elo0, set.elo1, 0.05, 0.05)
			fmt.Fprintf(w, "sprt elo0=%g elo1=%g: llr %.2f (bounds %.2f, %.2f): %s\n", set.elo0, set.elo1, llr, lower, upper, verdict)
		}
	}
	fmt.Fprintf(w, "score A: %.1f%% (%d-%d-%d)\n", 100*st.Score(), st.W, st.D, st.L)
}

func sortStrings(s []string) []string {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}

// progress draws a one-line progress bar on w.
func progress(w io.Writer, done, total int, st elo.Stats, el time.Duration) {
	const width = 30
	fill := width * done / total
	eta := time.Duration(0)
	if done > 0 {
		eta = el / time.Duration(done) * time.Duration(total-done)
	}
	fmt.Fprintf(w, "\r[%s%s] %d/%d  A %.1f%% (%d-%d-%d)  eta %v   ", strings.Repeat("#", fill), strings.Repeat(".", width-fill),
		done, total, 100*st.Score(), st.W, st.D, st.L, eta.Round(time.Second))
}

// playMatchGame plays game i: A moves first in even games.
func playMatchGame(ctx context.Context, rules game.Rules, players [2]ai.Player, i int, opening []string, o *matchOptions) gameOutcome {
	out := gameOutcome{index: i, aFirst: i%2 == 0, opening: len(opening)}
	g := game.NewGame(rules.Start())
	for _, m := range opening {
		if err := g.Play(m); err != nil {
			out.err = fmt.Errorf("opening: %w", err)
			return out
		}
	}
	for _, p := range players {
		if t, ok := p.(ai.Thinker); ok {
			t.NewGame()
		}
	}
	for ply := len(opening); ; ply++ {
		if r, _ := g.Result(); r.Over() {
			break
		}
		if ply >= o.maxPlies {
			// Adjudicated a draw; records name it as an agreement.
			if err := g.End(0, game.Agreement); err != nil {
				out.err = err
				return out
			}
			out.adjudicated = true
			break
		}
		side := g.Position().Side()
		who := 0 // index into players: 0 is A
		if (side == game.First) != out.aFirst {
			who = 1
		}
		start := time.Now()
		m, err := players[who].Move(ctx, g, ai.Limits{MoveTime: o.moveTime(who)})
		out.think[who] += time.Since(start)
		out.moves[who]++
		if ctx.Err() != nil {
			// Stopped or interrupted: a move cut short is not the player's
			// own, and the game is left out.
			out.err = ctx.Err()
			return out
		}
		if err != nil {
			out.err = fmt.Errorf("%s: %w", players[who].Name(), err)
			return out
		}
		if err := g.Play(m); err != nil {
			// An illegal move from an external engine loses.
			out.illegal = fmt.Sprintf("%s played an illegal move: %v", players[who].Name(), err)
			if e := g.End(side, game.Resignation); e != nil {
				out.err = e
				return out
			}
			break
		}
	}
	out.g = g
	out.result, out.ending = g.Result()
	return out
}

// formatRecord writes a game as a record (package record) with the players
// by side and extra tags.
func formatRecord(g *game.Game, players [2]string, tags map[string]string) string {
	rec := record.FromGame(g, players, time.Now())
	keys := make([]string, 0, len(tags))
	for k := range tags {
		keys = append(keys, k)
	}
	for _, k := range sortStrings(keys) {
		rec.SetTag(k, tags[k])
	}
	return rec.Format()
}
