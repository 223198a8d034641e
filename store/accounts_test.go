package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

func TestUsers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ann := &store.User{ID: "u1", Name: "Ann_B", Password: "hash1", Created: 10}
		ctx, s := openWithUsers(t, backend, ann)
		for _, name := range []string{"Ann_B", "ann_b", "ANN_B"} {
			err := s.CreateUser(ctx, &store.User{ID: "u-" + name, Name: name, Password: "x", Created: 11})
			if !errors.Is(err, store.ErrNameTaken) {
				t.Errorf("a second %q: %v, want ErrNameTaken", name, err)
			}
			if u, err := s.UserByName(ctx, name); err != nil || *u != *ann {
				t.Errorf("UserByName(%q) = %+v, %v", name, u, err)
			}
		}
		if _, err := s.UserByName(ctx, "nobody"); !errors.Is(err, store.ErrNoUser) {
			t.Errorf("an unknown name: %v", err)
		}
		if _, err := s.UserByID(ctx, "u9"); !errors.Is(err, store.ErrNoUser) {
			t.Errorf("an unknown id: %v", err)
		}
		if err := s.SetPassword(ctx, "u1", "hash2"); err != nil {
			t.Fatal(err)
		}
		if u, _ := s.UserByID(ctx, "u1"); u.Password != "hash2" {
			t.Errorf("password after the change: %q", u.Password)
		}
		if err := s.SetPassword(ctx, "u9", "h"); !errors.Is(err, store.ErrNoUser) {
			t.Errorf("the password of nobody: %v", err)
		}
	})
}

// TestUserRace: many sign-ups of one name at once (in different cases)
// give one account, and every other attempt ErrNameTaken.
func TestUserRace(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		s, _ := openTest(t, backend)
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			name := "racer"
			if i%2 == 1 {
				name = "Racer"
			}
			wg.Go(func() {
				errs[i] = s.CreateUser(ctx, &store.User{ID: fmt.Sprint("r", i), Name: name, Password: "h", Created: 1})
			})
		}
		wg.Wait()
		ok := 0
		for i, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, store.ErrNameTaken):
				t.Errorf("attempt %d: %v, want ErrNameTaken", i, err)
			}
		}
		if ok != 1 {
			t.Errorf("%d accounts made, want 1", ok)
		}
	})
}

func TestSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := openWithUsers(t, backend, &store.User{ID: "a", Name: "a1", Password: "h", Created: 1}, &store.User{ID: "b", Name: "b1", Password: "h", Created: 1})
		for _, tc := range []struct{ token, user string }{{"t1", "a"}, {"t2", "a"}, {"t3", "b"}} {
			if err := s.CreateSession(ctx, tc.token, tc.user, "Firefox 128 on Linux", 100); err != nil {
				t.Fatal(err)
			}
		}
		who := func(token string, after int64) string {
			u, err := s.SessionUser(ctx, token, after)
			if errors.Is(err, store.ErrNoSession) {
				return "-"
			}
			if err != nil {
				t.Fatal(err)
			}
			return u.ID
		}
		for _, tc := range []struct {
			token string
			after int64
			want  string
		}{{"t1", 0, "a"}, {"t3", 99, "b"}, {"t3", 100, "-"}, {"nope", 0, "-"}} {
			if got := who(tc.token, tc.after); got != tc.want {
				t.Errorf("session %s made after %d: %s, want %s", tc.token, tc.after, got, tc.want)
			}
		}
		if err := s.DeleteSessions(ctx, "a", "t1"); err != nil {
			t.Fatal(err)
		}
		if who("t1", 0) != "-" || who("t2", 0) != "a" {
			t.Error("logging out one session: the wrong ones went")
		}
		if err := s.DeleteSessions(ctx, "a", ""); err != nil {
			t.Fatal(err)
		}
		if who("t2", 0) != "-" || who("t3", 0) != "b" {
			t.Error("logging out everywhere: the wrong ones went")
		}
	})
}

// TestClaimGuestGames: a guest who signs up takes the games played (and
// being played) as a guest; other guests' games stay theirs.
func TestClaimGuestGames(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		u := &store.User{ID: "acc", Name: "Zed", Password: "h", Created: 1}
		ctx, s := openWithUsers(t, backend, u)
		games := map[string]*store.Game{}
		for _, tc := range []struct {
			id, status string
			guests     [2]string
		}{
			{"done0", store.Finished, [2]string{"me", "other"}},
			{"done1", store.Finished, [2]string{"other", "me"}},
			{"live", store.Playing, [2]string{"me", ""}},
			{"theirs", store.Finished, [2]string{"other", ""}},
		} {
			g := sample(tc.id, tc.status, 100)
			g.Users, g.Guests, g.Players = [2]string{}, tc.guests, [2]string{"Guest-1", "Guest-2"}
			games[tc.id] = g
			if err := s.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		n, err := s.ClaimGuestGames(ctx, "me", u)
		if err != nil || n != 3 {
			t.Fatalf("claimed %d seats (%v), want 3", n, err)
		}
		for _, tc := range []struct {
			id           string
			users, names [2]string
		}{
			{"done0", [2]string{"acc", ""}, [2]string{"Zed", "Guest-2"}},
			{"done1", [2]string{"", "acc"}, [2]string{"Guest-1", "Zed"}},
			{"live", [2]string{"acc", ""}, [2]string{"Zed", "Guest-2"}},
			{"theirs", [2]string{}, [2]string{"Guest-1", "Guest-2"}},
		} {
			g, err := s.Game(ctx, tc.id)
			if err != nil || g.Users != tc.users || g.Players != tc.names {
				t.Errorf("%s after the claim: users %q, players %q (%v), want %q, %q", tc.id, g.Users, g.Players, err, tc.users, tc.names)
			}
		}
		if n, err := s.ClaimGuestGames(ctx, "", u); n != 0 || err != nil {
			t.Errorf("no guest token: %d, %v", n, err)
		}
	})
}

// TestClaimSurvivesStaleWrite: a server that still holds a game's row from
// before its guest signed up writes it back; the seat stays the account's.
func TestClaimSurvivesStaleWrite(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		u := &store.User{ID: "acc", Name: "Zed", Password: "h", Created: 1}
		ctx, s := openWithUsers(t, backend, u)
		g := sample("g", store.Finished, 100)
		g.Users, g.Guests, g.Players = [2]string{}, [2]string{"me", "other"}, [2]string{"Guest-1", "Guest-2"}
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ClaimGuestGames(ctx, "me", u); err != nil {
			t.Fatal(err)
		}
		stale := *g
		stale.RematchBy, stale.Updated = 1, 200
		if err := s.UpdateGame(ctx, &stale); err != nil {
			t.Fatal(err)
		}
		got, _ := s.Game(ctx, "g")
		if got.Users != [2]string{"acc", ""} || got.Players != [2]string{"Zed", "Guest-2"} || got.Guests != [2]string{"", "other"} || got.RematchBy != 1 {
			t.Errorf("after a stale write: users %q, players %q, guests %q, rematch by %d", got.Users, got.Players, got.Guests, got.RematchBy)
		}
	})
}

// openWithUsers opens a new database of the backend holding the accounts.
func openWithUsers(t *testing.T, backend string, users ...*store.User) (context.Context, store.Store) {
	t.Helper()
	ctx, s, _ := openWithGames(t, backend)
	for _, u := range users {
		if err := s.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	return ctx, s
}

var fresh = store.Rating{R: 1500, RD: 350, Vol: 0.06}

// plusWin is a stand-in rating rule for the store's tests (the real one is
// package rating's): the first player gains 10, the second loses 10.
func plusWin(a, b store.Rating) (store.Rating, store.Rating, error) {
	a.R, b.R = a.R+10, b.R-10
	a.Games, b.Games = a.Games+1, b.Games+1
	a.Wins, b.Losses = a.Wins+1, b.Losses+1
	a.RD, b.RD = a.RD-100, b.RD-100
	a.Updated, b.Updated = 500, 500
	return a, b, nil
}

func ratedGame(id string, users [2]string, updated int64) *store.Game {
	g := sample(id, store.Finished, updated)
	g.Users, g.Guests, g.Rated, g.Family = users, [2]string{}, true, "standard"
	return g
}

func TestRateGame(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := openWithUsers(t, backend, &store.User{ID: "a", Name: "ann", Password: "h", Created: 1}, &store.User{ID: "b", Name: "bob", Password: "h", Created: 1})
		g := ratedGame("g1", [2]string{"a", "b"}, 100)
		casual := sample("casual", store.Finished, 100)
		casual.Rated = false
		for _, x := range []*store.Game{g, casual} {
			if err := s.CreateGame(ctx, x); err != nil {
				t.Fatal(err)
			}
		}
		after, err := s.RateGame(ctx, g, fresh, plusWin)
		if err != nil || after[0].R != 1510 || after[1].R != 1490 || g.Diffs != [2]int{10, -10} {
			t.Fatalf("RateGame: %+v, diffs %v, %v", after, g.Diffs, err)
		}
		if _, err := s.RateGame(ctx, g, fresh, plusWin); !errors.Is(err, store.ErrRated) {
			t.Errorf("a second rating of the game: %v, want ErrRated", err)
		}
		if _, err := s.RateGame(ctx, casual, fresh, plusWin); !errors.Is(err, store.ErrRated) {
			t.Errorf("rating a casual game: %v, want ErrRated", err)
		}
		if got, _ := s.Game(ctx, "g1"); got.Diffs != [2]int{10, -10} {
			t.Errorf("the game's row keeps diffs %v", got.Diffs)
		}
		r, ok, err := s.Rating(ctx, "a", "magneton", "standard")
		if err != nil || !ok || r.R != 1510 || r.Games != 1 || r.Wins != 1 || r.RD != 250 {
			t.Errorf("ann's rating: %+v %v %v", r, ok, err)
		}
		if _, ok, err := s.Rating(ctx, "a", "magneton", "weak-force"); ok || err != nil {
			t.Errorf("a rating never played: %v %v", ok, err)
		}
		if rs, err := s.Ratings(ctx, "b"); err != nil || len(rs) != 1 || rs[0].R != 1490 || rs[0].Losses != 1 {
			t.Errorf("bob's ratings: %+v %v", rs, err)
		}
		if h, err := s.RatingHistory(ctx, "a"); err != nil || len(h) != 1 || h[0].GameID != "g1" || h[0].R != 1510 || h[0].At != 500 {
			t.Errorf("ann's history: %+v %v", h, err)
		}
		// The leaderboard keeps established ratings only.
		if l, err := s.Leaderboard(ctx, "magneton", "standard", 260, 10); err != nil || len(l) != 2 || l[0].Name != "ann" || l[1].Name != "bob" {
			t.Errorf("leaderboard: %+v %v", l, err)
		}
		if l, _ := s.Leaderboard(ctx, "magneton", "standard", 200, 10); len(l) != 0 {
			t.Errorf("leaderboard below RD 200: %+v", l)
		}
	})
}

// TestRateGamesAtOnce: games of one player ending at once are each
// applied to the other's result, never lost.
func TestRateGamesAtOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		users := []*store.User{{ID: "hub", Name: "hub", Password: "h", Created: 1}}
		for i := range 6 {
			users = append(users, &store.User{ID: fmt.Sprint("o", i), Name: fmt.Sprint("opp", i), Password: "h", Created: 1})
		}
		ctx, s := openWithUsers(t, backend, users...)
		var games []*store.Game
		for i := range 6 {
			g := ratedGame(fmt.Sprint("g", i), [2]string{"hub", fmt.Sprint("o", i)}, int64(100+i))
			if err := s.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			games = append(games, g)
		}
		var wg sync.WaitGroup
		for _, g := range games {
			wg.Go(func() {
				if _, err := s.RateGame(context.Background(), g, fresh, plusWin); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if r, _, _ := s.Rating(ctx, "hub", "magneton", "standard"); r.Games != 6 || r.R != 1560 {
			t.Errorf("after six games at once: %+v, want 6 games and 1560", r)
		}
	})
}

func TestUserGames(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := openWithUsers(t, backend, &store.User{ID: "a", Name: "ann", Password: "h", Created: 1})
		for i := range 5 {
			g := ratedGame(fmt.Sprint("g", i), [2]string{"a", ""}, int64(100+i))
			if i%2 == 1 {
				g.Users = [2]string{"", "a"}
			}
			if i == 4 {
				g.Status = store.Playing
			}
			g.Public = i != 2 // g2 is private
			if err := s.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		ids := func(gs []*store.Game) string {
			var out []string
			for _, g := range gs {
				out = append(out, g.ID)
			}
			return fmt.Sprint(out)
		}
		page, err := s.UserGames(ctx, "a", "", 2, false)
		if err != nil || ids(page) != "[g3 g2]" {
			t.Fatalf("first page: %s %v", ids(page), err)
		}
		if page, err := s.UserGames(ctx, "a", "g2", 10, false); err != nil || ids(page) != "[g1 g0]" {
			t.Errorf("second page: %s %v", ids(page), err)
		}
		if page, _ := s.UserGames(ctx, "nobody", "", 10, false); len(page) != 0 {
			t.Errorf("nobody's games: %s", ids(page))
		}
		if page, err := s.UserGames(ctx, "a", "", 10, true); err != nil || ids(page) != "[g3 g1 g0]" {
			t.Errorf("the public games: %s %v", ids(page), err)
		}
	})
}

// TestUserRecord: wins, draws and losses from either seat, finished games
// only.
func TestUserRecord(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := openWithUsers(t, backend, &store.User{ID: "a", Name: "ann", Password: "h", Created: 1})
		for i, tc := range []struct {
			users  [2]string
			status string
			result string
		}{
			{[2]string{"a", ""}, store.Finished, "1-0"},     // won as the first side
			{[2]string{"", "a"}, store.Finished, "1-0"},     // lost as the second
			{[2]string{"", "a"}, store.Finished, "0-1"},     // won as the second
			{[2]string{"a", ""}, store.Finished, "1/2-1/2"}, // drawn
			{[2]string{"a", ""}, store.Playing, "*"},        // not over
			{[2]string{"b", "c"}, store.Finished, "1-0"},    // not hers
		} {
			g := ratedGame(fmt.Sprint("g", i), tc.users, int64(100+i))
			g.Status, g.Result = tc.status, tc.result
			if err := s.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		w, d, l, err := s.UserRecord(ctx, "a")
		if err != nil || w != 2 || d != 1 || l != 1 {
			t.Errorf("ann's record: %d-%d-%d (%v), want 2-1-1", w, d, l, err)
		}
		if w, d, l, err := s.UserRecord(ctx, "nobody"); err != nil || w+d+l != 0 {
			t.Errorf("nobody's record: %d-%d-%d (%v)", w, d, l, err)
		}
	})
}

// TestRatedBetween counts a pair's finished rated games, either seat, since
// a time.
func TestRatedBetween(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := openWithUsers(t, backend, &store.User{ID: "a", Name: "ann", Password: "h", Created: 1}, &store.User{ID: "b", Name: "bob", Password: "h", Created: 1})
		games := []*store.Game{
			ratedGame("g1", [2]string{"a", "b"}, 100),
			ratedGame("g2", [2]string{"b", "a"}, 200),
			ratedGame("old", [2]string{"a", "b"}, 10),
			ratedGame("other", [2]string{"a", ""}, 300),
			sample("casual", store.Finished, 300),
			ratedGame("going", [2]string{"a", "b"}, 300),
		}
		games[4].Users = [2]string{"a", "b"}
		games[4].Rated = false
		games[5].Status = store.Playing
		for _, g := range games {
			if err := s.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := s.RatedBetween(ctx, "b", "a", 50); err != nil || n != 2 {
			t.Errorf("rated games of a and b since 50: %d (%v), want 2", n, err)
		}
	})
}
