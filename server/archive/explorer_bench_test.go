package archive_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/archive"
	"github.com/magneton-games/magneton/store"
)

// benchGames is how many games BenchmarkExplorerHTTP archives.
const benchGames = 2000

// BenchmarkExplorerHTTP: the explorer's answer over HTTP (the handler,
// one query of SQLite, the frame, the book, the JSON) for Magneton's start
// and for a position at ply 10 of an archived game, with benchGames
// random games of 20 to 60 plies archived (IndexGames, the way a rebuild
// writes them). The benchmark of issue 41 (100,000 games, p99, while games
// are played) is the seed tool's; this one is for the request path.
func BenchmarkExplorerHTTP(b *testing.B) {
	s := startSite(b, "sqlite", unlimited)
	ctx := context.Background()
	rules, _ := games.Rules("magneton", "")
	rng := rand.New(rand.NewPCG(41, 6))
	var batch []store.IndexedGame
	var ply10 []string
	for i := range benchGames {
		h := game.NewGame(rules.Start())
		for n := 20 + rng.IntN(41); len(h.Moves()) < n; {
			if res, _ := h.Result(); res.Over() {
				break
			}
			m, _ := h.Position().RandomMove(rng)
			h.Play(m)
		}
		res, _ := h.Result()
		result := res.String()
		if !res.Over() {
			result = []string{"1-0", "0-1", "1/2-1/2"}[rng.IntN(3)]
		}
		g := &store.Game{ID: fmt.Sprintf("bench%011d", i), Game: rules.Spec().Name, Rules: rules.Settings().String(), Start: rules.Start().String(),
			Status: store.Finished, Result: result, Rated: i%2 == 0, Ratings: [2]string{fmt.Sprint(1200 + rng.IntN(800)), "1500"}, Updated: int64(i + 1)}
		e, err := archive.Index(g, h.Moves())
		if err != nil {
			b.Fatal(err)
		}
		batch = append(batch, store.IndexedGame{Game: g, Entry: e})
		if ply10 == nil && len(h.Moves()) >= 10 {
			ply10 = slices.Clone(h.Moves()[:10])
		}
		if len(batch) == 500 || i == benchGames-1 {
			if _, err := s.st.IndexGames(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	c := &http.Client{Timeout: 10 * time.Second}
	for _, bc := range []struct{ name, query string }{
		{"start", url.Values{"game": {"magneton"}}.Encode()},
		{"ply10", url.Values{"game": {"magneton"}, "moves": {strings.Join(ply10, " ")}}.Encode()},
		{"ply10-rated-band", url.Values{"game": {"magneton"}, "moves": {strings.Join(ply10, " ")}, "rated": {"1"}, "minBand": {"1400"}}.Encode()},
	} {
		b.Run(bc.name, func(b *testing.B) {
			get := func() {
				resp, err := c.Get(s.url + "/api/explorer?" + bc.query)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("%d", resp.StatusCode)
				}
			}
			get() // the book is read at the first question
			var times []time.Duration
			for b.Loop() {
				t0 := time.Now()
				get()
				times = append(times, time.Since(t0))
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
