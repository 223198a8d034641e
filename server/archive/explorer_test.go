package archive_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server"
	"github.com/magneton-games/magneton/server/archive"
	"github.com/magneton-games/magneton/server/archive/archivetest"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// site is a play server on a test database, served by httptest.
type site struct {
	t   *testing.T
	url string
	st  store.Store
}

// startSite starts the play server on a new database of backend; tune
// changes its configuration first.
func startSite(t *testing.T, backend string, tune func(*server.Config)) *site {
	t.Helper()
	st := storetest.Open(t, backend)
	cfg := server.Config{Store: st, Static: fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>t</title>")}},
		Logger: slog.New(slog.DiscardHandler), ComputerMoveTime: 20 * time.Millisecond}
	if tune != nil {
		tune(&cfg)
	}
	srv, err := server.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := srv.Close(ctx); err != nil {
			t.Error(err)
		}
	})
	return &site{t: t, url: ts.URL, st: st}
}

// unlimited lifts the per-address limit of the archive's questions, for
// tests that ask many.
func unlimited(cfg *server.Config) {
	cfg.Limits.ArchivePerMinute, cfg.Limits.ArchiveBurst = -1, -1
}

// browserOf is a client with its own cookies.
func browserOf() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: 20 * time.Second}
}

// get asks path with client c (nil: a new one) and decodes a 200 answer
// into out; it returns the status and the body.
func (s *site) get(c *http.Client, path string, out any) (int, string) {
	s.t.Helper()
	if c == nil {
		c = browserOf()
	}
	resp, err := c.Get(s.url + path)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	if resp.StatusCode == http.StatusOK && out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			s.t.Fatalf("GET %s: %v in %s", path, err, b)
		}
	}
	return resp.StatusCode, string(b)
}

// explore asks the explorer with the query q and returns its answer.
func (s *site) explore(c *http.Client, q url.Values) *archive.Answer {
	s.t.Helper()
	var a archive.Answer
	if code, body := s.get(c, "/api/explorer?"+q.Encode(), &a); code != http.StatusOK {
		s.t.Fatalf("explorer %s: %d %s", q.Encode(), code, body)
	}
	return &a
}

// signup makes an account and returns its browser and its id.
func (s *site) signup(name string) (*http.Client, string) {
	s.t.Helper()
	c := browserOf()
	resp, err := c.Post(s.url+"/api/account/signup", "application/json",
		strings.NewReader(fmt.Sprintf(`{"name": %q, "password": "correct horse battery"}`, name)))
	if err != nil {
		s.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		s.t.Fatalf("signup %s: %d", name, resp.StatusCode)
	}
	u, err := s.st.UserByName(context.Background(), name)
	if err != nil {
		s.t.Fatal(err)
	}
	return c, u.ID
}

// tally is a move's line as the tests compare them: games, White's
// wins, draws, Black's wins, and the average rating (-1 for none).
type tally struct{ games, white, draws, black, rating int }

func lines(a *archive.Answer) map[string]tally {
	out := map[string]tally{}
	for _, m := range a.Moves {
		r := -1
		if m.Rating != nil {
			r = *m.Rating
		}
		if _, dup := out[m.Move]; dup {
			panic("a move listed twice: " + m.Move)
		}
		out[m.Move] = tally{m.Games, m.White, m.Draws, m.Black, r}
	}
	return out
}

// finalResult is a seeded game's result: its moves', or the one given.
func finalResult(t *testing.T, g archivetest.Game) string {
	t.Helper()
	rules, err := games.Rules(g.Game, g.Rules)
	if err != nil {
		t.Fatal(err)
	}
	h := game.NewGame(rules.Start())
	for _, m := range g.Moves {
		if err := h.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if res, _ := h.Result(); res.Over() {
		return res.String()
	}
	return g.Result
}

// leading reads a shown rating's leading digits ("1500?" is 1500).
func leading(s string) int {
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, _ := strconv.Atoi(s[:end])
	return n
}

// recount counts, from the games' moves and without the archive, the
// moves played from position p up to the board's symmetries in the
// games keep selects, in the asker's frame: each game's position is
// matched by the texts of its images (game.Symmetry.Position), its move
// mapped by the same symmetry (the least image when several map the
// position onto p), its result turned to p's colours. seat, when 0 or 1,
// counts the repertoire of the player in that seat of every game kept:
// the key is then the move and whether that player made it, and the
// tally's white and black are the player's wins and losses.
func recount(t *testing.T, p game.State, gs []archivetest.Game, keep func(archivetest.Game) bool, seatOf func(archivetest.Game) int) map[string]tally {
	t.Helper()
	sp := p.Rules().Spec()
	want := p.String()
	type rsum struct{ sum, n int }
	out := map[string]tally{}
	ratings := map[string]rsum{}
	for _, g := range gs {
		if keep != nil && !keep(g) {
			continue
		}
		rules, err := games.Rules(g.Game, g.Rules)
		if err != nil {
			t.Fatal(err)
		}
		if rules.Spec() != sp || rules.Settings().String() != p.Rules().Settings().String() {
			continue
		}
		result := finalResult(t, g)
		seat := -1
		if seatOf != nil {
			seat = seatOf(g)
		}
		rating, rn := 0, 0
		for _, r := range g.Ratings {
			if v := leading(r); v > 0 {
				rating, rn = rating+v, rn+1
			}
		}
		if rn > 0 {
			rating /= rn
		}
		seen := map[string]bool{}
		s := rules.Start()
		for _, m := range g.Moves {
			best := ""
			if s.String() == want {
				best = m
			}
			for _, y := range sp.Symmetries {
				if y.Position(s.String()) == want {
					if im := y.Move(m); best == "" || im < best {
						best = im
					}
				}
			}
			mover := s.Side()
			if next, err := s.Play(m); err != nil {
				t.Fatal(err)
			} else {
				s = next
			}
			if best == "" {
				continue
			}
			key := best
			if seat >= 0 {
				key += fmt.Sprintf(" mine=%v", int(mover) == seat)
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			c := out[key]
			c.games++
			// The result for the mover in the game, who is the side
			// to move at p (p.Side()) in p's colours.
			won, lost := result == "1-0", result == "0-1"
			if mover == game.Second {
				won, lost = lost, won
			}
			switch {
			case seat >= 0:
				// The seat's player's view.
				pw, pl := result == "1-0", result == "0-1"
				if seat == 1 {
					pw, pl = pl, pw
				}
				if pw {
					c.white++
				} else if pl {
					c.black++
				} else {
					c.draws++
				}
			case won == (p.Side() == game.First) && (won || lost):
				c.white++
			case won || lost:
				c.black++
			default:
				c.draws++
			}
			out[key] = c
			if rn > 0 {
				r := ratings[key]
				ratings[key] = rsum{r.sum + rating, r.n + 1}
			}
		}
	}
	for k, c := range out {
		c.rating = -1
		if r := ratings[k]; r.n > 0 && seatOf == nil {
			c.rating = (r.sum + r.n/2) / r.n
		}
		out[k] = c
	}
	return out
}

// play returns the position after moves from rules' start.
func play(t *testing.T, rules game.Rules, moves ...string) game.State {
	t.Helper()
	s := rules.Start()
	for _, m := range moves {
		var err error
		if s, err = s.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// mirror is game g under symmetry y: its image move by move.
func mirror(g archivetest.Game, id string, y *game.Symmetry) archivetest.Game {
	m := g
	m.ID = id
	m.Moves = nil
	for _, mv := range g.Moves {
		m.Moves = append(m.Moves, y.Move(mv))
	}
	return m
}

// randomGames plays n random games of rules from rng, of 2 to 12 moves,
// with random players' ratings, clocks, sources and results.
func randomGames(t *testing.T, rng *rand.Rand, rules game.Rules, prefix string, n int) []archivetest.Game {
	t.Helper()
	var out []archivetest.Game
	clocks := [][2]time.Duration{{0, 0}, {3 * time.Minute, 2 * time.Second}, {10 * time.Minute, 5 * time.Second}}
	for i := range n {
		g := archivetest.Game{ID: fmt.Sprintf("%s%03d", prefix, i), Game: rules.Spec().Name, Rules: rules.Settings().String()}
		h := game.NewGame(rules.Start())
		for len(h.Moves()) < 2+rng.IntN(11) {
			if res, _ := h.Result(); res.Over() {
				break
			}
			m, _ := h.Position().RandomMove(rng)
			if err := h.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		g.Moves = slices.Clone(h.Moves())
		if res, _ := h.Result(); !res.Over() {
			g.Result = []string{"1-0", "0-1", "1/2-1/2"}[rng.IntN(3)]
		}
		if rng.IntN(4) > 0 {
			g.Ratings = [2]string{fmt.Sprint(1100 + rng.IntN(900)), fmt.Sprint(1100+rng.IntN(900)) + "?"}
		}
		g.Rated = g.Ratings[0] != "" && rng.IntN(2) == 0
		c := clocks[rng.IntN(len(clocks))]
		g.Initial, g.Increment = c[0], c[1]
		if rng.IntN(3) == 0 {
			g.Source = store.SourceImport
			g.Rated = false
		}
		out = append(out, g)
	}
	return out
}

// speedOf is the speed class of the test's clocks (archive.Speed by hand).
func speedOf(g archivetest.Game) string {
	switch g.Initial {
	case 0:
		return "untimed"
	case 3 * time.Minute:
		return "blitz"
	}
	return "rapid"
}

// band is the rating band of a game (0 for none).
func band(g archivetest.Game) int {
	sum, n := 0, 0
	for _, r := range g.Ratings {
		if v := leading(r); v > 0 {
			sum, n = sum+v, n+1
		}
	}
	if n == 0 {
		return 0
	}
	return sum / n / 200 * 200
}

func sourceOf(g archivetest.Game) string {
	if g.Source == "" {
		return store.SourceSite
	}
	return g.Source
}

// TestExplorerCounts: random games and a game with its mirror image, on
// both databases: the explorer's lines at the start and at positions of
// the games, with each filter, equal a recount from the games' moves by
// position texts, and a game and its mirror image count in one row, shown
// in each asker's frame.
func TestExplorerCounts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		s := startSite(t, backend, unlimited)
		ctx := context.Background()
		rules, _ := games.Rules("magneton", "")
		rng := rand.New(rand.NewPCG(41, 1))
		gs := randomGames(t, rng, rules, "r", 40)
		// A game and its image under the board's first symmetry.
		y := &rules.Spec().Symmetries[0]
		a := archivetest.Game{ID: "a", Game: "magneton", Moves: []string{"c2", "f6", "b7", "g3"}, Result: "0-1",
			Ratings: [2]string{"1500", "1700"}, Rated: true}
		gs = append(gs, a, mirror(a, "a-image", y))
		if err := archivetest.Add(ctx, s.st, gs...); err != nil {
			t.Fatal(err)
		}
		positions := [][]string{nil, a.Moves[:1], a.Moves[:2], a.Moves[:3], mirror(a, "", y).Moves[:1], mirror(a, "", y).Moves[:2]}
		for _, g := range gs[:8] {
			positions = append(positions, g.Moves[:1], g.Moves[:2])
		}
		filters := []struct {
			query string
			keep  func(archivetest.Game) bool
		}{
			{"", nil},
			{"sources=site", func(g archivetest.Game) bool { return g.Source == "" }},
			{"sources=import,boardspace", func(g archivetest.Game) bool { return g.Source != "" }},
			{"rated=1", func(g archivetest.Game) bool { return g.Rated }},
			{"speeds=blitz,untimed", func(g archivetest.Game) bool { return speedOf(g) != "rapid" }},
			{"minBand=1400&maxBand=1600", func(g archivetest.Game) bool { b := band(g); return b >= 1400 && b <= 1600 }},
			{"minBand=1600", func(g archivetest.Game) bool { return band(g) >= 1600 }},
			{"maxBand=1200", func(g archivetest.Game) bool { b := band(g); return b > 0 && b <= 1200 }},
			{"sources=site&rated=1&speeds=rapid", func(g archivetest.Game) bool {
				return g.Source == "" && g.Rated && speedOf(g) == "rapid"
			}},
		}
		nonEmpty := 0
		for _, moves := range positions {
			p := play(t, rules, moves...)
			for _, f := range filters {
				q, _ := url.ParseQuery(f.query)
				q.Set("game", "magneton")
				if len(moves) > 0 {
					q.Set("moves", strings.Join(moves, " "))
				}
				ans := s.explore(nil, q)
				got, want := lines(ans), recount(t, p, gs, f.keep, nil)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("after %v, %q:\n got %v\nwant %v", moves, f.query, got, want)
				}
				if len(got) > 0 {
					nonEmpty++
				}
				if ans.Position != p.String() || ans.Turn != int(p.Side()) {
					t.Errorf("after %v: position %q turn %d, want %q %d", moves, ans.Position, ans.Turn, p.String(), p.Side())
				}
				total := 0
				for _, l := range got {
					total += l.games
				}
				if ans.Games != total || ans.White+ans.Draws+ans.Black != total {
					t.Errorf("after %v: totals %d (%d/%d/%d), lines sum %d", moves, ans.Games, ans.White, ans.Draws, ans.Black, total)
				}
				if !slices.IsSortedFunc(ans.Moves, func(x, y archive.MoveLine) int { return y.Games - x.Games }) {
					t.Errorf("after %v: the moves are not the most played first: %+v", moves, ans.Moves)
				}
			}
		}
		if nonEmpty < len(positions)*3 {
			t.Errorf("only %d of %d answers list moves: the test tests little", nonEmpty, len(positions)*len(filters))
		}
		// The game and its image: one row each time, in each one's frame.
		for i := 1; i < len(a.Moves); i++ {
			for _, g := range []archivetest.Game{a, mirror(a, "", y)} {
				q := url.Values{"game": {"magneton"}, "moves": {strings.Join(g.Moves[:i], ",")}}
				got := lines(s.explore(nil, q))
				if l, ok := got[g.Moves[i]]; !ok || l.games < 2 {
					t.Errorf("after %v: %s, the game's move and its image's, is %+v in %v", g.Moves[:i], g.Moves[i], l, got)
				}
			}
		}
		// The position given as a text is the position after the moves.
		p := play(t, rules, a.Moves[:2]...)
		byText := s.explore(nil, url.Values{"game": {"magneton"}, "position": {p.String()}})
		byMoves := s.explore(nil, url.Values{"game": {"magneton"}, "moves": {strings.Join(a.Moves[:2], " ")}})
		if fmt.Sprint(lines(byText)) != fmt.Sprint(lines(byMoves)) || byText.Position != byMoves.Position {
			t.Errorf("by text %+v, by moves %+v", byText, byMoves)
		}
	})
}

// TestExplorerRepertoire: mine=1 answers an account's own games from a
// position, its moves and its opponents', with the results from its view
// and in White's and Black's, on both databases; a guest is refused.
func TestExplorerRepertoire(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		s := startSite(t, backend, unlimited)
		ctx := context.Background()
		ann, annID := s.signup("ann")
		_, bobID := s.signup("bob")
		rules, _ := games.Rules("magneton", "")
		rng := rand.New(rand.NewPCG(41, 2))
		gs := randomGames(t, rng, rules, "r", 30)
		for i := range gs {
			// Ann in either seat of most games, against Bob or a guest.
			switch i % 4 {
			case 0:
				gs[i].Users = [2]string{annID, bobID}
			case 1:
				gs[i].Users = [2]string{bobID, annID}
			case 2:
				gs[i].Users = [2]string{"", annID}
			}
			gs[i].Source = ""
		}
		// Ann plays c2 as White and answers c2 as Black.
		gs = append(gs,
			archivetest.Game{ID: "w1", Game: "magneton", Moves: []string{"c2", "f6"}, Result: "1-0", Users: [2]string{annID, ""}},
			archivetest.Game{ID: "b1", Game: "magneton", Moves: []string{"c2", "f6"}, Result: "1-0", Users: [2]string{bobID, annID}},
			archivetest.Game{ID: "b2", Game: "magneton", Moves: []string{"c2", "b7"}, Result: "1/2-1/2", Users: [2]string{"", annID}})
		if err := archivetest.Add(ctx, s.st, gs...); err != nil {
			t.Fatal(err)
		}
		seatOf := func(g archivetest.Game) int { return slices.Index(g.Users[:], annID) }
		keep := func(g archivetest.Game) bool { return seatOf(g) >= 0 }
		positions := [][]string{nil, {"c2"}}
		for _, g := range gs[:6] {
			positions = append(positions, g.Moves[:1])
		}
		for _, moves := range positions {
			p := play(t, rules, moves...)
			q := url.Values{"game": {"magneton"}, "mine": {"1"}, "moves": {strings.Join(moves, " ")}}
			ans := s.explore(ann, q)
			if !ans.Mine {
				t.Errorf("after %v: the answer is not marked mine", moves)
			}
			got := map[string]tally{}
			for _, m := range ans.Moves {
				if m.Mine == nil || m.Yours == nil || m.Rating != nil {
					t.Fatalf("after %v: a repertoire's line %+v", moves, m)
				}
				got[fmt.Sprintf("%s mine=%v", m.Move, *m.Mine)] = tally{m.Games, m.Yours.Wins, m.Yours.Draws, m.Yours.Losses, -1}
				// Ann's wins are White's when she is White: she is the
				// side to move in her own moves.
				annWhite := (*m.Mine) == (p.Side() == game.First)
				w, b := m.Yours.Wins, m.Yours.Losses
				if !annWhite {
					w, b = b, w
				}
				if m.White != w || m.Black != b || m.Draws != m.Yours.Draws {
					t.Errorf("after %v: %s: White %d Black %d, but Ann (White: %v) %+v", moves, m.Move, m.White, m.Black, annWhite, *m.Yours)
				}
			}
			want := recount(t, p, gs, keep, seatOf)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("after %v:\n got %v\nwant %v", moves, got, want)
			}
		}
		// After c2 Ann played f6 as Black, and her opponents f6 and b7.
		var got []string
		for _, m := range s.explore(ann, url.Values{"game": {"magneton"}, "mine": {"1"}, "moves": {"c2"}}).Moves {
			got = append(got, fmt.Sprintf("%s %v", m.Move, *m.Mine))
		}
		if !slices.Contains(got, "f6 true") || !slices.Contains(got, "f6 false") || !slices.Contains(got, "b7 true") {
			t.Errorf("after c2 Ann's repertoire is %v", got)
		}
		if i := slices.Index(got, "f6 false"); i < slices.Index(got, "b7 true") {
			t.Errorf("after c2: %v, Ann's own moves are not first", got)
		}
		// A guest has no repertoire; mine takes no other filter.
		code, body := s.get(nil, "/api/explorer?game=magneton&mine=1", nil)
		if code != http.StatusUnauthorized || !strings.Contains(body, `"explorer_login"`) {
			t.Errorf("a guest's mine=1: %d %s", code, body)
		}
		code, body = s.get(ann, "/api/explorer?game=magneton&mine=1&rated=1", nil)
		if code != http.StatusBadRequest || !strings.Contains(body, `"explorer_mine_filter"`) {
			t.Errorf("mine=1&rated=1: %d %s", code, body)
		}
	})
}

// TestExplorerProven: a move whose position the book of proven positions
// knows shows its value (Tumbling Down's start is proven: the first
// player wins after a7>a8), other moves none, and a move that ends the
// game its result.
func TestExplorerProven(t *testing.T) {
	s := startSite(t, "sqlite", unlimited)
	ctx := context.Background()
	b, err := games.ProvenBook()
	if err != nil {
		t.Fatal(err)
	}
	rules, _ := games.Rules("tumbling", "")
	start := rules.Start()
	pf, ok := b.Lookup(start, nil)
	if !ok {
		t.Fatal("the book does not know Tumbling Down's start")
	}
	win := pf.Move
	after := play(t, rules, win)
	rng := rand.New(rand.NewPCG(41, 3))
	gs := []archivetest.Game{}
	replies := map[string]bool{}
	for i := range 6 {
		m, _ := after.RandomMove(rng)
		replies[m] = true
		gs = append(gs, archivetest.Game{ID: fmt.Sprint("t", i), Game: "tumbling", Moves: []string{win, m}, Result: "1-0"})
	}
	other := ""
	for _, m := range start.Moves() {
		if next := play(t, rules, m); m != win {
			if _, known := b.Lookup(next, []uint64{start.Hash()}); !known {
				other = m
				break
			}
		}
	}
	gs = append(gs, archivetest.Game{ID: "o", Game: "tumbling", Moves: []string{other}, Result: "0-1"})
	// A Magneton game won by its last move.
	mrules, _ := games.Rules("magneton", "")
	won := wonGame(t, mrules, rng)
	gs = append(gs, archivetest.Game{ID: "won", Game: "magneton", Moves: won})
	if err := archivetest.Add(ctx, s.st, gs...); err != nil {
		t.Fatal(err)
	}
	ans := s.explore(nil, url.Values{"game": {"tumbling"}})
	for _, m := range ans.Moves {
		switch m.Move {
		case win:
			want := pf.Moves - 1 // the winner's moves after its first
			if m.Proven == nil || m.Proven.Winner != 0 || m.Proven.Moves != want {
				t.Errorf("%s: proven %+v, want the first side's win in %d", m.Move, m.Proven, want)
			}
		case other:
			if m.Proven != nil {
				t.Errorf("%s: proven %+v, which the book does not know", m.Move, m.Proven)
			}
		default:
			t.Errorf("the start lists %s", m.Move)
		}
	}
	if len(ans.Moves) != 2 {
		t.Errorf("the start lists %+v, want %s and %s", ans.Moves, win, other)
	}
	// Every reply to the winning move loses by the book.
	ans = s.explore(nil, url.Values{"game": {"tumbling"}, "moves": {win}})
	if len(ans.Moves) != len(replies) {
		t.Errorf("after %s: %d moves, want %d", win, len(ans.Moves), len(replies))
	}
	for _, m := range ans.Moves {
		if m.Proven == nil || m.Proven.Winner != 0 {
			t.Errorf("after %s, %s: proven %+v, want the first side's win", win, m.Move, m.Proven)
		}
	}
	// The winning move of the Magneton game says it ends the game.
	ans = s.explore(nil, url.Values{"game": {"magneton"}, "moves": {strings.Join(won[:len(won)-1], " ")}})
	res := finalResult(t, archivetest.Game{Game: "magneton", Moves: won})
	if len(ans.Moves) != 1 || ans.Moves[0].Result != res || ans.Moves[0].Proven != nil {
		t.Errorf("before the last move: %+v, want %s ending the game %s", ans.Moves, won[len(won)-1], res)
	}
	// After it the game is over: no moves, and the result.
	ans = s.explore(nil, url.Values{"game": {"magneton"}, "moves": {strings.Join(won, " ")}})
	if len(ans.Moves) != 0 || ans.Result != res {
		t.Errorf("after the game: %+v", ans)
	}
}

// wonGame plays random Magneton games until one ends by the rules.
func wonGame(t *testing.T, rules game.Rules, rng *rand.Rand) []string {
	t.Helper()
	for range 1000 {
		h := game.NewGame(rules.Start())
		for len(h.Moves()) < 200 {
			if res, _ := h.Result(); res.Over() {
				return h.Moves()
			}
			m, _ := h.Position().RandomMove(rng)
			if err := h.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Fatal("no random game ended")
	return nil
}

// TestExplorerRefusals: what the explorer refuses, with its code and a
// message that says what and where; and the per-address limit.
func TestExplorerRefusals(t *testing.T) {
	s := startSite(t, "sqlite", unlimited)
	for _, tc := range []struct{ query, code, msg string }{
		{"game=chess", "archive_game", `game "chess": no such game`},
		{"game=magneton&rules=force=medium", "archive_rules", `rules "force=medium"`},
		{"game=magneton&position=zz", "bad_position", "position: "},
		{"game=magneton&moves=d4+d4", "illegal_move", "move 2: "},
		{"game=magneton&moves=d4+zz", "illegal_move", "move 2: "},
		{"game=magneton&sources=site,chess.com", "archive_param", `sources "chess.com": want site, boardspace or import`},
		{"game=magneton&rated=yes", "archive_param", `rated "yes": want 1 or 0`},
		{"game=magneton&speeds=hyperbullet", "archive_param", `speeds "hyperbullet": want bullet, blitz`},
		{"game=magneton&minBand=1450", "archive_param", `minBand "1450": want a multiple of 200 from 0 to 4000`},
		{"game=magneton&maxBand=-200", "archive_param", `maxBand "-200"`},
		{"game=magneton&minBand=1800&maxBand=1400", "archive_bands", "minBand 1800 is above maxBand 1400"},
		{"game=magneton&mine=2", "archive_param", `mine "2"`},
		{"game=magneton&moves=" + strings.Repeat("d4+", archive.MaxExplorerMoves+1), "archive_param", "moves: at most 1000"},
	} {
		code, body := s.get(nil, "/api/explorer?"+tc.query, nil)
		var e struct{ Error, Code string }
		json.Unmarshal([]byte(body), &e)
		if code != http.StatusBadRequest || e.Code != tc.code || !strings.Contains(e.Error, tc.msg) {
			t.Errorf("%.80s: %d %s, want 400 %s saying %q", tc.query, code, body, tc.code, tc.msg)
		}
	}
	// A game over after the moves.
	rng := rand.New(rand.NewPCG(41, 4))
	mrules, _ := games.Rules("magneton", "")
	won := wonGame(t, mrules, rng)
	code, body := s.get(nil, "/api/explorer?game=magneton&moves="+strings.Join(append(won, "a1"), "+"), nil)
	if code != http.StatusBadRequest || !strings.Contains(body, `"play_over"`) || !strings.Contains(body, fmt.Sprintf("move %d a1: the game is over", len(won)+1)) {
		t.Errorf("a move after the end: %d %s", code, body)
	}
}

// TestArchiveLimit: the explorer and the search share a per-address
// bucket; past it they answer 429 with a code, and another address is
// not held up.
func TestArchiveLimit(t *testing.T) {
	s := startSite(t, "sqlite", func(cfg *server.Config) {
		cfg.Limits.ArchivePerMinute, cfg.Limits.ArchiveBurst = 1, 3
	})
	for i, path := range []string{"/api/explorer?game=magneton", "/api/archive/games", "/api/explorer?game=tumbling"} {
		if code, body := s.get(nil, path, nil); code != http.StatusOK {
			t.Fatalf("question %d: %d %s", i+1, code, body)
		}
	}
	for _, path := range []string{"/api/explorer?game=magneton", "/api/archive/games?player=ann"} {
		code, body := s.get(nil, path, nil)
		if code != http.StatusTooManyRequests || !strings.Contains(body, `"archive_fast"`) || !strings.Contains(body, "at most 1 a minute") {
			t.Errorf("%s past the limit: %d %s", path, code, body)
		}
	}
}
