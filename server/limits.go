package server

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limits are what one client may use of the server. A client is an IP
// address (an IPv6 client by its /64, which one host can hold whole). A
// zero field takes the default in DefaultLimits; a negative one means no
// limit (for load tests on loopback).
type Limits struct {
	// SocketsPerIP bounds the WebSockets open at once.
	SocketsPerIP int
	// GamesPerMinute and GamesBurst: the token bucket of game creations
	// (new games, rematches) per IP.
	GamesPerMinute float64
	GamesBurst     int
	// AnalysesPerMinute and AnalysesBurst: the token bucket of analyses
	// per IP; an IP runs one analysis at a time.
	AnalysesPerMinute float64
	AnalysesBurst     int
	// MessagesPerSecond and MessagesBurst: the token bucket of WebSocket
	// messages per IP, shared by all its sockets (each socket also has
	// the per-connection bucket of Config.MessageRate).
	MessagesPerSecond float64
	MessagesBurst     int
	// ThinkersPerIP bounds the computer searches of one IP's games that
	// run at once; the others wait their turn without their clocks
	// running.
	ThinkersPerIP int
	// AuthPerMinute and AuthBurst: the token bucket of sign-ups and failed
	// logins per IP; FailuresPerMinute and FailuresBurst the bucket of
	// failed logins per IP and user name, so that guessing one account's
	// password from one address is slow while its owner, elsewhere, still
	// logs in.
	AuthPerMinute     float64
	AuthBurst         int
	FailuresPerMinute float64
	FailuresBurst     int
}

// DefaultLimits are the limits of a server that sets none: generous for a
// person with many tabs, tight for a script.
var DefaultLimits = Limits{
	SocketsPerIP:      32,
	GamesPerMinute:    10,
	GamesBurst:        20,
	AnalysesPerMinute: 30,
	AnalysesBurst:     10,
	MessagesPerSecond: 40,
	MessagesBurst:     80,
	ThinkersPerIP:     2,
	AuthPerMinute:     6,
	AuthBurst:         20,
	FailuresPerMinute: 1,
	FailuresBurst:     5,
}

// NoLimits lifts every per-client limit: for load tests, whose thousands
// of clients all come from one address.
var NoLimits = Limits{
	SocketsPerIP: -1, GamesPerMinute: -1, GamesBurst: -1, AnalysesPerMinute: -1, AnalysesBurst: -1,
	MessagesPerSecond: -1, MessagesBurst: -1, ThinkersPerIP: -1,
	AuthPerMinute: -1, AuthBurst: -1, FailuresPerMinute: -1, FailuresBurst: -1,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	pick := func(v, def int) int {
		if v == 0 {
			return def
		}
		return v
	}
	pickf := func(v, def float64) float64 {
		if v == 0 {
			return def
		}
		return v
	}
	return Limits{
		SocketsPerIP:      pick(l.SocketsPerIP, d.SocketsPerIP),
		GamesPerMinute:    pickf(l.GamesPerMinute, d.GamesPerMinute),
		GamesBurst:        pick(l.GamesBurst, d.GamesBurst),
		AnalysesPerMinute: pickf(l.AnalysesPerMinute, d.AnalysesPerMinute),
		AnalysesBurst:     pick(l.AnalysesBurst, d.AnalysesBurst),
		MessagesPerSecond: pickf(l.MessagesPerSecond, d.MessagesPerSecond),
		MessagesBurst:     pick(l.MessagesBurst, d.MessagesBurst),
		ThinkersPerIP:     pick(l.ThinkersPerIP, d.ThinkersPerIP),
		AuthPerMinute:     pickf(l.AuthPerMinute, d.AuthPerMinute),
		AuthBurst:         pick(l.AuthBurst, d.AuthBurst),
		FailuresPerMinute: pickf(l.FailuresPerMinute, d.FailuresPerMinute),
		FailuresBurst:     pick(l.FailuresBurst, d.FailuresBurst),
	}
}

// clientIP returns the client of a request: its address, an IPv6 one cut
// to its /64. A request from a trusted proxy (Config.TrustedProxies) is
// the client that X-Forwarded-For names last before the trusted hops;
// any other client's X-Forwarded-For is ignored, since anyone can send
// one.
func (s *Server) clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if s.trusted(host) {
		hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
		for i := len(hops) - 1; i >= 0; i-- {
			hop := strings.TrimSpace(hops[i])
			if hop == "" {
				continue
			}
			host = hop
			if !s.trusted(hop) {
				break
			}
		}
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return host
	}
	if ip.To4() == nil {
		return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
	return ip.String()
}

// trusted reports whether an address is one of Config.TrustedProxies.
func (s *Server) trusted(host string) bool {
	ip := net.ParseIP(host)
	for _, n := range s.cfg.TrustedProxies {
		if ip != nil && n.Contains(ip) {
			return true
		}
	}
	return false
}

// overTLS reports whether the client reached the server over TLS: itself,
// or a trusted proxy that says so in X-Forwarded-Proto.
func (s *Server) overTLS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	return err == nil && s.trusted(host) && strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

// clients keeps each client's buckets and counts. Entries of clients idle
// for a while are dropped, so that the map does not grow with every
// address ever seen.
type clients struct {
	lim Limits
	mu  sync.Mutex
	m   map[string]*clientState
}

type clientState struct {
	games, analyses, messages *rate.Limiter
	auth                      *rate.Limiter
	failures                  map[string]*rate.Limiter // by user name, lower case
	sockets                   int
	analysing                 bool
	seen                      time.Time
}

func newClients(lim Limits) *clients {
	return &clients{lim: lim, m: map[string]*clientState{}}
}

// newBucket makes a token bucket; a negative rate means none.
func newBucket(perSecond float64, burst int) *rate.Limiter {
	if perSecond < 0 || burst < 0 {
		return rate.NewLimiter(rate.Inf, 0)
	}
	return rate.NewLimiter(rate.Limit(perSecond), burst)
}

// get returns ip's state, made if new; call with c.mu held.
func (c *clients) get(ip string, now time.Time) *clientState {
	st := c.m[ip]
	if st == nil {
		st = &clientState{
			games:    newBucket(c.lim.GamesPerMinute/60, c.lim.GamesBurst),
			analyses: newBucket(c.lim.AnalysesPerMinute/60, c.lim.AnalysesBurst),
			messages: newBucket(c.lim.MessagesPerSecond, c.lim.MessagesBurst),
			auth:     newBucket(c.lim.AuthPerMinute/60, c.lim.AuthBurst),
			failures: map[string]*rate.Limiter{},
		}
		c.m[ip] = st
	}
	st.seen = now
	return st
}

// allowGame takes a game creation from ip's bucket.
func (c *clients) allowGame(ip string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get(ip, time.Now()).games.Allow()
}

// authWait returns how long ip must wait before it may try to sign up or
// log in as name again: 0 when it may now.
func (c *clients) authWait(ip, name string) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	st := c.get(ip, now)
	wait := st.auth.TokensAt(now)
	d := time.Duration(0)
	if wait < 1 {
		d = time.Duration((1 - wait) / float64(st.auth.Limit()) * float64(time.Second))
	}
	if f := st.failures[strings.ToLower(name)]; f != nil {
		if t := f.TokensAt(now); t < 1 {
			d = max(d, time.Duration((1-t)/float64(f.Limit())*float64(time.Second)))
		}
	}
	return d
}

// authFailed counts a sign-up or a failed login (name "" for a sign-up)
// against ip.
func (c *clients) authFailed(ip, name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	st := c.get(ip, now)
	st.auth.AllowN(now, 1)
	if name == "" {
		return
	}
	key := strings.ToLower(name)
	f := st.failures[key]
	if f == nil {
		if len(st.failures) >= 100 {
			clear(st.failures) // one address trying many names: the IP bucket holds it
		}
		f = newBucket(c.lim.FailuresPerMinute/60, c.lim.FailuresBurst)
		st.failures[key] = f
	}
	f.AllowN(now, 1)
}

// allowMessage takes a WebSocket message from ip's bucket.
func (c *clients) allowMessage(ip string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get(ip, time.Now()).messages.Allow()
}

// startAnalysis takes an analysis for ip, or says why not: nil when
// allowed (call the returned done when the analysis ends).
func (c *clients) startAnalysis(ip string) (done func(), refusal error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.get(ip, time.Now())
	switch {
	case st.analysing:
		return nil, coded("analysis_running", "one analysis at a time: wait for the one running to finish")
	case !st.analyses.Allow():
		return nil, coded("analysis_many", "too many analyses: wait a little before asking again")
	}
	st.analysing = true
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.get(ip, time.Now()).analysing = false
	}, nil
}

// allowAnalysis takes one analysis from ip's bucket (for a game review,
// which runs in the background rather than one at a time per client).
func (c *clients) allowAnalysis(ip string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get(ip, time.Now()).analyses.Allow()
}

// openSocket counts a socket for ip; false when ip has too many.
func (c *clients) openSocket(ip string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.get(ip, time.Now())
	if c.lim.SocketsPerIP >= 0 && st.sockets >= c.lim.SocketsPerIP {
		return false
	}
	st.sockets++
	return true
}

// closeSocket counts a socket of ip closed.
func (c *clients) closeSocket(ip string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.get(ip, time.Now()).sockets--
}

// sweep drops the clients idle since before cutoff with nothing open.
func (c *clients) sweep(cutoff time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for ip, st := range c.m {
		if st.seen.Before(cutoff) && st.sockets == 0 && !st.analysing {
			delete(c.m, ip)
		}
	}
}

// scheduler shares the cores among the computer players: at most slots
// searches run at once, at most perKey of one client's games, and a slot
// that frees goes to the waiting client with the fewest searches running
// (first come first served among equals). One client's fifty games thus
// wait behind each other, not in front of everyone else's.
type scheduler struct {
	mu      sync.Mutex
	free    int
	perKey  int
	running map[string]int
	queue   []*waiter // in arrival order
}

type waiter struct {
	key   string
	ready chan struct{}
	done  bool // given the slot, or gave up
}

func newScheduler(slots, perKey int) *scheduler {
	if perKey <= 0 {
		perKey = slots
	}
	return &scheduler{free: slots, perKey: perKey, running: map[string]int{}}
}

// acquire waits for a slot for a search of key's; release gives it back.
func (sc *scheduler) acquire(ctx context.Context, key string) (release func(), err error) {
	w := &waiter{key: key, ready: make(chan struct{})}
	sc.mu.Lock()
	sc.queue = append(sc.queue, w)
	sc.dispatch()
	sc.mu.Unlock()
	select {
	case <-w.ready:
	case <-ctx.Done():
		sc.mu.Lock()
		given := w.done
		w.done = true
		sc.mu.Unlock()
		if !given {
			return nil, ctx.Err()
		}
		<-w.ready
		sc.release(key)
		return nil, ctx.Err()
	}
	var once sync.Once
	return func() { once.Do(func() { sc.release(key) }) }, nil
}

func (sc *scheduler) release(key string) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.free++
	if sc.running[key]--; sc.running[key] <= 0 {
		delete(sc.running, key)
	}
	sc.dispatch()
}

// dispatch gives each free slot to the waiter whose client has the fewest
// searches running (below perKey), the earliest of those to come (call
// with sc.mu held).
func (sc *scheduler) dispatch() {
	for sc.free > 0 {
		best := -1
		for i, w := range sc.queue {
			if w.done || sc.running[w.key] >= sc.perKey {
				continue
			}
			if best < 0 || sc.running[w.key] < sc.running[sc.queue[best].key] {
				best = i
			}
		}
		if best < 0 {
			break
		}
		w := sc.queue[best]
		sc.free--
		sc.running[w.key]++
		w.done = true
		close(w.ready)
	}
	kept := sc.queue[:0]
	for _, w := range sc.queue {
		if !w.done {
			kept = append(kept, w)
		}
	}
	clear(sc.queue[len(kept):])
	sc.queue = kept
}
