package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/internal/archiveseed"
	"github.com/magneton-games/magneton/server/archive"
	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/store"
)

// indexGame is a game made to time its end: in the database it is being
// played, all its moves made; final is the row that ends it.
type indexGame struct {
	final   *store.Game
	moves   []string
	indexed bool // ended with the indexer set
}

// prepareGames makes n games of the world, from game number from on (the
// first after the seeded ones, so that they are new games of the same
// players), under new ids and as if they ended now, and writes each as
// the server does up to its last move: CreateGame, then AddMove a move
// (32 games at once, which the store's group commit writes together).
func prepareGames(ctx context.Context, st store.Store, w *archiveseed.World, from, n int) ([]*indexGame, error) {
	var out []*indexGame
	for i := from; len(out) < n; i++ {
		sg, err := w.Play(ctx, i)
		if err != nil {
			return nil, err
		}
		if sg.Game.Status != store.Finished || len(sg.Moves) == 0 {
			continue
		}
		g := *sg.Game
		shift := time.Now().UnixMilli() - g.Ended
		g.ID = ids.New()
		g.Created += shift
		g.Updated += shift
		g.ClockAt += shift
		g.Ended = 0
		ig := &indexGame{final: &g}
		for _, m := range sg.Moves {
			ig.moves = append(ig.moves, m.Move)
		}
		out = append(out, ig)
	}
	sem := make(chan struct{}, 32)
	errs := make([]error, len(out))
	var wg sync.WaitGroup
	for k, ig := range out {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[k] = playUpToEnd(ctx, st, ig)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// playUpToEnd writes a game being played and its moves, one AddMove a
// move, as the server does; its end is left to timeIndexing.
func playUpToEnd(ctx context.Context, st store.Store, ig *indexGame) error {
	f := ig.final
	rules, err := games.Rules(f.Game, f.Rules)
	if err != nil {
		return err
	}
	s, err := rules.ParsePosition(f.Start)
	if err != nil {
		return err
	}
	row := *f
	row.Status, row.Result, row.Reason, row.Moves, row.Position = store.Playing, "*", "", 0, f.Start
	row.Remaining = [2]time.Duration{f.ClockInitial, f.ClockInitial}
	row.ClockAt, row.Updated = f.Created, f.Created
	if err := st.CreateGame(ctx, &row); err != nil {
		return err
	}
	at := f.Created
	for ply, m := range ig.moves {
		if s, err = s.Play(m); err != nil {
			return fmt.Errorf("game %s: move %d %s: %w", f.ID, ply+1, m, err)
		}
		at = min(at+1000, f.Updated)
		row.Moves, row.Position, row.Updated = ply+1, s.String(), at
		if err := st.AddMove(ctx, &row, store.Move{Ply: ply, Move: m, PlayedAt: at}); err != nil {
			return err
		}
	}
	return nil
}

// indexTimes are the times of the writes that ended games.
type indexTimes struct {
	with, without []time.Duration // UpdateGame with the indexer, and without
	index         []time.Duration // archive.Index alone
	// merge is what the store's merger did for these games (it moves a
	// game's rows from the archive's recent tables into its big ones a
	// moment after the game ends, outside the game's transaction).
	merge store.ArchiveMergeStats
}

// timeIndexing ends each game with UpdateGame and times it. With toggle,
// every other game is ended without the archive's indexer (set to nil
// for that write: only when nothing else ends games, since they would go
// unarchived too) and the time of archive.Index alone is taken as well;
// otherwise every game is ended with it, pace apart.
func timeIndexing(ctx context.Context, st store.Store, gs []*indexGame, toggle bool, pace time.Duration) (*indexTimes, error) {
	t := &indexTimes{}
	defer st.SetArchiveIndexer(archive.Index)
	before := st.ArchiveMergeStats()
	for k, ig := range gs {
		ig.indexed = !toggle || k%2 == 0
		if toggle {
			if ig.indexed {
				st.SetArchiveIndexer(archive.Index)
			} else {
				st.SetArchiveIndexer(nil)
			}
		}
		t0 := time.Now()
		if err := st.UpdateGame(ctx, ig.final); err != nil {
			return nil, err
		}
		d := time.Since(t0)
		if ig.indexed {
			t.with = append(t.with, d)
		} else {
			t.without = append(t.without, d)
		}
		if toggle {
			t0 = time.Now()
			if _, err := archive.Index(ig.final, ig.moves); err != nil {
				return nil, err
			}
			t.index = append(t.index, time.Since(t0))
		}
		if pace > 0 {
			select {
			case <-time.After(pace):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
	}
	// What the merger has not moved yet, moved now, so that the totals
	// cover every game of the phase.
	if _, err := st.MergeArchive(ctx); err != nil {
		return nil, err
	}
	after := st.ArchiveMergeStats()
	t.merge = store.ArchiveMergeStats{Merges: after.Merges - before.Merges, Games: after.Games - before.Games, Time: after.Time - before.Time}
	return t, nil
}

// indexLeftOut archives the games ended without the indexer.
func indexLeftOut(ctx context.Context, st store.Store, gs []*indexGame) error {
	var batch []store.IndexedGame
	for _, ig := range gs {
		if ig.indexed {
			continue
		}
		e, err := archive.Index(ig.final, ig.moves)
		if err != nil {
			return err
		}
		batch = append(batch, store.IndexedGame{Game: ig.final, Entry: e})
	}
	if _, err := st.IndexGames(ctx, batch); err != nil {
		return fmt.Errorf("archive the games ended without the indexer: %w", err)
	}
	return nil
}
