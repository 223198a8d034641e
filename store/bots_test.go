package store_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

func TestBotsAndTokens(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := openWithUsers(t, backend, &store.User{ID: "b1", Name: "Robo", Password: "x", Created: 1},
			&store.User{ID: "p1", Name: "Ann", Password: "x", Created: 1})
		if bot, err := s.IsBot(ctx, "b1"); err != nil || bot {
			t.Fatalf("a new account: bot %v, %v", bot, err)
		}
		if err := s.MakeBot(ctx, "b1", 100); err != nil {
			t.Fatal(err)
		}
		if err := s.MakeBot(ctx, "nobody", 100); !errors.Is(err, store.ErrNoUser) {
			t.Errorf("nobody made a bot: %v", err)
		}
		// An account with a rated game stays a person.
		g := ratedGame("g1", [2]string{"p1", "b1"}, 50)
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := s.MakeBot(ctx, "p1", 100); !errors.Is(err, store.ErrRatedBefore) {
			t.Errorf("a rated player made a bot: %v", err)
		}
		for id, want := range map[string]bool{"b1": true, "p1": false, "": false, "gone": false} {
			if bot, err := s.IsBot(ctx, id); err != nil || bot != want {
				t.Errorf("IsBot(%q) = %v, %v; want %v", id, bot, err, want)
			}
		}
		if u, _ := s.UserByID(ctx, "b1"); !u.Bot {
			t.Errorf("UserByID: %+v, not a bot", u)
		}
		for i, id := range []string{"t1", "t2"} {
			if err := s.CreateToken(ctx, &store.Token{ID: id, UserID: "b1", Label: "engine", TokenHash: "h" + id, Created: int64(10 + i)}); err != nil {
				t.Fatal(err)
			}
		}
		u, tk, err := s.TokenUser(ctx, "ht1")
		if err != nil || u.ID != "b1" || !u.Bot || tk.ID != "t1" {
			t.Fatalf("TokenUser: %+v %+v %v", u, tk, err)
		}
		if err := s.TouchToken(ctx, "t1", 77); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.TokenUser(ctx, "nope"); !errors.Is(err, store.ErrNoToken) {
			t.Errorf("an unknown token: %v", err)
		}
		if ok, err := s.RevokeToken(ctx, "p1", "t1", 80); ok || err != nil {
			t.Errorf("another's token revoked: %v %v", ok, err)
		}
		if ok, err := s.RevokeToken(ctx, "b1", "t1", 80); !ok || err != nil {
			t.Errorf("revoke: %v %v", ok, err)
		}
		if ok, _ := s.RevokeToken(ctx, "b1", "t1", 81); ok {
			t.Error("revoked twice")
		}
		if _, _, err := s.TokenUser(ctx, "ht1"); !errors.Is(err, store.ErrTokenRevoked) {
			t.Errorf("a revoked token: %v", err)
		}
		list, err := s.Tokens(ctx, "b1")
		if err != nil || len(list) != 2 || list[0].ID != "t2" || list[1].Used != 77 || list[1].Revoked != 80 {
			t.Errorf("Tokens: %+v %v", list, err)
		}
	})
}

func TestChallenges(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := openWithUsers(t, backend, &store.User{ID: "u1", Name: "Ann", Password: "x", Created: 1})
		for _, id := range []string{"c1", "c2", "c3"} {
			g := sample(id, store.Waiting, 10)
			if err := s.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			if err := s.CreateChallenge(ctx, store.Challenge{GameID: id, From: "u1", To: "b1", Created: 10}); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.DeclineChallenge(ctx, "c2", 20); err != nil {
			t.Fatal(err)
		}
		g, _ := s.Game(ctx, "c3")
		g.Status = store.Aborted
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		list, err := s.ChallengesTo(ctx, "b1")
		if err != nil || len(list) != 1 || list[0].GameID != "c1" || list[0].From != "u1" {
			t.Errorf("ChallengesTo: %+v %v", list, err)
		}
		if c, err := s.Challenge(ctx, "c2"); err != nil || c.Declined != 20 {
			t.Errorf("Challenge: %+v %v", c, err)
		}
		if _, err := s.Challenge(ctx, "zz"); !errors.Is(err, store.ErrNoChallenge) {
			t.Errorf("no challenge: %v", err)
		}
	})
}

// TestBotLeaderboards: the people's leaderboard lists no bot, even one
// rated in a game against a person; a bots' pool lists its bots.
func TestBotLeaderboards(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := openWithUsers(t, backend, &store.User{ID: "p1", Name: "Ann", Password: "x", Created: 1},
			&store.User{ID: "b1", Name: "Robo", Password: "x", Created: 1}, &store.User{ID: "b2", Name: "Robo2", Password: "x", Created: 1})
		for _, id := range []string{"b1", "b2"} {
			if err := s.MakeBot(ctx, id, 5); err != nil {
				t.Fatal(err)
			}
		}
		people := ratedGame("g1", [2]string{"p1", "b1"}, 50)
		bots := ratedGame("g2", [2]string{"b1", "b2"}, 60)
		bots.Family = store.BotFamilyPrefix + "standard"
		for _, g := range []*store.Game{people, bots} {
			if err := s.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			if _, err := s.RateGame(ctx, g, fresh, plusWin); err != nil {
				t.Fatal(err)
			}
		}
		for family, want := range map[string]string{"standard": "Ann", "bot-standard": "Robo Robo2"} {
			list, err := s.Leaderboard(ctx, "magneton", family, 400, 10)
			var names []string
			for _, l := range list {
				names = append(names, l.Name)
			}
			if err != nil || strings.Join(names, " ") != want {
				t.Errorf("leaderboard of %s: %v %v, want %s", family, names, err, want)
			}
		}
	})
}
