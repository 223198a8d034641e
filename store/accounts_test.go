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
			if err := s.CreateSession(ctx, tc.token, tc.user, 100); err != nil {
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
