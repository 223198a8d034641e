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
		page, err := s.UserGames(ctx, "a", "", 2)
		if err != nil || ids(page) != "[g3 g2]" {
			t.Fatalf("first page: %s %v", ids(page), err)
		}
		if page, err := s.UserGames(ctx, "a", "g2", 10); err != nil || ids(page) != "[g1 g0]" {
			t.Errorf("second page: %s %v", ids(page), err)
		}
		if page, _ := s.UserGames(ctx, "nobody", "", 10); len(page) != 0 {
			t.Errorf("nobody's games: %s", ids(page))
		}
	})
}
