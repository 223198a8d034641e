package server

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// signedUp returns a new browser logged in to a new account.
func (s *testServer) signedUp(name string) *user {
	s.t.Helper()
	u := s.user()
	if a, code := u.account("POST", "/api/account/signup", map[string]string{"name": name, "password": "long enough"}); code != http.StatusOK {
		s.t.Fatalf("sign-up %s: %d %q", name, code, a.Error)
	}
	return u
}

type profile struct {
	Name    string `json:"name"`
	Ratings []struct {
		Game, Family, Display string
		Rating, Games, Wins   int
		Provisional           bool
		History               []struct{ Rating int }
	} `json:"ratings"`
	Record map[string]int `json:"record"`
	Games  []struct {
		ID      string    `json:"id"`
		Rated   bool      `json:"rated"`
		Ratings [2]string `json:"ratings"`
	} `json:"games"`
	Error string `json:"error"`
}

// TestRatedGame: a rated seek between two accounts, from the open list to
// the ratings, the profiles and the PGN download; and every refusal.
func TestRatedGame(t *testing.T) {
	s := startServer(t, t.TempDir())
	defer s.stop()
	ann, bob := s.signedUp("ann"), s.signedUp("bob")
	guest := s.user()
	ratedRefusals(t, ann, guest)
	outOfRange(t, ann, bob)
	c := openSeek(t, ann, guest)
	playRated(t, s, c, bob)
	ratedProfiles(t, s, c, guest)
	ratedRecord(t, s, c)
	newLeaderboard(t, guest)
}

// ratedRefusals: the rated games a guest (guest) or an account (ann) may
// not create, each refused with what is wrong.
func ratedRefusals(t *testing.T, ann, guest *user) {
	for _, tc := range []struct {
		who  *user
		body map[string]any
		code int
		want string
	}{
		{guest, map[string]any{"opponent": "human", "rated": true, "rules": "standard"}, http.StatusForbidden, "log in to play a rated game"},
		{ann, map[string]any{"opponent": "computer", "rated": true}, http.StatusBadRequest, "never rated"},
		{ann, map[string]any{"opponent": "human", "rated": true, "rules": "win=owner-wins"}, http.StatusBadRequest, "a rated game plays one of Magneton's variants (standard, weak-force)"},
		{ann, map[string]any{"opponent": "human", "rated": true, "min_rating": 1800, "max_rating": 1700}, http.StatusBadRequest, "lower bound is above"},
		{ann, map[string]any{"opponent": "human", "min_rating": 1800}, http.StatusBadRequest, "for rated games"},
	} {
		var c created
		if code := tc.who.do("POST", "/api/games", tc.body, &c); code != tc.code || !strings.Contains(c.Error, tc.want) {
			t.Errorf("create %v: %d %q, want %d %q", tc.body, code, c.Error, tc.code, tc.want)
		}
	}
}

// outOfRange: bob may not join a seek of ann's whose range of ratings his
// is outside of.
func outOfRange(t *testing.T, ann, bob *user) {
	high := ann.create(map[string]any{"opponent": "human", "rated": true, "rules": "standard", "public": true, "min_rating": 1600})
	if j, code := bob.join(high.ID, map[string]string{}); code != http.StatusForbidden || !strings.Contains(j.Error, "this game is for ratings 1600 and above; yours is 1500?") {
		t.Errorf("a join outside the range: %d %q", code, j.Error)
	}
}

// openSeek: ann's rated seek is in the open list as such; a guest may not
// join it. It returns the seek.
func openSeek(t *testing.T, ann, guest *user) created {
	c := ann.create(map[string]any{"opponent": "human", "rated": true, "rules": "standard", "public": true, "clock": "5+3", "color": "first"})
	var open struct {
		Games []struct {
			ID      string    `json:"id"`
			Rated   bool      `json:"rated"`
			Family  string    `json:"family"`
			Ratings [2]string `json:"ratings"`
			Clock   string    `json:"clock"`
			Free    int       `json:"free"`
		} `json:"games"`
	}
	guest.do("GET", "/api/games?status=open", nil, &open)
	found := false
	for _, g := range open.Games {
		if g.ID == c.ID {
			found = true
			if !g.Rated || g.Family != "standard" || g.Ratings[0] != "1500?" || g.Clock != "5+3" || g.Free != 1 {
				t.Errorf("the seek in the open list: %+v", g)
			}
		}
	}
	if !found {
		t.Fatalf("the seek is not in the open list: %+v", open)
	}
	if j, code := guest.join(c.ID, map[string]string{}); code != http.StatusForbidden || !strings.Contains(j.Error, "log in to play a rated game") {
		t.Errorf("a guest joining a rated game: %d %q", code, j.Error)
	}
	return c
}

// playRated: ann's account finds its own seat of the seek c from another
// browser, bob joins and resigns, and the game's state shows the ratings
// and their changes.
func playRated(t *testing.T, s *testServer, c created, bob *user) {
	annToo := s.user()
	annToo.account("POST", "/api/account/login", map[string]string{"name": "ann", "password": "long enough"})
	// Ann's account has the first seat on every device: joining from
	// another browser finds it, and never takes the other.
	if j, code := annToo.join(c.ID, map[string]string{}); code != http.StatusOK || j.Seat != 0 {
		t.Errorf("ann joining her own rated game from another browser: %d %+v, want her seat 0", code, j)
	}
	if j, code := bob.join(c.ID, map[string]string{}); code != http.StatusOK || j.Seat != 1 {
		t.Fatalf("bob joins: %d %+v", code, j)
	}
	sb := bob.connect(c.ID)
	st := sb.until("playing", func(st state) bool { return st.Status == "playing" })
	if !st.Rated || st.Sides[0].User != "ann" || st.Sides[1].User != "bob" || st.Sides[0].Rating != "1500?" || st.Sides[1].Rating != "1500?" {
		t.Errorf("the rated game's state: rated %v, sides %+v", st.Rated, st.Sides)
	}
	openHuman(annToo.connect(c.ID), sb)
	sb.send(map[string]string{"type": "resign"})
	st = sb.until("the end", func(st state) bool {
		return st.Status == "finished" && st.Sides[0].RatingDiff != nil && *st.Sides[0].RatingDiff != 0
	})
	if st.Result != "1-0" || *st.Sides[0].RatingDiff <= 0 || *st.Sides[1].RatingDiff >= 0 {
		t.Errorf("after bob resigned: %s, diffs %d %d", st.Result, *st.Sides[0].RatingDiff, *st.Sides[1].RatingDiff)
	}
}

// ratedProfiles: after ann's win over bob in the rated game c, their
// profiles show their ratings, records and games; an unknown player and
// a bad page are refused; ann's games download as PGN.
func ratedProfiles(t *testing.T, s *testServer, c created, guest *user) {
	var p profile
	if code := guest.do("GET", "/api/users/ANN", nil, &p); code != http.StatusOK || p.Name != "ann" || len(p.Ratings) != 1 {
		t.Fatalf("ann's profile: %d %+v", code, p)
	}
	rt := p.Ratings[0]
	if rt.Game != "magneton" || rt.Family != "standard" || rt.Rating <= 1500 || rt.Games != 1 || rt.Wins != 1 || !rt.Provisional || !strings.HasSuffix(rt.Display, "?") || len(rt.History) != 2 || rt.History[0].Rating != 1500 || rt.History[1].Rating != rt.Rating {
		t.Errorf("ann's rating: %+v", rt)
	}
	if p.Record["wins"] != 1 || len(p.Games) != 1 || p.Games[0].ID != c.ID || !p.Games[0].Rated {
		t.Errorf("ann's record and games: %v %+v", p.Record, p.Games)
	}
	var bp profile
	guest.do("GET", "/api/users/bob", nil, &bp)
	if len(bp.Ratings) != 1 || bp.Ratings[0].Rating >= 1500 || bp.Record["losses"] != 1 {
		t.Errorf("bob's profile: %+v", bp)
	}
	if code := guest.do("GET", "/api/users/nobody", nil, &p); code != http.StatusNotFound || p.Error != "no such user" {
		t.Errorf("an unknown player: %d %q", code, p.Error)
	}
	if code := guest.do("GET", "/api/users/ann/games?before=junk", nil, &p); code != http.StatusBadRequest {
		t.Errorf("a bad page: %d", code)
	}
	resp, err := http.Get(s.url + "/api/users/ann/games.pgn")
	if err != nil {
		t.Fatal(err)
	}
	pgn, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(pgn), `[White "ann"]`) || !strings.Contains(string(pgn), `[Black "bob"]`) || !strings.Contains(string(pgn), "1-0") {
		t.Errorf("ann's PGN:\n%s", pgn)
	}
}

// ratedRecord: the rated 5+3 game c won by ann (White) over bob, as PGN
// from the game's download and from ann's games: the tags PGN readers
// expect, the ratings being those the game began with.
func ratedRecord(t *testing.T, s *testServer, c created) {
	want := []string{
		`[Event "Rated Magneton game"]`,
		`[Site "` + s.url + `/g/` + c.ID + `"]`,
		`[Date "` + time.Now().UTC().Format("2006.01.02") + `"]`,
		`[White "ann"]`,
		`[Black "bob"]`,
		`[Result "1-0"]`,
		`[WhiteElo "1500"]`,
		`[BlackElo "1500"]`,
		`[TimeControl "300+3"]`,
		`[Termination "resignation"]`,
	}
	for _, path := range []string{"/api/games/" + c.ID + "/record?format=pgn", "/api/users/ann/games.pgn"} {
		resp, err := http.Get(s.url + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		pgn := string(body)
		at := 0
		for _, tag := range want {
			i := strings.Index(pgn, tag)
			if i < at {
				t.Errorf("%s: %s missing or out of PGN's order:\n%s", path, tag, pgn)
				break
			}
			at = i
		}
	}
}

// newLeaderboard: one rated game leaves both players provisional, so the
// leaderboard has nobody yet; a leaderboard of no family is refused.
func newLeaderboard(t *testing.T, guest *user) {
	// One game leaves both provisional: nobody on the leaderboard yet.
	var lb struct {
		Family  string `json:"family"`
		Players []struct{ Name string }
		Error   string `json:"error"`
	}
	if code := guest.do("GET", "/api/leaderboard?game=magneton&family=standard", nil, &lb); code != http.StatusOK || lb.Family != "standard" || len(lb.Players) != 0 {
		t.Errorf("leaderboard: %d %+v", code, lb)
	}
	if code := guest.do("GET", "/api/leaderboard?game=magneton&family=nonsense", nil, &lb); code != http.StatusBadRequest {
		t.Errorf("a leaderboard of no family: %d %q", code, lb.Error)
	}
}

// TestSpectatorCount: the live list counts a game's spectators.
func TestSpectatorCount(t *testing.T) {
	s := startServer(t, t.TempDir())
	defer s.stop()
	a, b, w := s.user(), s.user(), s.user()
	c := a.create(map[string]any{"opponent": "human", "public": true})
	if _, code := b.join(c.ID, map[string]string{}); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	count := func() int {
		var l struct {
			Games []struct {
				ID         string
				Spectators int
			}
		}
		w.do("GET", "/api/games?status=live", nil, &l)
		for _, g := range l.Games {
			if g.ID == c.ID {
				return g.Spectators
			}
		}
		t.Fatalf("the game is not in the live list: %+v", l)
		return 0
	}
	sa := a.connect(c.ID)
	sa.until("playing", func(st state) bool { return st.Status == "playing" })
	if n := count(); n != 0 {
		t.Errorf("no spectator yet: %d", n)
	}
	// The lists are cached for a second: the count follows within it.
	until := func(want int) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for count() != want {
			if time.Now().After(deadline) {
				t.Fatalf("the live list does not count %d spectators after 5 s", want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	sw := w.connect(c.ID)
	until(1)
	sw.conn.CloseNow()
	until(0)
}

// TestSeatFollowsAccount: a logged-in player has their seat on another
// device, without its seat cookie; a guest's seat stays with its cookie.
func TestSeatFollowsAccount(t *testing.T) {
	s := startServer(t, t.TempDir())
	defer s.stop()
	ann := s.signedUp("ann")
	c := ann.create(map[string]any{"opponent": "computer", "level": 1, "color": "second"})
	phone := s.user()
	if st := phone.state(c.ID); st.Seat != nil {
		t.Fatalf("a stranger has seat %d", *st.Seat)
	}
	phone.account("POST", "/api/account/login", map[string]string{"name": "ann", "password": "long enough"})
	if st := phone.state(c.ID); st.Seat == nil || *st.Seat != 1 {
		t.Errorf("ann on her phone: seat %v, want 1", st.Seat)
	}
	sock := phone.connect(c.ID)
	if sock.last.Seat == nil || *sock.last.Seat != 1 {
		t.Errorf("ann's socket on her phone: seat %v, want 1", sock.last.Seat)
	}
	if j, code := phone.join(c.ID, map[string]string{}); code != http.StatusOK || j.Seat != 1 {
		t.Errorf("joining her own game from the phone: %d %+v, want her seat", code, j)
	}
	phone.account("POST", "/api/account/logout", map[string]bool{})
	if st := phone.state(c.ID); st.Seat != nil {
		t.Errorf("after logging out: seat %d", *st.Seat)
	}
}

// TestSeekTakenOnce: a seek accepted by many at once goes to one of them;
// every other gets a refusal that says the game is full.
func TestSeekTakenOnce(t *testing.T) {
	s := startServer(t, t.TempDir())
	defer s.stop()
	c := s.signedUp("ann").create(map[string]any{"opponent": "human", "rated": true, "rules": "standard", "public": true})
	var takers []*user
	for i := range 6 {
		takers = append(takers, s.signedUp(fmt.Sprint("taker", i)))
	}
	codes := make([]int, len(takers))
	msgs := make([]string, len(takers))
	var wg sync.WaitGroup
	for i, u := range takers {
		wg.Go(func() {
			j, code := u.join(c.ID, map[string]string{})
			codes[i], msgs[i] = code, j.Error
		})
	}
	wg.Wait()
	won := 0
	for i, code := range codes {
		switch {
		case code == http.StatusOK:
			won++
		case code != http.StatusConflict || !strings.Contains(msgs[i], "already has two players"):
			t.Errorf("taker %d: %d %q", i, code, msgs[i])
		}
	}
	if won != 1 {
		t.Errorf("%d takers got the seat, want 1 (codes %v)", won, codes)
	}
	if st := s.user().state(c.ID); st.Status != "playing" || st.Sides[1].User == "" {
		t.Errorf("after the race: %s, %+v", st.Status, st.Sides)
	}
}

// TestCancelSeek: the player waiting in a seek takes it back; nobody else
// can, and it leaves the open list at once.
func TestCancelSeek(t *testing.T) {
	s := startServer(t, t.TempDir())
	defer s.stop()
	a, b := s.user(), s.user()
	c := a.create(map[string]any{"opponent": "human", "public": true, "clock": "3+2"})
	inOpen := func() bool {
		var l struct{ Games []struct{ ID string } }
		b.do("GET", "/api/games?status=open", nil, &l)
		for _, g := range l.Games {
			if g.ID == c.ID {
				return true
			}
		}
		return false
	}
	if !inOpen() {
		t.Fatal("the seek is not in the open list")
	}
	var out struct{ Error, Status string }
	if code := b.do("POST", "/api/games/"+c.ID+"/cancel", map[string]any{}, &out); code != http.StatusForbidden || !strings.Contains(out.Error, "only the player waiting") {
		t.Errorf("a stranger's cancel: %d %q", code, out.Error)
	}
	if code := a.do("POST", "/api/games/"+c.ID+"/cancel", map[string]any{}, &out); code != http.StatusOK || out.Status != "aborted" {
		t.Fatalf("cancel: %d %+v", code, out)
	}
	if inOpen() {
		t.Error("the cancelled seek is still in the open list")
	}
	if st := b.state(c.ID); st.Status != "aborted" || st.Reason != "cancelled" {
		t.Errorf("the cancelled game: %s %s", st.Status, st.Reason)
	}
	if code := a.do("POST", "/api/games/"+c.ID+"/cancel", map[string]any{}, &out); code != http.StatusConflict || !strings.Contains(out.Error, "still waiting") {
		t.Errorf("a second cancel: %d %q", code, out.Error)
	}
	if j, code := b.join(c.ID, map[string]string{}); code != http.StatusConflict {
		t.Errorf("joining a cancelled seek: %d %q", code, j.Error)
	}
}
