package archive_test

import (
	"context"
	"encoding/json"
	"fmt"
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
	"github.com/magneton-games/magneton/server/archive/archivetest"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// searchAll asks the search with q page after page until no more, and
// returns the games' ids in order and the first game of each page.
func (s *site) searchAll(c *http.Client, q url.Values) ([]string, []archive.FoundGame) {
	s.t.Helper()
	var ids []string
	var all []archive.FoundGame
	for page := 1; ; page++ {
		q.Set("page", fmt.Sprint(page))
		var a archive.SearchAnswer
		if code, body := s.get(c, "/api/archive/games?"+q.Encode(), &a); code != http.StatusOK {
			s.t.Fatalf("search %s: %d %s", q.Encode(), code, body)
		}
		if a.Page != page || len(a.Games) > archive.SearchPage || (a.More && len(a.Games) != archive.SearchPage) {
			s.t.Fatalf("search %s: page %d of %d games, more %v", q.Encode(), a.Page, len(a.Games), a.More)
		}
		for _, g := range a.Games {
			ids = append(ids, g.ID)
		}
		all = append(all, a.Games...)
		if !a.More {
			return ids, all
		}
	}
}

// TestSearchGames: the search's answers, page after page, equal the
// seeded games filtered and sorted in the test, on both databases: by
// player (in any case), opponent, result from the player's view, dates,
// game and rules, source and position (a game's mirror image too); the
// oldest first; a private game only to its players.
func TestSearchGames(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		s := startSite(t, backend, unlimited)
		ctx := context.Background()
		ann, annID := s.signup("ann")
		_, bobID := s.signup("bob")
		_, catID := s.signup("cat")
		people := []struct{ name, id string }{{"ann", annID}, {"bob", bobID}, {"cat", catID}, {"Guest-0042", ""}}
		rng := rand.New(rand.NewPCG(41, 5))
		const day = int64(24 * time.Hour / time.Millisecond)
		start := int64(1767225600000) // 2026-01-01 UTC
		var gs []archivetest.Game
		for i := range 70 {
			gm, settings := "magneton", ""
			switch i % 7 {
			case 3:
				settings = "weak-force"
			case 5:
				gm = "tumbling"
			}
			rules, _ := games.Rules(gm, settings)
			g := randomGames(t, rng, rules, "", 1)[0]
			g.ID = fmt.Sprintf("s%03d", i)
			a, b := rng.IntN(len(people)), rng.IntN(len(people)-1)
			if b >= a {
				b++
			}
			g.Players = [2]string{people[a].name, people[b].name}
			g.Users = [2]string{people[a].id, people[b].id}
			if g.Source != "" {
				g.Users = [2]string{}
			}
			g.Ended = start + int64(i)*day/4 + int64(rng.IntN(1000))
			g.Private = g.Source == "" && i%11 == 0
			gs = append(gs, g)
		}
		tg, _ := games.Lookup("tumbling")
		tumbling := tg.Spec.Name
		// A game and its mirror image reach the same position.
		m := archivetest.Game{ID: "m1", Game: "magneton", Moves: []string{"c2", "f6", "b7"}, Result: "1-0", Players: [2]string{"ann", "bob"},
			Users: [2]string{annID, bobID}, Ended: start + 30*day}
		mr, _ := games.Rules("magneton", "")
		gs = append(gs, m, mirror(m, "m2", &mr.Spec().Symmetries[2]))
		gs[len(gs)-1].Ended = start + 31*day
		if err := archivetest.Add(ctx, s.st, gs...); err != nil {
			t.Fatal(err)
		}
		results := map[string]string{}
		for _, g := range gs {
			results[g.ID] = finalResult(t, g)
		}
		// reached says whether game g reached the position after c2 (or
		// an image of it) and at which ply.
		p := play(t, mr, "c2").String()
		reached := func(g archivetest.Game) (int, bool) {
			if rules, _ := games.Rules(g.Game, g.Rules); rules.Spec() != mr.Spec() || rules.Settings().String() != mr.Settings().String() {
				return 0, false
			}
			s := mr.Start()
			for ply := 0; ; ply++ {
				if s.String() == p || slices.ContainsFunc(mr.Spec().Symmetries, func(y game.Symmetry) bool { return y.Position(s.String()) == p }) {
					return ply, true
				}
				if ply == len(g.Moves) {
					return 0, false
				}
				s, _ = s.Play(g.Moves[ply])
			}
		}
		has := func(g archivetest.Game, name string) bool {
			return strings.EqualFold(g.Players[0], name) || strings.EqualFold(g.Players[1], name)
		}
		view := func(g archivetest.Game, name string) string {
			r := results[g.ID]
			if r == "1/2-1/2" {
				return "draw"
			}
			if (r == "1-0") == strings.EqualFold(g.Players[0], name) {
				return "win"
			}
			return "loss"
		}
		for _, tc := range []struct {
			query  string
			viewer string // "ann" for Ann's browser, else a guest's
			keep   func(g archivetest.Game) bool
		}{
			{"", "", func(archivetest.Game) bool { return true }},
			{"player=ANN", "", func(g archivetest.Game) bool { return has(g, "ann") }},
			{"player=ann&opponent=Bob", "", func(g archivetest.Game) bool { return has(g, "ann") && has(g, "bob") }},
			{"opponent=guest-0042", "", func(g archivetest.Game) bool { return has(g, "guest-0042") }},
			{"player=ann&result=win", "", func(g archivetest.Game) bool { return has(g, "ann") && view(g, "ann") == "win" }},
			{"player=bob&result=loss", "", func(g archivetest.Game) bool { return has(g, "bob") && view(g, "bob") == "loss" }},
			{"player=cat&result=draw", "", func(g archivetest.Game) bool { return has(g, "cat") && view(g, "cat") == "draw" }},
			{"result=0-1", "", func(g archivetest.Game) bool { return results[g.ID] == "0-1" }},
			{"from=2026-01-04&to=2026-01-09", "", func(g archivetest.Game) bool {
				return g.Ended >= start+3*day && g.Ended < start+9*day
			}},
			{"game=magneton&rules=weak-force", "", func(g archivetest.Game) bool {
				return g.Rules == "force=weak,movement=any-magnet,no-moves=loses,repetition=3,win=mover-only"
			}},
			{"game=tumbling", "", func(g archivetest.Game) bool { gm, _ := games.Lookup(g.Game); return gm.Spec.Name == tumbling }},
			{"source=import", "", func(g archivetest.Game) bool { return g.Source == store.SourceImport }},
			{"source=site&sort=oldest", "", func(g archivetest.Game) bool { return g.Source == "" }},
			{"game=magneton&moves=c2", "", func(g archivetest.Game) bool { _, ok := reached(g); return ok }},
			{"game=magneton&position=" + url.QueryEscape(p), "ann", func(g archivetest.Game) bool { _, ok := reached(g); return ok }},
			{"player=ann", "ann", func(g archivetest.Game) bool { return has(g, "ann") }},
		} {
			q, _ := url.ParseQuery(tc.query)
			var want []archivetest.Game
			for _, g := range gs {
				visible := !g.Private || tc.viewer != "" && has(g, tc.viewer)
				if visible && tc.keep(g) {
					want = append(want, g)
				}
			}
			slices.SortFunc(want, func(a, b archivetest.Game) int {
				if a.Ended != b.Ended {
					if a.Ended > b.Ended {
						return -1
					}
					return 1
				}
				return strings.Compare(b.ID, a.ID)
			})
			if q.Get("sort") == "oldest" {
				slices.Reverse(want)
			}
			var wantIDs []string
			for _, g := range want {
				wantIDs = append(wantIDs, g.ID)
			}
			c := browserOf()
			if tc.viewer == "ann" {
				c = ann
			}
			got, found := s.searchAll(c, q)
			if !slices.Equal(got, wantIDs) {
				t.Errorf("%s (viewer %q):\n got %v\nwant %v", tc.query, tc.viewer, got, wantIDs)
			}
			if len(wantIDs) == 0 {
				t.Errorf("%s: no game expected: the seed tests little", tc.query)
			}
			for _, fg := range found {
				g := gs[slices.IndexFunc(gs, func(g archivetest.Game) bool { return g.ID == fg.ID })]
				if fg.Result != results[g.ID] || fg.Plies != len(g.Moves) || fg.Players != g.Players || fg.Source != sourceOf(g) || fg.Ended != g.Ended {
					t.Errorf("%s: %+v for %+v", tc.query, fg, g)
				}
				if ply, ok := reached(g); q.Has("moves") && (!ok || fg.Ply == nil || *fg.Ply != ply) {
					t.Errorf("%s: %s reached the position at ply %v, want %d", tc.query, fg.ID, fg.Ply, ply)
				}
			}
		}
		// The first page of everything has 50 and says there are more.
		var a archive.SearchAnswer
		s.get(nil, "/api/archive/games", &a)
		if len(a.Games) != archive.SearchPage || !a.More {
			t.Errorf("the first page: %d games, more %v", len(a.Games), a.More)
		}
	})
}

// TestSearchRefusals: what the search refuses, with its code and a
// message that says what and where.
func TestSearchRefusals(t *testing.T) {
	s := startSite(t, "sqlite", unlimited)
	for _, tc := range []struct{ query, code, msg string }{
		{"result=win", "archive_result", `result "win": a win or a loss is a player's: name the player`},
		{"player=ann&result=won", "archive_param", `result "won"`},
		{"from=2026-13-01", "archive_param", `from "2026-13-01": want a day written YYYY-MM-DD`},
		{"to=yesterday", "archive_param", `to "yesterday"`},
		{"from=2026-02-01&to=2026-01-01", "archive_dates", "from 2026-02-01 is after to 2026-01-01"},
		{"game=go", "archive_game", `game "go": no such game`},
		{"rules=weak-force", "archive_param", `game "": want a game, for the rules or the position`},
		{"game=magneton&rules=weak", "archive_rules", `rules "weak"`},
		{"game=magneton&position=x", "bad_position", "position: "},
		{"game=magneton&moves=a1+a1", "illegal_move", "move 2: "},
		{"source=chess.com", "archive_param", `source "chess.com": want site, boardspace or import`},
		{"sort=best", "archive_param", `sort "best": want newest or oldest`},
		{"page=0", "archive_param", `page "0": want a page from 1 to 1000`},
		{"page=1001", "archive_param", `page "1001"`},
		{"player=" + strings.Repeat("a", 65), "archive_param", "want a name of at most 64 characters"},
	} {
		code, body := s.get(nil, "/api/archive/games?"+tc.query, nil)
		var e struct{ Error, Code string }
		json.Unmarshal([]byte(body), &e)
		if code != http.StatusBadRequest || e.Code != tc.code || !strings.Contains(e.Error, tc.msg) {
			t.Errorf("%.80s: %d %s, want 400 %s saying %q", tc.query, code, body, tc.code, tc.msg)
		}
	}
}
