//go:build abuse

package server

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/magneton-games/magneton/server/ratings"
	"github.com/magneton-games/magneton/server/wire"
)

// The audit's attacks on accounts (issue 27: 1, 9 and 10) at the scale it
// tried them, and from many addresses at once.

// fromMany sends each requests at once from each of addresses loopback
// addresses (127.0.NET.1, ...), each from a browser of its own, with
// extra (if not nil) sent among them; it counts the answers by address
// and status, and gives the slowest answer's time.
func fromMany(s *testServer, net, addresses, each int, req func(u *user, a, i int) int, extra func()) (byAddr []map[int]int, slowest time.Duration) {
	var mu sync.Mutex
	byAddr = make([]map[int]int, addresses)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for a := range addresses {
		byAddr[a] = map[int]int{}
		for i := range each {
			u := s.userFrom(fmt.Sprintf("127.0.%d.%d", net, a+1))
			wg.Go(func() {
				<-start
				asked := time.Now()
				code := req(u, a, i)
				mu.Lock()
				byAddr[a][code]++
				slowest = max(slowest, time.Since(asked))
				mu.Unlock()
			})
		}
	}
	if extra != nil {
		wg.Go(func() {
			<-start
			extra()
		})
	}
	close(start)
	wg.Wait()
	return byAddr, slowest
}

// TestAbuseLoginsFromManyAddresses: 40 addresses guess one account's
// password at once, each with 10 simultaneous attempts, while its owner
// logs in from another: each address has at most its burst of failures
// hashed and refused 401, the rest wait with 429 (or hear 503 when the
// hashes stay busy), and the owner, whose address has hashed least, is in.
func TestAbuseLoginsFromManyAddresses(t *testing.T) {
	s := startServer(t, t.TempDir())
	s.signedUp("ann")
	const addresses, each = 40, 10
	owner := s.userFrom("127.0.5.1")
	var ownerCode int
	byAddr, _ := fromMany(s, 4, addresses, each, func(u *user, _, _ int) int {
		_, code := u.account("POST", "/api/account/login", map[string]string{"name": "ann", "password": "a wrong guess"})
		return code
	}, func() {
		_, ownerCode = owner.account("POST", "/api/account/login", map[string]string{"name": "ann", "password": "long enough"})
	})
	hashed := 0
	for a, codes := range byAddr {
		hashed += codes[http.StatusUnauthorized]
		if codes[http.StatusUnauthorized] > DefaultLimits.FailuresBurst || codes[http.StatusUnauthorized]+codes[http.StatusTooManyRequests]+codes[http.StatusServiceUnavailable] != each {
			t.Errorf("address %d: %v; want at most %d refused 401 and the rest 429 (or 503 while the hashes are busy)", a+1, codes, DefaultLimits.FailuresBurst)
		}
	}
	t.Logf("%d guesses from %d addresses at once: %d hashed and refused, the owner's login %d", addresses*each, addresses, hashed, ownerCode)
	if ownerCode != http.StatusOK {
		t.Errorf("the owner's login from elsewhere during the attack: %d", ownerCode)
	}
}

// TestAbuseSignupsFromManyAddresses: 40 addresses each sign up 40
// accounts at once: each address gets at most its burst and 429 for the
// rest, and no one waits long: the hashes the server cannot do in a few
// seconds are answered 503 auth_busy (800 queued for over 20 s before).
func TestAbuseSignupsFromManyAddresses(t *testing.T) {
	s := startServer(t, t.TempDir())
	const addresses, each = 40, 40
	byAddr, slowest := fromMany(s, 6, addresses, each, func(u *user, a, i int) int {
		_, code := u.account("POST", "/api/account/signup", map[string]string{"name": fmt.Sprintf("p%dx%d", a, i), "password": "long enough"})
		return code
	}, nil)
	made, busy := 0, 0
	for a, codes := range byAddr {
		made += codes[http.StatusOK]
		busy += codes[http.StatusServiceUnavailable]
		if codes[http.StatusOK] > DefaultLimits.AuthBurst || codes[http.StatusOK]+codes[http.StatusTooManyRequests]+codes[http.StatusServiceUnavailable] != each {
			t.Errorf("address %d: %v; want at most %d accounts, and 429 or 503 for the rest", a+1, codes, DefaultLimits.AuthBurst)
		}
	}
	t.Logf("%d sign-ups from %d addresses at once, answered within %v: %d accounts made, %d told the server was busy", addresses*each, addresses, slowest.Round(100*time.Millisecond), made, busy)
	// Each waits for a hashing slot a few seconds at most (hashWait), not
	// for all the hashes before its own.
	if slowest > 10*time.Second {
		t.Errorf("the slowest sign-up took %v", slowest)
	}
}

// TestAbuseProfileScan: a scanner walking 1,000 names from one address,
// and 50 addresses walking 100 each, get their bursts and 429 with the
// code profiles_fast; a visitor elsewhere still reads a profile.
func TestAbuseProfileScan(t *testing.T) {
	s := startServer(t, t.TempDir())
	s.signedUp("ann")
	scan := func(ip string, n int) (ok, refused int) {
		u := s.userFrom(ip)
		for i := range n {
			var e struct{ Code string }
			switch code := u.do("GET", fmt.Sprintf("/api/users/n%d", i), nil, &e); {
			case code == http.StatusTooManyRequests && e.Code == "profiles_fast":
				refused++
			case code == http.StatusNotFound:
				ok++
			default:
				t.Errorf("%s, lookup %d: %d %s", ip, i, code, e.Code)
			}
		}
		return ok, refused
	}
	if ok, refused := scan("127.0.7.1", 1000); ok > DefaultLimits.ProfilesBurst+5 {
		t.Errorf("one address looked up %d of 1,000 names (%d refused); want about its burst of %d", ok, refused, DefaultLimits.ProfilesBurst)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for a := range 50 {
		wg.Go(func() {
			ok, _ := scan(fmt.Sprintf("127.0.8.%d", a+1), 100)
			mu.Lock()
			total += ok
			mu.Unlock()
			if ok > DefaultLimits.ProfilesBurst+5 {
				t.Errorf("address %d looked up %d of 100 names", a+1, ok)
			}
		})
	}
	wg.Wait()
	t.Logf("50 addresses × 100 lookups: %d answered", total)
	if code := s.userFrom("127.0.9.1").do("GET", "/api/users/ann", nil, nil); code != http.StatusOK {
		t.Errorf("a visitor's lookup during the scans: %d", code)
	}
}

// playAndResign plays game id between a and b to ply 2, where the first
// side resigns, as the farm of the audit did.
func playAndResign(a, b *user, id string) {
	sa, sb := a.connect(id), b.connect(id)
	defer sa.conn.CloseNow()
	defer sb.conn.CloseNow()
	if sa.last.Seat == nil || *sa.last.Seat != 0 {
		sa, sb = sb, sa
	}
	openHuman(sa, sb)
	sa.send(wire.ClientMsg{Type: "resign"})
	sb.until("the end", func(st state) bool { return st.Status == "finished" })
}

// TestAbuseRatingFarm: the audit's farm, two accounts of one address
// playing 84 rated games that one resigns at ply 2 (it took one from 1500
// to about 1986 in 7 minutes), and rematches: only ratings.PairLimit of
// them count, the rest are refused or casual, and the moderators have the
// pair flagged.
func TestAbuseRatingFarm(t *testing.T) {
	// The games' limit per address (10 a minute) would stretch the 84
	// games over 8 minutes, and the farm's two accounts send more than
	// the address's 40 messages a second: what is tested is the pair's
	// limit.
	s := startServer(t, t.TempDir(), func(c *Config) {
		c.Limits = DefaultLimits
		c.Limits.GamesPerMinute, c.Limits.GamesBurst = -1, -1
		c.Limits.MessagesPerSecond, c.Limits.MessagesBurst = -1, -1
	})
	ann, bob := s.signedUp("ann"), s.signedUp("bob")
	mod := s.moderator("mia")
	rated, refused, casual := 0, 0, 0
	var lastRated created
	for i := range 84 {
		c := ann.create(map[string]any{"opponent": "human", "rated": true, "public": true, "color": "first"})
		j, code := bob.join(c.ID, map[string]string{})
		if code == http.StatusForbidden && strings.Contains(j.Error, "rated games") {
			refused++
			// The farmer's next try: the last rated game's rematch.
			sa, sb := ann.connect(lastRated.ID), bob.connect(lastRated.ID)
			sa.send(wire.ClientMsg{Type: "rematch", Action: "offer"})
			sb.until("the offer", func(st state) bool { return st.Rematch != nil })
			sb.send(wire.ClientMsg{Type: "rematch", Action: "accept"})
			st := sa.until("the rematch", func(st state) bool { return st.Rematch != nil && st.Rematch.Game != "" })
			next := st.Rematch.Game
			sa.conn.CloseNow()
			sb.conn.CloseNow()
			if ann.state(next).Rated {
				t.Fatalf("game %d: the rematch of a pair past its limit is rated", i+1)
			}
			playAndResign(ann, bob, next)
			casual++
			lastRated.ID = next
			continue
		}
		if code != http.StatusOK {
			t.Fatalf("game %d: bob's join %d %q", i+1, code, j.Error)
		}
		playAndResign(ann, bob, c.ID)
		rated++
		lastRated = c
	}
	var p profile
	ann.do("GET", "/api/users/ann", nil, &p)
	t.Logf("84 tries: %d rated, %d refused (each followed by a casual rematch, %d); ann's rating %+v", rated, refused, casual, p.Ratings)
	if rated > ratings.PairLimit {
		t.Errorf("%d rated games between one pair in a day; want at most %d", rated, ratings.PairLimit)
	}
	for _, r := range p.Ratings {
		if r.Games > ratings.PairLimit {
			t.Errorf("ann's %s rating counts %d games", r.Game, r.Games)
		}
	}
	var list reportList
	mod.do("GET", "/api/mod/reports", nil, &list)
	flagged := false
	for _, r := range list.Reports {
		flagged = flagged || strings.HasPrefix(r.Reason, "shared")
	}
	if !flagged {
		t.Errorf("the pair of one address is not flagged for the moderators: %+v", list.Reports)
	}
}
