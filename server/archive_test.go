package server

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/server/archive"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// TestArchiveFromPlay: games played over the game socket to every kind of
// end (by the rules, resignation, agreement, abort, a takeback on the way,
// against the computer), on both databases: the archive holds each
// finished game once and no aborted one, and matches its recount
// (archive.Verify) — as it does after the server restarts on the same
// database.
func TestArchiveFromPlay(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		url := storetest.URL(t, backend)
		dir := t.TempDir()
		s := startServerOn(t, dir, url)
		rng := rand.New(rand.NewPCG(41, 1))
		finished, aborted := 0, 0
		for i := range 8 {
			a, b := s.user(), s.user()
			gameName := []string{"magneton", "tumbling-down"}[i%2]
			c := a.create(map[string]any{"game": gameName, "opponent": "human", "color": "first", "public": true})
			if _, code := b.join(c.ID, map[string]string{}); code != http.StatusOK {
				t.Fatalf("join: %d", code)
			}
			sa, sb := a.connect(c.ID), b.connect(c.ID)
			sa.until("playing", func(st state) bool { return st.Status == "playing" })
			socks := [2]*sock{sa, sb}
			ending := i % 4
			if ending == 3 {
				// An abort before the second player's first move.
				sa.move(sa.moves(0).Legal[0])
				sb.moves(1)
				sb.send(map[string]string{"type": "abort"})
				sa.until("aborted", func(st state) bool { return st.Status == "aborted" })
				aborted++
				continue
			}
			plies := 6 + rng.IntN(10)
			tookBack := false
			st := sa.moves(0)
			for n := 0; n < plies && st.Status == "playing"; n++ {
				mover := socks[st.Turn]
				mover.move(st.Legal[rng.IntN(len(st.Legal))])
				st = mover.moves(n + 1)
				if n == 3 && !tookBack {
					// A takeback, asked and granted (a casual game).
					asker := socks[1-st.Turn]
					asker.send(map[string]string{"type": "takeback", "action": "offer"})
					socks[st.Turn].until("takeback asked", func(x state) bool { return x.Takeback != nil })
					socks[st.Turn].send(map[string]string{"type": "takeback", "action": "accept"})

					st = asker.until("taken back", func(x state) bool { return len(x.Moves) == n })
					tookBack = true
					n--
				}
			}
			if st.Status == "playing" {
				switch ending {
				case 0:
					socks[st.Turn].send(map[string]string{"type": "resign"})
				case 1:
					socks[st.Turn].send(map[string]string{"type": "draw", "action": "offer"})
					socks[1-st.Turn].until("draw offered", func(x state) bool { return x.DrawOffer != nil && *x.DrawOffer >= 0 })
					socks[1-st.Turn].send(map[string]string{"type": "draw", "action": "accept"})
				case 2:
					socks[st.Turn].send(map[string]string{"type": "resign"})
				}
				sa.until("finished", func(x state) bool { return x.Status == "finished" })
			}
			finished++
		}
		// Two games against the computer, resigned after its answer.
		for range 2 {
			u := s.user()
			c := u.create(map[string]any{"game": "magneton", "opponent": "computer", "level": 1, "color": "first"})
			ws := u.connect(c.ID)
			ws.openAgainstComputer()
			ws.send(map[string]string{"type": "resign"})
			ws.until("finished", func(x state) bool { return x.Status == "finished" })
			finished++
		}
		checkArchive(t, s.st, finished)
		s.stop()

		// The same database after a restart.
		s2 := startServerOn(t, dir, url)
		checkArchive(t, s2.st, finished)
		_ = aborted
	})
}

// checkArchive checks that the archive holds want games and matches its
// recount.
func checkArchive(t *testing.T, st store.Store, want int) {
	t.Helper()
	ctx := context.Background()
	c, err := st.ArchiveCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if int(c.Games) != want {
		t.Errorf("%d games archived, want %d", c.Games, want)
	}
	r, err := archive.Verify(ctx, st, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK() || r.Games != want || len(r.Failed) > 0 {
		var b strings.Builder
		for _, tc := range r.Tables {
			b.WriteString(tc.Table + " ")
		}
		t.Errorf("verify: %d games, ok %v, failed %v, tables %+v", r.Games, r.OK(), r.Failed, r.Tables)
	}
}
