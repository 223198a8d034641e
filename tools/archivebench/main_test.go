package main

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/internal/archiveseed"
	"github.com/magneton-games/magneton/server/archive"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// seeded opens a new database of backend with n games of seed 3 in it,
// archived, as tools/seedarchive writes them.
func seeded(t *testing.T, backend string, n int) (string, store.Store, []store.SeededGame) {
	t.Helper()
	ctx := context.Background()
	url := storetest.URL(t, backend)
	st, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	st.SetArchiveIndexer(archive.Index)
	w, err := archiveseed.NewWorld(3, []string{"magneton", "tumbling-down"}, 20, 400)
	if err != nil {
		t.Fatal(err)
	}
	var sgs []store.SeededGame
	for i := range n {
		sg, err := w.Play(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		sgs = append(sgs, sg)
	}
	if err := st.(store.Seeder).SeedGames(ctx, sgs); err != nil {
		t.Fatal(err)
	}
	return url, st, sgs
}

// TestAnswerMatchesACount: the explorer's answer that the benchmark
// times, for the start of each game and for the positions after each
// first move (Black to move), without a filter and with each of the
// benchmark's, on the seeded games, is the count of the games' next
// moves made from the games themselves: by the legal move, with the
// results for White and Black.
func TestAnswerMatchesACount(t *testing.T) {
	ctx := context.Background()
	_, st, sgs := seeded(t, "sqlite", 80)
	type key struct {
		pos  string // the position's text, the same for mirror images only by chance
		move string // the canonical move
	}
	for _, fl := range filters {
		// want counts the games: for each game and each position that
		// is a start or follows a first move, the canonical next move
		// and the result (White's wins, draws, Black's).
		want := map[key][4]int{}
		ask := map[string]game.State{}
		for _, sg := range sgs {
			g := sg.Game
			if g.Status != store.Finished || len(sg.Moves) < 2 || !selects(fl.f, g) {
				continue
			}
			rules, _ := games.Rules(g.Game, g.Rules)
			s := rules.Start()
			for ply := range 2 {
				f := archive.FrameOf(s)
				k := key{fmt.Sprint(f.Key), f.Move(sg.Moves[ply].Move)}
				c := want[k]
				c[0]++
				switch g.Result {
				case "1-0":
					c[1]++
				case "1/2-1/2":
					c[2]++
				default:
					c[3]++
				}
				want[k] = c
				ask[k.pos] = s
				var err error
				if s, err = s.Play(sg.Moves[ply].Move); err != nil {
					t.Fatal(err)
				}
			}
		}
		if len(want) < 10 {
			t.Fatalf("%s: only %d moves to compare", fl.name, len(want))
		}
		got := map[key][4]int{}
		ex := &explorer{ex: &archive.Explorer{Store: st}}
		for pos, s := range ask {
			a, err := ex.answer(ctx, s, fl.f)
			if err != nil {
				t.Fatal(err)
			}
			f := archive.FrameOf(s)
			for _, l := range a.Moves {
				if !slices.Contains(s.Moves(), l.Move) {
					t.Errorf("%s: %s is not a legal move of %s", fl.name, l.Move, s)
				}
				got[key{pos, f.Move(l.Move)}] = [4]int{l.Games, l.White, l.Draws, l.Black}
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: the explorer's answers\n got %v\nwant %v", fl.name, got, want)
		}
	}
}

// selects reports whether an explorer filter selects a game, by the
// game's row alone.
func selects(f store.ExplorerFilter, g *store.Game) bool {
	if f.Rated && !g.Rated {
		return false
	}
	if len(f.Speeds) > 0 && !strings.Contains(strings.Join(f.Speeds, " "), archive.Speed(g.ClockInitial, g.ClockIncrement, g.PerMove)) {
		return false
	}
	if f.MinBand > 0 || f.MaxBand > 0 {
		sum, n := 0, 0
		for _, r := range g.Ratings {
			var v int
			if _, err := fmt.Sscan(strings.TrimSuffix(r, "?"), &v); err == nil && v > 0 {
				sum, n = sum+v, n+1
			}
		}
		if n == 0 {
			return false
		}
		band := sum / n / archive.BandWidth * archive.BandWidth
		if band < f.MinBand || f.MaxBand > 0 && band > f.MaxBand {
			return false
		}
	}
	return true
}

// TestRunSmall: the whole benchmark, on 60 games, for seconds, on both
// databases: every part of the report is there, no query failed, and
// the archive still matches its recount (the games ended without the
// indexer were archived after).
func TestRunSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tools/loadtest and plays live games")
	}
	lt := filepath.Join(t.TempDir(), "loadtest")
	build := exec.Command("go", "build", "-o", lt, "github.com/magneton-games/magneton/tools/loadtest")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build tools/loadtest: %v\n%s", err, out)
	}
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		url, st, _ := seeded(t, backend, 60)
		o := options{db: url, loadtest: lt, live: 2, rate: 4, spectators: 1, quiet: time.Second, duration: 2 * time.Second, qps: 20,
			index: 6, seed: 3, seeded: 60, accounts: 20, plyTen: 2, sample: 60}
		var out bytes.Buffer
		if err := run(ctx, o, &out); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		report := out.String()
		for _, want := range []string{"| archive_moves |", "the archive's tables", "magneton start", "tumbling-down ply 10, #1",
			"| process | start |", "| process | ply 10 |", "| http | start |", "| http | ply 10 |", "quiet, with the indexer", "under load, with the indexer", "set-up:"} {
			if !strings.Contains(report, want) {
				t.Errorf("the report lacks %q:\n%s", want, report)
			}
		}
		for _, l := range strings.Split(report, "\n") {
			if strings.HasPrefix(l, "| process |") || strings.HasPrefix(l, "| http |") {
				if f := strings.Split(l, "|"); strings.TrimSpace(f[len(f)-2]) != "0" {
					t.Errorf("queries failed: %s\n%s", l, report)
				}
			}
		}
		r, err := archive.Verify(ctx, st, t.TempDir(), nil)
		if err != nil || !r.OK() {
			t.Errorf("verify after the benchmark: %+v, %v", r, err)
		}
		t.Log(report)
	})
}
