package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/archive"
	"github.com/magneton-games/magneton/store"
)

// TestArchiveCommands: verify finds a sound archive sound and a tampered
// one different (exit 1, naming the table); rebuild mends it; both on a
// missing database say so.
func TestArchiveCommands(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "magneton.db")
	st, err := store.OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	st.SetArchiveIndexer(archive.Index)
	rules, _ := games.Rules("magneton")
	g := &store.Game{ID: "g1", Game: "magneton", Rules: rules.Settings().String(), Start: rules.Start().String(), Opponent: "human",
		Status: store.Playing, Result: "*", Position: rules.Start().String(), DrawOffer: -1, RematchBy: -1, TakebackBy: -1, Created: 1, Updated: 1}
	if err := st.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	for i, m := range []string{"d4", "e5", "c3"} {
		g.Moves, g.Updated = i+1, int64(i+2)
		if err := st.AddMove(ctx, g, store.Move{Ply: i, Move: m, PlayedAt: g.Updated}); err != nil {
			t.Fatal(err)
		}
	}
	g.Status, g.Result, g.Reason, g.Updated = store.Finished, "1-0", "resignation", 10
	if err := st.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	db := "sqlite:" + path
	if out, errs, code := runCmd(t, "", "archive", "verify", "--quiet", "--db", db); code != 0 || !strings.Contains(out, "the archive matches its recount") {
		t.Errorf("verify: exit %d: %s%s", code, out, errs)
	}
	// A ghost game in the counts.
	if _, err := st.IndexGames(ctx, []store.IndexedGame{{Game: &store.Game{ID: "ghost", Game: "magneton", Status: store.Finished, Result: "1-0", Updated: 1},
		Entry: &store.ArchiveEntry{Speed: "untimed", Moves: []store.ArchiveMove{{Pos: 1, Move: "a1"}}}}}); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCmd(t, "", "archive", "verify", "--quiet", "--db", db)
	if code != 1 || !strings.Contains(out, "archive_moves") || !strings.Contains(out, "DIFFERENT") || !strings.Contains(errs, "magneton archive rebuild mends it") {
		t.Errorf("verify of a tampered archive: exit %d: %s%s", code, out, errs)
	}
	if out, errs, code := runCmd(t, "", "archive", "rebuild", "--quiet", "--db", db); code != 0 || !strings.Contains(out, "1 games indexed") {
		t.Errorf("rebuild: exit %d: %s%s", code, out, errs)
	}
	if out, errs, code := runCmd(t, "", "archive", "verify", "--quiet", "--db", db); code != 0 {
		t.Errorf("verify after the rebuild: exit %d: %s%s", code, out, errs)
	}
	st.Close()
	if _, errs, code := runCmd(t, "", "archive", "verify", "--data", filepath.Join(t.TempDir(), "none")); code == 0 || !strings.Contains(errs, "no site's database") {
		t.Errorf("verify of no database: exit %d: %s", code, errs)
	}
}
