// Package gametest is the conformance suite of the project's games: the
// tests every registered game must pass, run over its registration
// (games.Game) alone, so that a new game gets all of them by being listed.
// A game's own packages keep only the tests of what is particular to it
// (a reference implementation, invariants of its representation).
//
// Run checks, for one game:
//
//   - the Spec: names, sides, options and variants build rules whose
//     start reads back from its own text;
//   - the reference data in the game's folder (perft.tsv and
//     positions.tsv, the project's shared format), when present;
//   - properties over random games from the start of every variant: the
//     legal moves come sorted and each plays, the position text reads back
//     to the same position and hash (a hash kept incrementally against a
//     fresh one), RandomMove draws only legal moves and reaches them all,
//     perft agrees with divide, and every symmetry the game declares
//     commutes with move generation and play;
//   - every record format (the PGN-like record and the game's own) writes
//     and reads back a game, its players, date and ending;
//   - the AI profile: its check, every player it names, its evaluation's
//     features and its proof search, and a short game at each level;
//   - the engine protocol: every name and alias of the game chooses it
//     with setoption, and the engine then plays legal moves.
package gametest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/record"
	"github.com/magneton-games/magneton/ugi"
)

// Run runs the whole suite for g, with the reference data in the folder
// data ("" or a missing folder: none, which the suite says in its log).
// It registers g first if it is not (a game of a test package).
func Run(t *testing.T, g *games.Game, data string) {
	if err := games.Register(g); err != nil {
		t.Fatalf("register: %v", err)
	}
	t.Run("Spec", func(t *testing.T) { testSpec(t, g.Spec) })
	t.Run("ReferencePositions", func(t *testing.T) { testReferencePositions(t, g.Spec, data) })
	t.Run("ReferencePerft", func(t *testing.T) { testReferencePerft(t, g.Spec, data) })
	t.Run("Properties", func(t *testing.T) { testProperties(t, g.Spec, data) })
	t.Run("Records", func(t *testing.T) { testRecords(t, g.Spec) })
	t.Run("AI", func(t *testing.T) { testAI(t, g) })
	t.Run("EngineProtocol", func(t *testing.T) { testEngineProtocol(t, g.Spec) })
}

func testSpec(t *testing.T, sp *game.Spec) {
	if sp.SideNames[0] == "" || sp.SideNames[1] == "" || sp.SideLetters[0] == sp.SideLetters[1] {
		t.Errorf("sides %q, letters %q: want two names and two different letters", sp.SideNames, sp.SideLetters)
	}
	for _, settings := range variantSettings(t, sp) {
		r, err := sp.Rules(settings)
		if err != nil {
			t.Fatalf("rules %q: %v", settings, err)
		}
		if got := r.Settings().String(); got != settings {
			t.Errorf("rules built from %q report %q", settings, got)
		}
		start := r.Start()
		back, err := r.ParsePosition(start.String())
		if err != nil || back.String() != start.String() || back.Hash() != start.Hash() {
			t.Errorf("rules %s: the start %q reads back as %v (%v)", settings, start, back, err)
		}
		if res, _ := start.Outcome(); res.Over() || len(start.Moves()) == 0 {
			t.Errorf("rules %s: the start is over (%s) or has no moves", settings, res)
		}
	}
	if _, err := sp.Rules("no-such-option=1"); err == nil {
		t.Error("an unknown rule option was accepted")
	}
}

// variantSettings returns the settings of the default rules and of each
// variant, as Settings.String writes them.
func variantSettings(t *testing.T, sp *game.Spec) []string {
	t.Helper()
	out := []string{sp.Defaults().String()}
	for _, v := range sp.Variants {
		s, err := sp.ParseSettings(v.Name)
		if err != nil {
			t.Fatalf("variant %s: %v", v.Name, err)
		}
		if !slices.Contains(out, s.String()) {
			out = append(out, s.String())
		}
	}
	return out
}

// readTSV returns the rows of a tab-separated reference file, without its
// comment lines, or nil when the file does not exist.
func readTSV(t *testing.T, dir, name string) [][]string {
	t.Helper()
	if dir == "" {
		t.Skipf("no reference data for this game")
	}
	f, err := os.Open(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("no %s in %s", name, dir)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s has no rows", name)
	}
	return rows
}

func defaultRules(t *testing.T, sp *game.Spec) game.Rules {
	t.Helper()
	r, err := sp.Rules()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// testReferencePositions checks positions.tsv: each row is a position, its
// legal moves sorted, a move, the position after it, and the side letter
// of the winner the move made ("-" for none; a side left without a legal
// move has not lost yet, as its turn has not come).
func testReferencePositions(t *testing.T, sp *game.Spec, dir string) {
	r := defaultRules(t, sp)
	for i, row := range readTSV(t, dir, "positions.tsv") {
		if len(row) != 5 {
			t.Fatalf("row %d: %d fields, want 5", i+1, len(row))
		}
		pos, want, move, after, winner := row[0], row[1], row[2], row[3], row[4]
		s, err := r.ParsePosition(pos)
		if err != nil {
			t.Fatalf("row %d: %v", i+1, err)
		}
		if got := s.String(); got != pos {
			t.Errorf("row %d: the position text reads back as %q", i+1, got)
		}
		if got := strings.Join(s.Moves(), " "); got != want {
			t.Errorf("row %d %s: legal moves\n got %s\nwant %s", i+1, pos, got, want)
		}
		q, err := s.Play(move)
		if err != nil {
			t.Errorf("row %d %s: %v", i+1, pos, err)
			continue
		}
		if got := q.String(); got != after {
			t.Errorf("row %d %s %s:\n got %s\nwant %s", i+1, pos, move, got, after)
		}
		got := "-"
		if res, ending := q.Outcome(); ending != game.NoMoves {
			if w, ok := res.Winner(); ok {
				got = sp.SideLetters[w]
			}
		}
		if got != winner {
			t.Errorf("row %d %s %s: winner %s, want %s", i+1, pos, move, got, winner)
		}
		checkFreshHash(t, q)
	}
}

// checkFreshHash checks that a position's hash, kept as it was played,
// equals the hash of the same position read from its text.
func checkFreshHash(t testing.TB, s game.State) {
	t.Helper()
	fresh, err := s.Rules().ParsePosition(s.String())
	if err != nil {
		t.Fatalf("%s does not read back: %v", s, err)
	}
	if fresh.String() != s.String() || fresh.Hash() != s.Hash() {
		t.Fatalf("%s: reads back as %s, hash %x, fresh %x", s, fresh, s.Hash(), fresh.Hash())
	}
}

// testReferencePerft checks perft.tsv: position, depth, leaf count. Counts
// over five million are left to the full run (not -short).
func testReferencePerft(t *testing.T, sp *game.Spec, dir string) {
	r := defaultRules(t, sp)
	for i, row := range readTSV(t, dir, "perft.tsv") {
		if len(row) < 3 {
			t.Fatalf("row %d: %d fields, want 3", i+1, len(row))
		}
		depth, err1 := strconv.Atoi(row[1])
		want, err2 := strconv.ParseUint(strings.Fields(row[2])[0], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("row %d: depth %q, count %q", i+1, row[1], row[2])
		}
		if testing.Short() && want > 5_000_000 {
			continue
		}
		s, err := r.ParsePosition(row[0])
		if err != nil {
			t.Fatalf("row %d: %v", i+1, err)
		}
		if got := s.Perft(depth); got != want {
			t.Errorf("perft(%s, %d) = %d, want %d", row[0], depth, got, want)
		}
	}
}

// randomGames plays n random games of up to maxPlies from the start of
// every variant, and one of up to 4 plies from each of extra, and calls
// f on every position on the way.
func randomGames(t *testing.T, sp *game.Spec, extra []game.State, n, maxPlies int, f func(s game.State)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(len(sp.Name)), 11))
	play := func(s game.State, plies int) {
		for range plies {
			f(s)
			moves := s.Moves()
			if len(moves) == 0 {
				break
			}
			var err error
			if s, err = s.Play(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
		f(s)
	}
	for _, settings := range variantSettings(t, sp) {
		r, err := sp.Rules(settings)
		if err != nil {
			t.Fatal(err)
		}
		for range n {
			play(r.Start(), maxPlies)
		}
	}
	for _, s := range extra {
		play(s, 4)
	}
}

// referenceStates reads the positions of positions.tsv, if any.
func referenceStates(t *testing.T, sp *game.Spec, dir string) []game.State {
	t.Helper()
	if dir == "" {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, "positions.tsv")); err != nil {
		return nil
	}
	r := defaultRules(t, sp)
	var out []game.State
	for _, row := range readTSV(t, dir, "positions.tsv") {
		if s, err := r.ParsePosition(row[0]); err == nil {
			out = append(out, s)
		}
	}
	return out
}

func testProperties(t *testing.T, sp *game.Spec, data string) {
	games, plies := 6, 160
	if testing.Short() {
		games = 2
	}
	rng := rand.New(rand.NewPCG(5, 6))
	extra := referenceStates(t, sp, data)
	// Every symmetry on the reference positions (they hold the odd cases:
	// tall mixed stacks, full boards), two a position in turn.
	if n := len(sp.Symmetries); n > 0 {
		for i, s := range extra {
			checkSymmetry(t, s, sp.Symmetries[(2*i)%n])
			checkSymmetry(t, s, sp.Symmetries[(2*i+1)%n])
		}
	}
	positions := 0
	randomGames(t, sp, extra, games, plies, func(s game.State) {
		positions++
		checkFreshHash(t, s)
		checkMoves(t, s)
		checkRandomMove(t, s, rng, positions%25 == 0)
		if positions%40 == 0 {
			checkPerft(t, s)
		}
		// One symmetry a position, in turn: checking all fifteen of
		// Tumbling Down's on every position would take a minute.
		if n := len(sp.Symmetries); n > 0 && positions%2 == 0 {
			checkSymmetry(t, s, sp.Symmetries[(positions/2)%n])
		}
	})
	t.Logf("%d positions (%d from the reference data), %d symmetries", positions, len(extra), len(sp.Symmetries))
}

// checkMoves checks that the legal moves come sorted and distinct, that
// each plays, and that a finished game has none.
func checkMoves(t *testing.T, s game.State) {
	t.Helper()
	moves := s.Moves()
	if !slices.IsSorted(moves) || len(slices.Compact(slices.Clone(moves))) != len(moves) {
		t.Fatalf("%s: moves not sorted or not distinct: %v", s, moves)
	}
	res, ending := s.Outcome()
	if res.Over() != (ending != nil) {
		t.Fatalf("%s: outcome %s with ending %v", s, res, ending)
	}
	if res.Over() && len(moves) > 0 {
		t.Fatalf("%s: over (%s, %s) but has moves %v", s, res, ending, moves)
	}
	if !res.Over() && len(moves) == 0 {
		t.Fatalf("%s: no moves but the game goes on", s)
	}
	for _, m := range moves {
		if _, err := s.Play(m); err != nil {
			t.Fatalf("%s: legal move %s does not play: %v", s, m, err)
		}
	}
	if _, err := s.Play("not-a-move"); err == nil {
		t.Fatalf("%s: the move \"not-a-move\" played", s)
	}
}

// checkRandomMove checks that RandomMove draws legal moves only, says
// when there are none, and, when thorough, reaches every legal move about
// as often as the others.
func checkRandomMove(t *testing.T, s game.State, rng *rand.Rand, thorough bool) {
	t.Helper()
	legal := s.Moves()
	draws := 3
	if thorough {
		draws = 60 * len(legal)
	}
	seen := map[string]int{}
	for range max(draws, 1) {
		m, ok := s.RandomMove(rng)
		if ok != (len(legal) > 0) {
			t.Fatalf("%s: RandomMove ok=%v with %d legal moves", s, ok, len(legal))
		}
		if !ok {
			return
		}
		if _, found := slices.BinarySearch(legal, m); !found {
			t.Fatalf("%s: RandomMove drew %s, which is not legal", s, m)
		}
		seen[m]++
	}
	if !thorough {
		return
	}
	for _, m := range legal {
		// Each count is binomial with mean 60; 20 is over five standard
		// deviations below it, 110 over six above.
		if seen[m] < 20 || seen[m] > 110 {
			t.Fatalf("%s: RandomMove drew %s %d times in %d, expected about 60", s, m, seen[m], draws)
		}
	}
}

// checkPerft checks that perft to depth 2 equals the sum of divide's
// counts and of the children's perft to depth 1.
func checkPerft(t *testing.T, s game.State) {
	t.Helper()
	counts, err := s.Divide(context.Background(), 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	var sum, children uint64
	for _, c := range counts {
		sum += c.Nodes
		next, err := s.Play(c.Move)
		if err != nil {
			t.Fatal(err)
		}
		children += next.Perft(1)
	}
	if total := s.Perft(2); total != sum || total != children {
		t.Fatalf("%s: perft 2 = %d, divide sums to %d, the children's perft 1 to %d", s, total, sum, children)
	}
}

// checkSymmetry checks that symmetry y maps s's moves to the moves of the
// mapped position, and each position after a move to the mapped one's.
func checkSymmetry(t *testing.T, s game.State, y game.Symmetry) {
	t.Helper()
	if res, _ := s.Outcome(); res.Over() {
		return // who won is history, not the board: nothing to map
	}
	ys, err := s.Rules().ParsePosition(y.Position(s.String()))
	if err != nil {
		t.Fatalf("%s under %s: %v", s, y.Name, err)
	}
	if y.State != nil {
		// The typed map is the text's, hash included.
		img := y.State(s)
		if img == nil || img.String() != ys.String() || img.Hash() != ys.Hash() {
			t.Fatalf("%s under %s: State gives %v, the text %s", s, y.Name, img, ys)
		}
	}
	var mapped []string
	for _, m := range s.Moves() {
		mapped = append(mapped, y.Move(m))
	}
	slices.Sort(mapped)
	if got := ys.Moves(); !slices.Equal(got, mapped) {
		t.Fatalf("%s under %s (%s): moves\n got %v\nwant %v", s, y.Name, ys, got, mapped)
	}
	for _, m := range s.Moves() {
		next, _ := s.Play(m)
		ynext, err := ys.Play(y.Move(m))
		if err != nil {
			t.Fatalf("%s under %s: %s: %v", s, y.Name, y.Move(m), err)
		}
		r1, _ := next.Outcome()
		r2, _ := ynext.Outcome()
		if y.SwapsSides {
			r2 = r2.Swapped()
		}
		if r1 != r2 {
			t.Fatalf("%s %s under %s: outcome %s, mapped %s", s, m, y.Name, r1, r2)
		}
		if !r1.Over() && ynext.String() != y.Position(next.String()) {
			t.Fatalf("%s %s under %s: got %s, want %s", s, m, y.Name, ynext, y.Position(next.String()))
		}
	}
}

// testRecords writes and reads back games in every record format: random
// games from the start, one from a later start, and one resigned.
func testRecords(t *testing.T, sp *game.Spec) {
	r := defaultRules(t, sp)
	rng := rand.New(rand.NewPCG(9, uint64(len(sp.Name))))
	var cases []*game.Game
	for i := range 6 {
		cases = append(cases, RandomGame(t, r.Start(), rng, 10+rng.IntN(200)))
		if i == 4 {
			later := RandomGame(t, r.Start(), rng, 6).Position()
			cases = append(cases, RandomGame(t, later, rng, 30))
		}
	}
	resigned := RandomGame(t, r.Start(), rng, 3)
	if res, _ := resigned.Result(); !res.Over() {
		if err := resigned.End(resigned.Position().Side(), game.Resignation); err != nil {
			t.Fatal(err)
		}
	}
	cases = append(cases, resigned)
	date := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for _, f := range record.Formats(sp) {
		if f.Write == nil || f.Read == nil {
			t.Errorf("format %s cannot both write and read", f.Name)
			continue
		}
		for i, g := range cases {
			in := game.Transcript{Game: g, Players: [2]string{"Ann", "level:3"}, Date: date}
			text, err := f.Write(in)
			if err != nil {
				t.Fatalf("%s game %d: write: %v", f.Name, i, err)
			}
			out, err := f.Read(text)
			if err != nil {
				t.Fatalf("%s game %d: read: %v\n%s", f.Name, i, err, text)
			}
			r1, e1 := g.Result()
			r2, e2 := out.Game.Result()
			switch {
			case out.Game.Start().String() != g.Start().String():
				t.Errorf("%s game %d: start %s, want %s", f.Name, i, out.Game.Start(), g.Start())
			case !slices.Equal(out.Game.Moves(), g.Moves()):
				t.Errorf("%s game %d: moves %v, want %v", f.Name, i, out.Game.Moves(), g.Moves())
			case r1 != r2 || e1 != e2:
				t.Errorf("%s game %d: result %s (%s), want %s (%s)", f.Name, i, r2, e2, r1, e1)
			case out.Players != in.Players || !out.Date.Equal(date):
				t.Errorf("%s game %d: players %q on %v, want %q on %v", f.Name, i, out.Players, out.Date, in.Players, date)
			}
		}
		if _, err := f.Read("this is not a record"); err == nil {
			t.Errorf("format %s read a line of prose", f.Name)
		}
	}
}

// RandomGame plays up to n random moves from start (fewer when the game
// ends first).
func RandomGame(t testing.TB, start game.State, rng *rand.Rand, n int) *game.Game {
	t.Helper()
	g := game.NewGame(start)
	for range n {
		if res, _ := g.Result(); res.Over() {
			break
		}
		moves := g.Position().Moves()
		if err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

func testAI(t *testing.T, g *games.Game) {
	if err := g.AI.Check(); err != nil {
		t.Fatal(err)
	}
	r := defaultRules(t, g.Spec)
	start := r.Start()
	ev := g.AI.Evaluation()
	f, err := ev.Features(start)
	if err != nil || len(f) != len(ev.Names) || len(ev.Weights) != len(ev.Names) {
		t.Errorf("features of the start: %v (%v), want %d", f, err, len(ev.Names))
	}
	if _, err := g.AI.ForcedResult(context.Background(), start, 3, 100_000); err != nil {
		t.Errorf("ForcedResult on the start: %v", err)
	}
	names := []string{"random", "greedy", "alphabeta", "mcts"}
	for lv := 1; lv <= 8; lv++ {
		names = append(names, fmt.Sprintf("level:%d", lv))
	}
	for _, b := range g.AI.Baselines() {
		names = append(names, b.Name)
	}
	plies := 6
	if testing.Short() {
		plies = 2
	}
	for i, name := range names {
		p, err := games.NewPlayer(name, r, ai.Config{Seed: int64(i + 1), HashMB: 1})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		selfPlay(t, name, p, game.NewGame(start), plies)
	}
	if _, err := games.NewPlayer("nobody", r, ai.Config{}); err == nil {
		t.Error("an unknown player was made")
	}
}

// selfPlay plays up to plies moves of p against itself, each checked by
// the rules, within a small budget a move.
func selfPlay(t *testing.T, name string, p ai.Player, g *game.Game, plies int) {
	t.Helper()
	for range plies {
		if res, _ := g.Result(); res.Over() {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		m, err := p.Move(ctx, g, ai.Limits{MoveTime: 30 * time.Millisecond, Nodes: 20_000})
		cancel()
		if err != nil {
			t.Fatalf("%s at %s: %v", name, g.Position(), err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("%s played %s at %s: %v", name, m, g.Position(), err)
		}
	}
}

// testEngineProtocol chooses the game in a UGI engine by each of its names
// and has it play from the start.
func testEngineProtocol(t *testing.T, sp *game.Spec) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	other := games.Default().Spec
	if other == sp {
		other = games.All()[len(games.All())-1].Spec
	}
	done := make(chan error, 1)
	go func() {
		done <- ugi.NewEngine(games.Catalog, other.New(other.Defaults()), outW).Run(context.Background(), inR)
		outW.Close()
	}()
	lines := make(chan string, 1000)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	expect := func(prefix string) string {
		t.Helper()
		timeout := time.After(30 * time.Second)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the engine ended before %q", prefix)
				}
				if strings.HasPrefix(l, prefix) {
					return l
				}
			case <-timeout:
				t.Fatalf("no %q from the engine within 30 s", prefix)
			}
		}
	}
	send := func(l string) {
		if _, err := io.WriteString(inW, l+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send("ugi")
	if l := expect("option name game"); !strings.Contains(l, "var "+sp.Name) {
		t.Errorf("the game option %q does not offer %s", l, sp.Name)
	}
	start := sp.New(sp.Defaults()).Start()
	for _, name := range append([]string{sp.Name}, sp.Aliases...) {
		send("setoption name game value " + name)
		send("position startpos")
		send("go depth 1")
		move := strings.TrimPrefix(expect("bestmove"), "bestmove ")
		if _, err := start.Play(move); err != nil {
			t.Errorf("setoption game %s: bestmove %q is not a move of %s's start: %v", name, move, sp.Title, err)
		}
	}
	send("quit")
	inW.Close()
	if err := <-done; err != nil {
		t.Error(err)
	}
}
