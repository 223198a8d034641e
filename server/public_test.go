package server

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
)

// concurrently sends n requests at once (each from its own browser of
// one address) and counts the answers by status.
func concurrently(s *testServer, n int, req func(i int, u *user) int) map[int]int {
	users := make([]*user, n)
	for i := range users {
		users[i] = s.user()
	}
	counts := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, u := range users {
		wg.Go(func() {
			<-start
			code := req(i, u)
			mu.Lock()
			counts[code]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return counts
}

// TestAuthLimitsUnderConcurrency: the limits on failed logins and sign-ups
// hold when the attempts come all at once, not only one after the other:
// each attempt takes its place in the limit before its password is hashed.
func TestAuthLimitsUnderConcurrency(t *testing.T) {
	s := startServer(t, t.TempDir())
	s.signedUp("ann")
	logins := concurrently(s, 40, func(i int, u *user) int {
		password := "wrong guess"
		if i == 17 {
			password = "long enough"
		}
		_, code := u.account("POST", "/api/account/login", map[string]string{"name": "ann", "password": password})
		return code
	})
	// At most the burst of failures for one name (5) is hashed and refused
	// 401; the rest wait with 429.
	if logins[http.StatusUnauthorized] > DefaultLimits.FailuresBurst || logins[http.StatusTooManyRequests] == 0 {
		t.Errorf("40 logins at once for one account, one with the right password: %v; want at most %d refused 401 and the rest 429", logins, DefaultLimits.FailuresBurst)
	}
	s2 := startServer(t, t.TempDir())
	signups := concurrently(s2, 40, func(i int, u *user) int {
		_, code := u.account("POST", "/api/account/signup", map[string]string{"name": fmt.Sprintf("player%d", i), "password": "long enough"})
		return code
	})
	if signups[http.StatusOK] > DefaultLimits.AuthBurst || signups[http.StatusTooManyRequests] != 40-signups[http.StatusOK] {
		t.Errorf("40 sign-ups at once from one address: %v; want at most %d and the rest 429", signups, DefaultLimits.AuthBurst)
	}
}
