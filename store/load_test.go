package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/magneton-games/magneton/store"
)

// TestDBLoad writes moves at 500 a second over 500 games for 10 s and
// checks that the 99th percentile of a move's commit stays under 50 ms
// (the budget of the play server's load test for a whole move, of which
// the commit is a part) and that the write-ahead log stays under 64 MB
// (checkpoints keep up). It runs only when DBLOAD names a scratch folder:
//
//	DBLOAD=/tmp/dbload go test ./store -run TestDBLoad -v
func TestDBLoad(t *testing.T) {
	if os.Getenv("DBLOAD") == "" {
		t.Skip("set DBLOAD to a scratch folder to run")
	}
	dir := os.Getenv("DBLOAD")
	os.RemoveAll(dir)
	ctx := context.Background()
	s, err := store.Open(ctx, "sqlite:"+filepath.Join(dir, "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const games = 500
	gs := make([]*store.Game, games)
	for i := range gs {
		gs[i] = sample(fmt.Sprintf("game%012d", i), store.Playing, 1)
		gs[i].Position = "8/8/8/3w4/8/8/8/8 w 12 12 some more text here"
		if err := s.CreateGame(ctx, gs[i]); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	end := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(2 * time.Millisecond)
	i := 0
	for now := range tick.C {
		if now.After(end) {
			break
		}
		g := gs[i%games]
		ply := i / games
		i++
		wg.Go(func() {
			t0 := time.Now()
			g2 := *g
			g2.Moves = ply + 1
			g2.Updated = time.Now().UnixMilli()
			if err := s.AddMove(ctx, &g2, store.Move{Ply: ply, Move: "d4", PlayedAt: 1}); err != nil {
				t.Error(err)
			}
			d := time.Since(t0)
			mu.Lock()
			lat = append(lat, d)
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.Sort(lat)
	st, _ := os.Stat(filepath.Join(dir, "x.db-wal"))
	var wal int64
	if st != nil {
		wal = st.Size()
	}
	p99 := lat[len(lat)*99/100]
	t.Logf("n=%d p50=%v p90=%v p99=%v max=%v wal=%d", len(lat), lat[len(lat)/2], lat[len(lat)*9/10], p99, lat[len(lat)-1], wal)
	if len(lat) < 4000 {
		t.Errorf("only %d moves written in 10 s, want about 5000", len(lat))
	}
	if p99 > 50*time.Millisecond {
		t.Errorf("p99 commit latency %v, want under 50 ms", p99)
	}
	if wal > 64<<20 {
		t.Errorf("the write-ahead log grew to %d bytes", wal)
	}
}
