package store_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// TestEmails: an account's e-mail address is kept as written and found
// in any case; several accounts may share one; it can be changed and
// cleared.
func TestEmails(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := openWithUsers(t, backend,
			&store.User{ID: "a", Name: "ann", Password: "h", Created: 1, Email: "Ann@Example.org"},
			&store.User{ID: "b", Name: "bob", Password: "h", Created: 2, Email: "ann@example.ORG"},
			&store.User{ID: "c", Name: "cat", Password: "h", Created: 3})
		if u, err := s.UserByName(ctx, "ann"); err != nil || u.Email != "Ann@Example.org" {
			t.Errorf("ann: %+v %v", u, err)
		}
		names := func(email string, limit int) string {
			users, err := s.UsersByEmail(ctx, email, limit)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, u := range users {
				out = append(out, u.Name)
			}
			return fmt.Sprint(out)
		}
		if got := names("ANN@example.org", 5); got != "[ann bob]" {
			t.Errorf("the accounts of ann's address: %s", got)
		}
		if got := names("ann@example.org", 1); got != "[ann]" {
			t.Errorf("at most one: %s", got)
		}
		if got := names("", 5); got != "[]" {
			t.Errorf("no address: %s", got)
		}
		if err := s.SetEmail(ctx, "c", "cat@example.org"); err != nil {
			t.Fatal(err)
		}
		if err := s.SetEmail(ctx, "b", ""); err != nil {
			t.Fatal(err)
		}
		if got := names("ann@example.org", 5) + names("cat@example.org", 5); got != "[ann][cat]" {
			t.Errorf("after the changes: %s", got)
		}
		if u, _ := s.UserByID(ctx, "b"); u.Email != "" {
			t.Errorf("bob's cleared address: %q", u.Email)
		}
		if err := s.SetEmail(ctx, "nobody", "x@example.org"); !errors.Is(err, store.ErrNoUser) {
			t.Errorf("the address of nobody: %v", err)
		}
	})
}

// TestSessionList: an account's sessions with their browsers, the last
// seen first; seen never goes back; one session or all others log out,
// and never another account's.
func TestSessionList(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := openWithUsers(t, backend, &store.User{ID: "a", Name: "ann", Password: "h", Created: 1}, &store.User{ID: "b", Name: "bob", Password: "h", Created: 1})
		for i, tc := range []struct{ hash, user, agent string }{
			{"hash-of-laptop-token", "a", "Firefox 128 on Linux"},
			{"hash-of-phone-token", "a", "Safari 17 on iPhone"},
			{"hash-of-old-token", "a", ""},
			{"hash-of-bobs-token", "b", "Chrome 126 on Windows"},
		} {
			if err := s.CreateSession(ctx, tc.hash, tc.user, tc.agent, int64(100+i)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.TouchSession(ctx, "hash-of-laptop-token", 500); err != nil {
			t.Fatal(err)
		}
		s.TouchSession(ctx, "hash-of-laptop-token", 300) // earlier: no change
		all, err := s.Sessions(ctx, "a", 0)
		if err != nil {
			t.Fatal(err)
		}
		want := []store.Session{
			{ID: store.SessionID("hash-of-laptop-token"), TokenHash: "hash-of-laptop-token", Created: 100, Seen: 500, Agent: "Firefox 128 on Linux"},
			{ID: "hash-of-old-toke", TokenHash: "hash-of-old-token", Created: 102, Seen: 102},
			{ID: "hash-of-phone-to", TokenHash: "hash-of-phone-token", Created: 101, Seen: 101, Agent: "Safari 17 on iPhone"},
		}
		if !reflect.DeepEqual(all, want) {
			t.Errorf("ann's sessions:\n%+v\nwant\n%+v", all, want)
		}
		if recent, _ := s.Sessions(ctx, "a", 100); !reflect.DeepEqual(recent, want[1:]) { // the first is too old
			t.Errorf("ann's sessions made after 100: %+v", recent)
		}
		if ok, err := s.EndSession(ctx, "a", store.SessionID("hash-of-bobs-token")); ok || err != nil {
			t.Errorf("ann ended bob's session: %v %v", ok, err)
		}
		if ok, err := s.EndSession(ctx, "a", store.SessionID("hash-of-phone-token")); !ok || err != nil {
			t.Errorf("ann's phone: %v %v", ok, err)
		}
		if n, err := s.EndOtherSessions(ctx, "a", "hash-of-laptop-token"); n != 1 || err != nil {
			t.Errorf("the others of ann's laptop: %d %v", n, err)
		}
		all, _ = s.Sessions(ctx, "a", 0)
		bobs, _ := s.Sessions(ctx, "b", 0)
		if len(all) != 1 || all[0].TokenHash != "hash-of-laptop-token" || len(bobs) != 1 {
			t.Errorf("after the log-outs: ann %+v, bob %+v", all, bobs)
		}
	})
}

// TestResets: a link sets the password once, logs every browser of the
// account out and takes the account's other links with it; an expired
// link or another's does nothing; two uses at once make one change.
func TestResets(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		ctx, s := openWithUsers(t, backend, &store.User{ID: "a", Name: "ann", Password: "old", Created: 1})
		for _, r := range []store.Reset{
			{TokenHash: "t1", UserID: "a", Created: 100, Expires: 200, Via: store.ResetByMail},
			{TokenHash: "t2", UserID: "a", Created: 110, Expires: 300, Via: store.ResetByAdmin},
			{TokenHash: "t3", UserID: "a", Created: 120, Expires: 150, Via: store.ResetByMail},
		} {
			if err := s.CreateReset(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		s.CreateSession(ctx, "sess", "a", "", 50)
		if _, err := s.UseReset(ctx, "t3", "new", 160); !errors.Is(err, store.ErrNoReset) {
			t.Errorf("an expired link: %v", err)
		}
		if _, err := s.UseReset(ctx, "nope", "new", 160); !errors.Is(err, store.ErrNoReset) {
			t.Errorf("an unknown link: %v", err)
		}
		u, err := s.UseReset(ctx, "t1", "new", 160)
		if err != nil || u.Name != "ann" || u.Password != "new" {
			t.Fatalf("the link: %+v %v", u, err)
		}
		if _, err := s.SessionUser(ctx, "sess", 0); !errors.Is(err, store.ErrNoSession) {
			t.Errorf("a session after the reset: %v", err)
		}
		for _, token := range []string{"t1", "t2"} {
			if _, err := s.UseReset(ctx, token, "newer", 170); !errors.Is(err, store.ErrNoReset) {
				t.Errorf("link %s after the reset: %v", token, err)
			}
		}
		s.CreateReset(ctx, store.Reset{TokenHash: "t4", UserID: "a", Created: 200, Expires: 900, Via: store.ResetByMail})
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Go(func() { _, errs[i] = s.UseReset(context.Background(), "t4", fmt.Sprint("p", i), 210) })
		}
		wg.Wait()
		done := 0
		for _, err := range errs {
			switch {
			case err == nil:
				done++
			case !errors.Is(err, store.ErrNoReset):
				t.Errorf("a use at once: %v", err)
			}
		}
		if done != 1 {
			t.Errorf("four uses at once: %d succeeded, want 1", done)
		}
	})
}
