package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/archive"
	"github.com/magneton-games/magneton/store"
)

// position is a position the explorer is asked about.
type position struct {
	game  string // the game's name
	class string // "start" or "ply 10"
	label string
	state game.State
	// seen is how many of the sampled games reached it (ply 10); games
	// and moves the explorer's answer without a filter: the games that
	// went on from it and the moves played.
	seen, games, moves int
}

// pickPositions returns the start of each game seeded and, for each, the
// n positions at ply 10 reached most often among the first sample
// archived games (in the order of their ids, which is no order of play),
// and one reached once.
func pickPositions(ctx context.Context, st store.Store, n, sample int) ([]*position, error) {
	type seen struct {
		state game.State
		count int
		first int // the order it was first seen in
	}
	byGame := map[string]map[int64]*seen{}
	var order []string
	read := 0
	err := st.ArchiveGames(ctx, "", func(g *store.Game, moves []string) (bool, error) {
		if g.Source != "" || len(moves) <= 10 {
			return true, nil
		}
		read++
		rules, err := games.Rules(g.Game, g.Rules)
		if err != nil {
			return false, err
		}
		s, err := rules.ParsePosition(g.Start)
		if err != nil {
			return false, err
		}
		for _, m := range moves[:10] {
			if s, err = s.Play(m); err != nil {
				return false, fmt.Errorf("game %s: %w", g.ID, err)
			}
		}
		if byGame[g.Game] == nil {
			byGame[g.Game] = map[int64]*seen{}
			order = append(order, g.Game)
		}
		k := archive.FrameOf(s).Key
		p := byGame[g.Game][k]
		if p == nil {
			p = &seen{state: s, first: read}
			byGame[g.Game][k] = p
		}
		p.count++
		return read < sample, nil
	})
	if err != nil {
		return nil, fmt.Errorf("pick the positions at ply 10: %w", err)
	}
	var out []*position
	for _, name := range order {
		rules, err := games.Rules(name)
		if err != nil {
			return nil, err
		}
		out = append(out, &position{game: name, class: "start", label: name + " start", state: rules.Start()})
		all := make([]*seen, 0, len(byGame[name]))
		for _, p := range byGame[name] {
			all = append(all, p)
		}
		slices.SortFunc(all, func(a, b *seen) int {
			if a.count != b.count {
				return b.count - a.count
			}
			return a.first - b.first
		})
		for i, p := range all[:min(n, len(all))] {
			out = append(out, &position{game: name, class: "ply 10", label: fmt.Sprintf("%s ply 10, #%d", name, i+1), state: p.state, seen: p.count})
		}
		if p := all[len(all)-1]; p.count == 1 && len(all) > n {
			out = append(out, &position{game: name, class: "ply 10", label: name + " ply 10, rare", state: p.state, seen: 1})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no archived game of more than 10 moves among the first %d", sample)
	}
	return out, nil
}

// filter is one of the explorer's filters the benchmark asks with.
type filter struct {
	name string
	f    store.ExplorerFilter
}

// filters are asked in turn: everything (the heaviest: every row of the
// position), and the filters of the explorer's form.
var filters = []filter{
	{"all", store.ExplorerFilter{}},
	{"rated, 1400 to 1800", store.ExplorerFilter{Rated: true, MinBand: 1400, MaxBand: 1800}},
	{"blitz and rapid", store.ExplorerFilter{Speeds: []string{"blitz", "rapid"}}},
	{"the site's games", store.ExplorerFilter{Sources: []string{store.SourceSite}}},
}

// explorer asks the explorer about positions, in this process and
// through the server.
type explorer struct {
	ex     *archive.Explorer
	base   string
	client *http.Client
	// http says whether the server answers GET /api/explorer (it
	// answered 501 until the handler was written).
	http bool
}

// answer is the explorer's query path in this process, as the server's
// handler takes it (archive.Explorer.Explore): the position's frame, one
// query of the counts stored for its key, the stored moves translated to
// the position's legal moves, and the book of proven positions' value
// of each.
func (e *explorer) answer(ctx context.Context, s game.State, f store.ExplorerFilter) (*archive.Answer, error) {
	return e.ex.Explore(ctx, archive.Question{Start: s, Filter: f})
}

// explorerURL is the server's explorer's address for a position and a
// filter (docs/protocol.md, "The explorer").
func (e *explorer) explorerURL(s game.State, f store.ExplorerFilter) string {
	q := url.Values{}
	q.Set("game", s.Rules().Spec().Name)
	q.Set("rules", s.Rules().Settings().String())
	q.Set("position", s.String())
	if f.Rated {
		q.Set("rated", "1")
	}
	if len(f.Speeds) > 0 {
		q.Set("speeds", strings.Join(f.Speeds, ","))
	}
	if len(f.Sources) > 0 {
		q.Set("sources", strings.Join(f.Sources, ","))
	}
	if f.MinBand > 0 {
		q.Set("minBand", fmt.Sprint(f.MinBand))
	}
	if f.MaxBand > 0 {
		q.Set("maxBand", fmt.Sprint(f.MaxBand))
	}
	return e.base + "/api/explorer?" + q.Encode()
}

// get asks the server's explorer and reads its whole answer.
func (e *explorer) get(ctx context.Context, s game.State, f store.ExplorerFilter) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.explorerURL(s, f), nil)
	if err != nil {
		return 0, nil, err
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, body, err
}

// describe fills in each position's answer without a filter, and finds
// whether the server's explorer answers, and answers alike.
func (e *explorer) describe(ctx context.Context, ps []*position) error {
	for _, p := range ps {
		a, err := e.answer(ctx, p.state, store.ExplorerFilter{})
		if err != nil {
			return err
		}
		p.moves, p.games = len(a.Moves), a.Games
	}
	code, body, err := e.get(ctx, ps[0].state, store.ExplorerFilter{})
	switch {
	case err != nil:
		return fmt.Errorf("GET /api/explorer: %w", err)
	case code == http.StatusOK:
		var a archive.Answer
		if err := json.Unmarshal(body, &a); err != nil {
			return fmt.Errorf("GET /api/explorer answered 200 with %.200s: %w", body, err)
		}
		if a.Games != ps[0].games || len(a.Moves) != ps[0].moves {
			return fmt.Errorf("GET /api/explorer counts %d games and %d moves at %s, the explorer in this process %d and %d", a.Games, len(a.Moves), ps[0].label, ps[0].games, ps[0].moves)
		}
		e.http = true
	case code == http.StatusNotImplemented:
		e.http = false
	default:
		return fmt.Errorf("GET /api/explorer answered %d: %.300s", code, body)
	}
	return nil
}

// samples are latencies by what was measured.
type samples struct {
	mu     sync.Mutex
	d      map[string][]time.Duration
	errors map[string]int
	first  map[string]error
}

func (s *samples) add(key string, d time.Duration, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.errors[key]++
		if s.first[key] == nil {
			s.first[key] = err
		}
		return
	}
	s.d[key] = append(s.d[key], d)
}

// measure asks the explorer qps times a second on each path (in this
// process, "process"; through the server when it answers, "http") for dur, each query
// about a position drawn in turn from the starts and the ply-10 ones,
// with a filter drawn from filters, each from a goroutine of its own
// (an open loop: a slow answer does not slow the queries down). Each
// path's latencies are kept by the position's class.
func (e *explorer) measure(ctx context.Context, ps []*position, dur time.Duration, qps float64) *samples {
	s := &samples{d: map[string][]time.Duration{}, errors: map[string]int{}, first: map[string]error{}}
	var starts, plies []*position
	for _, p := range ps {
		if p.class == "start" {
			starts = append(starts, p)
		} else {
			plies = append(plies, p)
		}
	}
	paths := []string{"process"}
	if e.http {
		paths = append(paths, "http")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	tick := time.NewTicker(time.Duration(float64(time.Second) / qps / float64(len(paths))))
	defer tick.Stop()
	end := time.NewTimer(dur)
	defer end.Stop()
	var wg sync.WaitGroup
	defer wg.Wait()
	for k := 0; ; k++ {
		select {
		case <-ctx.Done():
			return s
		case <-end.C:
			return s
		case <-tick.C:
		}
		path := paths[k%len(paths)]
		set := starts
		if (k/len(paths))%2 == 1 && len(plies) > 0 {
			set = plies
		}
		p := set[rng.IntN(len(set))]
		f := filters[rng.IntN(len(filters))].f
		wg.Go(func() {
			t0 := time.Now()
			var err error
			if path == "process" {
				_, err = e.answer(ctx, p.state, f)
			} else {
				var code int
				var body []byte
				code, body, err = e.get(ctx, p.state, f)
				if err == nil && code != http.StatusOK {
					err = fmt.Errorf("%d %.200s", code, body)
				}
			}
			s.add(path+" "+p.class, time.Since(t0), err)
		})
	}
}
