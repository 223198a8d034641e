package archive

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// openArchive opens a new database of backend with the archive's indexer
// set, as the server sets it.
func openArchive(t *testing.T, backend string) store.Store {
	t.Helper()
	st := storetest.Open(t, backend)
	st.SetArchiveIndexer(Index)
	st.SetIndexErrorHandler(func(id string, err error) { t.Errorf("game %s not archived: %v", id, err) })
	return st
}

// playRandom plays a game in the store the way the server does: created,
// then move by move (AddMove), with takebacks (TakeBack) along the way,
// and ended by the rules, a resignation, a draw by agreement, or an abort,
// as rng chooses. It returns the game's last row.
func playRandom(t *testing.T, ctx context.Context, st store.Store, rng *rand.Rand, id string, rules game.Rules, users [2]string) *store.Game {
	t.Helper()
	now := int64(1_000_000 + rng.IntN(1_000_000))
	g := &store.Game{
		ID: id, Game: rules.Spec().Name, Rules: rules.Settings().String(), Start: rules.Start().String(), Opponent: "human",
		Players: [2]string{"p-" + users[0], "p-" + users[1]}, Users: users, Public: true,
		Status: store.Playing, Result: "*", Position: rules.Start().String(), DrawOffer: -1, RematchBy: -1, TakebackBy: -1,
		Created: now, Updated: now, Rated: rng.IntN(2) == 0, Ratings: [2]string{fmt.Sprint(1200 + rng.IntN(800)), fmt.Sprint(1200+rng.IntN(800)) + "?"},
	}
	if rng.IntN(3) == 0 {
		g.ClockInitial, g.ClockIncrement = 3*60e9, 2e9
	}
	if err := st.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	hist := game.NewGame(rules.Start())
	limit := 10 + rng.IntN(60)
	for len(hist.Moves()) < limit {
		if res, _ := hist.Result(); res.Over() {
			break
		}
		if len(hist.Moves()) > 2 && rng.IntN(12) == 0 {
			// A takeback of one or two moves.
			n := 1 + rng.IntN(2)
			for range n {
				hist.Undo()
			}
			g.Moves = len(hist.Moves())
			g.Position = hist.Position().String()
			g.Updated++
			if err := st.TakeBack(ctx, g, g.Moves); err != nil {
				t.Fatal(err)
			}
			continue
		}
		m, ok := hist.Position().RandomMove(rng)
		if !ok {
			break
		}
		if err := hist.Play(m); err != nil {
			t.Fatal(err)
		}
		g.Moves++
		g.Position = hist.Position().String()
		g.Updated++
		if res, why := hist.Result(); res.Over() {
			g.Status, g.Result, g.Reason = store.Finished, res.String(), why.String()
		}
		if err := st.AddMove(ctx, g, store.Move{Ply: g.Moves - 1, Move: m, PlayedAt: g.Updated}); err != nil {
			t.Fatal(err)
		}
	}
	if g.Status == store.Finished {
		return g
	}
	g.Updated++
	switch rng.IntN(4) {
	case 0:
		g.Status, g.Reason = store.Aborted, "aborted"
	case 1:
		g.Status, g.Result, g.Reason = store.Finished, "1/2-1/2", "agreement"
	default:
		g.Status, g.Result, g.Reason = store.Finished, []string{"1-0", "0-1"}[rng.IntN(2)], "resignation"
	}
	if err := st.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	// A write after the end (a rematch offer) archives nothing again.
	g.RematchBy = 0
	g.Updated += 5
	if err := st.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	return g
}

// firstMove returns the first move of a finished game of rules, as
// stored, and false for another game or one without moves.
func firstMove(t *testing.T, ctx context.Context, st store.Store, g *store.Game, rules game.Rules) (string, bool) {
	t.Helper()
	if g.Status != store.Finished || g.Game != rules.Spec().Name {
		return "", false
	}
	moves, err := st.Moves(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) == 0 {
		return "", false
	}
	return moves[0].Move, true
}

// naiveStart recounts, from the games' rows and moves, the explorer's
// answer at rules' start: move (canonical) -> "games wins draws losses",
// without the archive's code but FrameOf.
func naiveStart(t *testing.T, ctx context.Context, st store.Store, rows []*store.Game, rules game.Rules) map[string]string {
	t.Helper()
	f := FrameOf(rules.Start())
	count := map[string][4]int{}
	for _, g := range rows {
		first, ok := firstMove(t, ctx, st, g, rules)
		if !ok {
			continue
		}
		m := f.Move(first)
		c := count[m]
		c[0]++
		switch g.Result {
		case "1-0":
			c[1]++
		case "1/2-1/2":
			c[2]++
		default:
			c[3]++
		}
		count[m] = c
	}
	out := map[string]string{}
	for m, c := range count {
		out[m] = fmt.Sprint(c[0], c[1], c[2], c[3])
	}
	return out
}

// TestArchiveMatchesRecount: random games played to every kind of end,
// with takebacks, on both databases: the archive holds each finished game
// once and no aborted one, matches a recount of every table (Verify), and
// its start position's moves match a naive count.
func TestArchiveMatchesRecount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		st := openArchive(t, backend)
		rng := rand.New(rand.NewPCG(7, 8))
		var rows []*store.Game
		users := []string{"ann", "bob", "cat", ""}
		for i := range 60 {
			gm := games.All()[i%len(games.All())]
			rules := gm.Spec.New(gm.Spec.Defaults())
			u := [2]string{users[rng.IntN(len(users))], users[rng.IntN(len(users))]}
			rows = append(rows, playRandom(t, ctx, st, rng, fmt.Sprintf("g%03d", i), rules, u))
		}
		finished, aborted := 0, 0
		for _, g := range rows {
			switch g.Status {
			case store.Finished:
				finished++
			case store.Aborted:
				aborted++
			}
		}
		c, err := st.ArchiveCounts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if int(c.Games) != finished {
			t.Errorf("%d games archived, %d finished (and %d aborted)", c.Games, finished, aborted)
		}
		if aborted == 0 {
			t.Error("no game was aborted: the test tests less than it says")
		}
		r, err := Verify(ctx, st, t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !r.OK() || r.Games != finished || len(r.Failed) > 0 {
			t.Errorf("verify: %+v", r)
		}
		for _, gm := range games.All() {
			rules := gm.Spec.New(gm.Spec.Defaults())
			want := naiveStart(t, ctx, st, rows, rules)
			ms, err := st.ExplorerMoves(ctx, FrameOf(rules.Start()).Key, store.ExplorerFilter{})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, m := range ms {
				// The first player moves at the start: its wins are 1-0.
				got[m.Move] = fmt.Sprint(m.Games, m.Wins, m.Draws, m.Losses)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: the start's moves\n got %v\nwant %v", gm.Spec.Name, got, want)
			}
		}
		// A rebuild gives the same archive.
		before := dump(t, ctx, st)
		n, failed, err := Rebuild(ctx, st, nil)
		if err != nil || n != finished || len(failed) > 0 {
			t.Fatalf("rebuild: %d games, %v, %v", n, failed, err)
		}
		if after := dump(t, ctx, st); after != before {
			t.Errorf("the rebuilt archive differs:\n%s\nwas\n%s", after, before)
		}
		// A tampered count is found.
		if _, err := st.IndexGames(ctx, []store.IndexedGame{{Game: &store.Game{ID: "ghost", Game: "magneton", Status: store.Finished, Result: "1-0", Updated: 1},
			Entry: &store.ArchiveEntry{Speed: "untimed", Moves: []store.ArchiveMove{{Pos: 1, Move: "a1"}}}}}); err != nil {
			t.Fatal(err)
		}
		if r, err := Verify(ctx, st, t.TempDir(), nil); err != nil || r.OK() {
			t.Errorf("verify after a ghost game: %+v, %v", r, err)
		}
	})
}

// dump returns the archive's tables as text, sorted.
func dump(t *testing.T, ctx context.Context, st store.Store) string {
	t.Helper()
	var lines []string
	if err := st.DumpArchive(ctx, func(table, row string) error {
		lines = append(lines, table+" "+row)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// TestArchiveFollowsAccounts: a guest's finished games, claimed by the
// account it signs up for, join that account's repertoire; a deleted
// account's repertoire goes and its games stay under the deleted player's
// name; after each, the archive matches its recount. Both databases.
func TestArchiveFollowsAccounts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		st := openArchive(t, backend)
		rng := rand.New(rand.NewPCG(9, 9))
		rules, err := games.Rules("magneton")
		if err != nil {
			t.Fatal(err)
		}
		start := FrameOf(rules.Start()).Key
		var finished int
		for i := range 6 {
			g := playRandom(t, ctx, st, rng, fmt.Sprintf("c%d", i), rules, [2]string{"", "bob"})
			if g.Status == store.Finished {
				finished++
			}
		}
		// The guest's seats: playRandom leaves Guests empty, so set them
		// as the server does for a guest.
		for i := range 6 {
			g, err := st.Game(ctx, fmt.Sprintf("c%d", i))
			if err != nil {
				t.Fatal(err)
			}
			g.Guests[0] = "guesthash"
			if err := st.UpdateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		ann := &store.User{ID: "ann", Name: "Ann", Created: 1}
		if err := st.CreateUser(ctx, ann); err != nil {
			t.Fatal(err)
		}
		if before, err := st.RepertoireMoves(ctx, "ann", start); err != nil || len(before) != 0 {
			t.Fatalf("ann's repertoire before the claim: %v, %v", before, err)
		}
		if _, err := st.ClaimGuestGames(ctx, "guesthash", ann); err != nil {
			t.Fatal(err)
		}
		rep, err := st.RepertoireMoves(ctx, "ann", start)
		if err != nil {
			t.Fatal(err)
		}
		own := 0
		for _, m := range rep {
			if m.Mine {
				own += m.Games
			}
		}
		if finished == 0 || own != finished {
			t.Errorf("ann's own first moves in %d games, %d finished", own, finished)
		}
		if r, err := Verify(ctx, st, t.TempDir(), nil); err != nil || !r.OK() {
			t.Errorf("verify after the claim: %+v, %v", r, err)
		}
		if err := st.DeleteUser(ctx, "ann"); err != nil {
			t.Fatal(err)
		}
		if rep, err := st.RepertoireMoves(ctx, "ann", start); err != nil || len(rep) != 0 {
			t.Errorf("a deleted account's repertoire: %v, %v", rep, err)
		}
		if found, _, err := st.SearchGames(ctx, store.GameSearch{Player: store.DeletedPlayer}); err != nil || len(found) != finished {
			t.Errorf("the deleted player's games: %d found, %d finished, %v", len(found), finished, err)
		}
		if r, err := Verify(ctx, st, t.TempDir(), nil); err != nil || !r.OK() {
			t.Errorf("verify after the deletion: %+v, %v", r, err)
		}
	})
}

// TestArchiveRecentRows: games end on two instances of one database at
// once while both merge the archive's recent rows into its big tables (in
// the background, and by MergeArchive in a loop): every game passes
// through the recent rows and is merged once, the explorer counts each
// game once whether or not it is merged yet, and the archive matches its
// recount. Both databases.
func TestArchiveRecentRows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		url := storetest.URL(t, backend)
		var sts [2]store.Store
		for i := range sts {
			st, err := store.Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			st.SetArchiveIndexer(Index)
			st.SetIndexErrorHandler(func(id string, err error) { t.Errorf("game %s not archived: %v", id, err) })
			sts[i] = st
		}
		rules, err := games.Rules("magneton")
		if err != nil {
			t.Fatal(err)
		}
		start := FrameOf(rules.Start()).Key
		stop := make(chan struct{})
		mergeErr := make(chan error, 1)
		go func() {
			defer close(mergeErr)
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := sts[1].MergeArchive(ctx); err != nil {
					mergeErr <- err
					return
				}
			}
		}()
		var (
			rows      []*store.Game
			unmerged  int
			recounted = func() map[string]string { return naiveStart(t, ctx, sts[0], rows, rules) }
		)
		rng := rand.New(rand.NewPCG(11, 12))
		users := []string{"ann", "bob", ""}
		for i := range 24 {
			st := sts[i%2]
			g := playRandom(t, ctx, st, rng, fmt.Sprintf("r%02d", i), rules, [2]string{users[rng.IntN(3)], users[rng.IntN(3)]})
			rows = append(rows, g)
			// Asked right after the game's end, before the merger's delay
			// is up (most often): the recent rows count.
			ms, err := sts[i%2].ExplorerMoves(ctx, start, store.ExplorerFilter{})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, m := range ms {
				got[m.Move] = fmt.Sprint(m.Games, m.Wins, m.Draws, m.Losses)
			}
			if want := recounted(); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("after game %d, the start's moves\n got %v\nwant %v", i, got, want)
			}
			if got, want := repertoireAtStart(t, ctx, st, start), naiveRepertoire(t, ctx, st, rows, rules, "ann"); got != want {
				t.Fatalf("after game %d, ann's repertoire at the start\n got %s\nwant %s", i, got, want)
			}
			if found, _, err := st.SearchGames(ctx, store.GameSearch{Pos: start, Limit: 200}); err != nil {
				t.Fatal(err)
			} else if g.Status == store.Finished && !containsGame(found, g.ID) {
				t.Fatalf("game %s, just ended, is not found by the start position", g.ID)
			}
			if g.Status == store.Finished {
				unmerged++
			}
		}
		close(stop)
		if err := <-mergeErr; err != nil {
			t.Fatal(err)
		}
		for _, st := range sts {
			if _, err := st.MergeArchive(ctx); err != nil {
				t.Fatal(err)
			}
		}
		merged := sts[0].ArchiveMergeStats().Games + sts[1].ArchiveMergeStats().Games
		if unmerged == 0 || merged != int64(unmerged) {
			t.Errorf("%d games merged, %d finished", merged, unmerged)
		}
		if r, err := Verify(ctx, sts[0], t.TempDir(), nil); err != nil || !r.OK() || r.Games != unmerged {
			t.Errorf("verify: %+v, %v", r, err)
		}
	})
}

func containsGame(gs []store.ArchiveGame, id string) bool {
	for _, g := range gs {
		if g.ID == id {
			return true
		}
	}
	return false
}

// repertoireAtStart returns ann's repertoire at the start as text.
func repertoireAtStart(t *testing.T, ctx context.Context, st store.Store, start int64) string {
	t.Helper()
	ms, err := st.RepertoireMoves(ctx, "ann", start)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range ms {
		out = append(out, fmt.Sprint(m.Move, " mine=", m.Mine, " ", m.Games, m.Wins, m.Draws, m.Losses))
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

// naiveRepertoire recounts an account's repertoire at the start from the
// games' rows and moves: the first move of each finished game it played,
// once for each seat it held (its own in seat 0, which moves first), with
// the result from that seat's view.
func naiveRepertoire(t *testing.T, ctx context.Context, st store.Store, rows []*store.Game, rules game.Rules, user string) string {
	t.Helper()
	f := FrameOf(rules.Start())
	type key struct {
		move string
		mine bool
	}
	count := map[key][4]int{}
	for _, g := range rows {
		first, ok := firstMove(t, ctx, st, g, rules)
		if !ok {
			continue
		}
		for seat, u := range g.Users {
			if u != user {
				continue
			}
			k := key{f.Move(first), seat == 0}
			c := count[k]
			c[0]++
			switch {
			case g.Result == "1/2-1/2":
				c[2]++
			case (g.Result == "1-0") == (seat == 0):
				c[1]++
			default:
				c[3]++
			}
			count[k] = c
		}
	}
	var out []string
	for k, c := range count {
		out = append(out, fmt.Sprint(k.move, " mine=", k.mine, " ", c[0], c[1], c[2], c[3]))
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}
