// Package limits bounds what one client may use of the play server. A
// client is an IP address (an IPv6 client by its /64, which one host can
// hold whole): its sockets, game creations, analyses, messages, sign-ups
// and failed logins, each a token bucket or a count kept per address.
package limits

import (
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/magneton-games/magneton/server/wire"
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
	// ProfilesPerMinute and ProfilesBurst: the token bucket of lookups of
	// players' profiles per IP, so that the accounts' names cannot be
	// enumerated fast.
	ProfilesPerMinute float64
	ProfilesBurst     int
	// ReportsPerMinute and ReportsBurst: the token bucket of reports of
	// players per IP.
	ReportsPerMinute float64
	ReportsBurst     int
	// ResetsPerHour and ResetsBurst: the bucket of requests for a mail
	// that sets a new password per IP; AccountResetsPerHour and
	// AccountResetsBurst the bucket of such mails per account, whoever
	// asks, so that nobody fills an inbox.
	ResetsPerHour        float64
	ResetsBurst          int
	AccountResetsPerHour float64
	AccountResetsBurst   int
	// ExportsPerHour and ExportsBurst: the bucket of downloads of an
	// account's data per IP (each reads every game of the account).
	ExportsPerHour float64
	ExportsBurst   int
	// ArchivePerMinute and ArchiveBurst: the token bucket of the game
	// archive's questions per IP: the opening explorer's and the game
	// search's (each a few database reads).
	ArchivePerMinute float64
	ArchiveBurst     int
	// ImportsPerHour and ImportsBurst: the bucket of imports of game
	// records into the archive per account (each up to thousands of
	// games written).
	ImportsPerHour float64
	ImportsBurst   int
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
	ProfilesPerMinute: 60,
	ProfilesBurst:     30,
	ReportsPerMinute:  3,
	ReportsBurst:      10,
	// A person who mistypes their name asks again; a script does not
	// get far.
	ResetsPerHour:        10,
	ResetsBurst:          5,
	AccountResetsPerHour: 3,
	AccountResetsBurst:   3,
	ExportsPerHour:       10,
	ExportsBurst:         5,
	// An explorer clicked through move by move asks a question a click.
	ArchivePerMinute: 120,
	ArchiveBurst:     60,
	ImportsPerHour:   20,
	ImportsBurst:     10,
}

// NoLimits lifts every per-client limit: for load tests, whose thousands
// of clients all come from one address.
var NoLimits = Limits{
	SocketsPerIP: -1, GamesPerMinute: -1, GamesBurst: -1, AnalysesPerMinute: -1, AnalysesBurst: -1,
	MessagesPerSecond: -1, MessagesBurst: -1, ThinkersPerIP: -1,
	AuthPerMinute: -1, AuthBurst: -1, FailuresPerMinute: -1, FailuresBurst: -1,
	ProfilesPerMinute: -1, ProfilesBurst: -1, ReportsPerMinute: -1, ReportsBurst: -1,
	ResetsPerHour: -1, ResetsBurst: -1, AccountResetsPerHour: -1, AccountResetsBurst: -1,
	ExportsPerHour: -1, ExportsBurst: -1,
	ArchivePerMinute: -1, ArchiveBurst: -1, ImportsPerHour: -1, ImportsBurst: -1,
}

// WithDefaults returns l with each zero field set to DefaultLimits' value.
func (l Limits) WithDefaults() Limits {
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
		SocketsPerIP:         pick(l.SocketsPerIP, d.SocketsPerIP),
		GamesPerMinute:       pickf(l.GamesPerMinute, d.GamesPerMinute),
		GamesBurst:           pick(l.GamesBurst, d.GamesBurst),
		AnalysesPerMinute:    pickf(l.AnalysesPerMinute, d.AnalysesPerMinute),
		AnalysesBurst:        pick(l.AnalysesBurst, d.AnalysesBurst),
		MessagesPerSecond:    pickf(l.MessagesPerSecond, d.MessagesPerSecond),
		MessagesBurst:        pick(l.MessagesBurst, d.MessagesBurst),
		ThinkersPerIP:        pick(l.ThinkersPerIP, d.ThinkersPerIP),
		AuthPerMinute:        pickf(l.AuthPerMinute, d.AuthPerMinute),
		AuthBurst:            pick(l.AuthBurst, d.AuthBurst),
		FailuresPerMinute:    pickf(l.FailuresPerMinute, d.FailuresPerMinute),
		FailuresBurst:        pick(l.FailuresBurst, d.FailuresBurst),
		ProfilesPerMinute:    pickf(l.ProfilesPerMinute, d.ProfilesPerMinute),
		ProfilesBurst:        pick(l.ProfilesBurst, d.ProfilesBurst),
		ReportsPerMinute:     pickf(l.ReportsPerMinute, d.ReportsPerMinute),
		ReportsBurst:         pick(l.ReportsBurst, d.ReportsBurst),
		ResetsPerHour:        pickf(l.ResetsPerHour, d.ResetsPerHour),
		ResetsBurst:          pick(l.ResetsBurst, d.ResetsBurst),
		AccountResetsPerHour: pickf(l.AccountResetsPerHour, d.AccountResetsPerHour),
		AccountResetsBurst:   pick(l.AccountResetsBurst, d.AccountResetsBurst),
		ExportsPerHour:       pickf(l.ExportsPerHour, d.ExportsPerHour),
		ExportsBurst:         pick(l.ExportsBurst, d.ExportsBurst),
		ArchivePerMinute:     pickf(l.ArchivePerMinute, d.ArchivePerMinute),
		ArchiveBurst:         pick(l.ArchiveBurst, d.ArchiveBurst),
		ImportsPerHour:       pickf(l.ImportsPerHour, d.ImportsPerHour),
		ImportsBurst:         pick(l.ImportsBurst, d.ImportsBurst),
	}
}

// Proxies are the reverse proxies whose X-Forwarded-For (the client's
// address) and X-Forwarded-Proto (TLS) the server believes; nil trusts
// none.
type Proxies []*net.IPNet

// ClientIP returns the client of a request: its address, an IPv6 one cut
// to its /64. A request from a trusted proxy is the client that
// X-Forwarded-For names last before the trusted hops; any other client's
// X-Forwarded-For is ignored, since anyone can send one.
func (p Proxies) ClientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if p.trusted(host) {
		hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
		for i := len(hops) - 1; i >= 0; i-- {
			hop := strings.TrimSpace(hops[i])
			if hop == "" {
				continue
			}
			host = hop
			if !p.trusted(hop) {
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

// trusted reports whether an address is one of the proxies.
func (p Proxies) trusted(host string) bool {
	ip := net.ParseIP(host)
	for _, n := range p {
		if ip != nil && n.Contains(ip) {
			return true
		}
	}
	return false
}

// OverTLS reports whether the client reached the server over TLS: itself,
// or a trusted proxy that says so in X-Forwarded-Proto.
func (p Proxies) OverTLS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	return err == nil && p.trusted(host) && strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

// Site returns the site's address: the one configured, else the one the
// request reached (its scheme as OverTLS says, its host), for the links a
// server writes into what it answers, such as a record's Site tag.
func (p Proxies) Site(r *http.Request, configured string) string {
	if configured != "" {
		return configured
	}
	scheme := "http"
	if p.OverTLS(r) {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// Clients keeps each client's buckets and counts. Entries of clients idle
// for a while are dropped (Sweep), so that the map does not grow with
// every address ever seen. It is safe for concurrent use.
type Clients struct {
	lim Limits
	mu  sync.Mutex
	m   map[string]*clientState
	// slow holds the buckets that refill over an hour, by what they
	// count and whose ("reset ip", "account id"): kept until they are
	// full again, however long their owner is idle, since dropping them
	// with an idle client would give a new burst every few minutes.
	slow map[string]*Bucket
}

type clientState struct {
	games, analyses, messages *rate.Limiter
	profiles, reports         *rate.Limiter
	archive                   *rate.Limiter
	auth                      *Bucket
	failures                  map[string]*Bucket // by user name, lower case
	sockets                   int
	analysing                 bool
	seen                      time.Time
}

// NewClients keeps the clients' use under lim (with its defaults filled
// in).
func NewClients(lim Limits) *Clients {
	return &Clients{lim: lim.WithDefaults(), m: map[string]*clientState{}, slow: map[string]*Bucket{}}
}

// Limits returns the limits in force.
func (c *Clients) Limits() Limits { return c.lim }

// newLimiter makes a token bucket; a negative rate means none.
func newLimiter(perSecond float64, burst int) *rate.Limiter {
	if perSecond < 0 || burst < 0 {
		return rate.NewLimiter(rate.Inf, 0)
	}
	return rate.NewLimiter(rate.Limit(perSecond), burst)
}

// get returns ip's state, made if new; call with c.mu held.
func (c *Clients) get(ip string, now time.Time) *clientState {
	st := c.m[ip]
	if st == nil {
		st = &clientState{
			games:    newLimiter(c.lim.GamesPerMinute/60, c.lim.GamesBurst),
			analyses: newLimiter(c.lim.AnalysesPerMinute/60, c.lim.AnalysesBurst),
			profiles: newLimiter(c.lim.ProfilesPerMinute/60, c.lim.ProfilesBurst),
			reports:  newLimiter(c.lim.ReportsPerMinute/60, c.lim.ReportsBurst),
			archive:  newLimiter(c.lim.ArchivePerMinute/60, c.lim.ArchiveBurst),
			messages: newLimiter(c.lim.MessagesPerSecond, c.lim.MessagesBurst),
			auth:     newAuthBucket(c.lim.AuthPerMinute/60, c.lim.AuthBurst, now),
			failures: map[string]*Bucket{},
		}
		c.m[ip] = st
	}
	st.seen = now
	return st
}

// AllowGame takes a game creation from ip's bucket.
func (c *Clients) AllowGame(ip string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get(ip, time.Now()).games.Allow()
}

// Attempt is one attempt to sign up or log in, which holds its place in
// the limits from the moment it is allowed, before its password is hashed,
// so that attempts made all at once are limited as those made one after
// the other. It counts unless it is refunded: Refund it when it turns out
// not to count (a login that succeeds, a sign-up refused before any
// account is made).
type Attempt struct {
	c         *Clients
	auth, fai *Bucket
}

// Refund gives back the attempt's place in the limits.
func (a *Attempt) Refund() {
	a.c.mu.Lock()
	defer a.c.mu.Unlock()
	a.auth.give()
	if a.fai != nil {
		a.fai.give()
	}
}

// StartAuth takes an attempt of ip to sign up (name "") or to log in as
// name: the attempt, or how long ip must wait before it may try again.
func (c *Clients) StartAuth(ip, name string) (*Attempt, time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	st := c.get(ip, now)
	a := &Attempt{c: c, auth: st.auth}
	wait := st.auth.wait(now)
	if name != "" {
		a.fai = st.failure(name, c.lim, now)
		wait = max(wait, a.fai.wait(now))
	}
	if wait > 0 {
		return nil, wait
	}
	a.auth.Allow(now)
	if a.fai != nil {
		a.fai.Allow(now)
	}
	return a, 0
}

// failure returns the bucket of failed logins as name, made if new.
func (st *clientState) failure(name string, lim Limits, now time.Time) *Bucket {
	key := strings.ToLower(name)
	f := st.failures[key]
	if f == nil {
		if len(st.failures) >= 100 {
			clear(st.failures) // one address trying many names: the IP bucket holds it
		}
		f = newAuthBucket(lim.FailuresPerMinute/60, lim.FailuresBurst, now)
		st.failures[key] = f
	}
	return f
}

// newAuthBucket is a bucket of attempts; a negative rate means no limit.
func newAuthBucket(perSecond float64, burst int, now time.Time) *Bucket {
	if perSecond < 0 || burst < 0 {
		return &Bucket{unlimited: true}
	}
	return NewBucket(perSecond, burst, now)
}

// AllowProfile takes a lookup of a player's profile from ip's bucket.
func (c *Clients) AllowProfile(ip string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get(ip, time.Now()).profiles.Allow()
}

// AllowArchive takes a question to the game archive (the explorer, the
// game search) from ip's bucket.
func (c *Clients) AllowArchive(ip string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get(ip, time.Now()).archive.Allow()
}

// AllowImport takes an import of game records into the archive from the
// bucket of the account userID.
func (c *Clients) AllowImport(userID string) bool {
	return c.allowSlow("import "+userID, c.lim.ImportsPerHour, c.lim.ImportsBurst)
}

// AllowReport takes a report of a player from ip's bucket.
func (c *Clients) AllowReport(ip string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get(ip, time.Now()).reports.Allow()
}

// AllowMessage takes a WebSocket message from ip's bucket.
func (c *Clients) AllowMessage(ip string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get(ip, time.Now()).messages.Allow()
}

// StartAnalysis takes an analysis for ip, or says why not: nil when
// allowed (call the returned done when the analysis ends).
func (c *Clients) StartAnalysis(ip string) (done func(), refusal error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.get(ip, time.Now())
	switch {
	case st.analysing:
		return nil, wire.Refuse("analysis_running", "one analysis at a time: wait for the one running to finish")
	case !st.analyses.Allow():
		return nil, wire.Refuse("analysis_many", "too many analyses: wait a little before asking again")
	}
	st.analysing = true
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.get(ip, time.Now()).analysing = false
	}, nil
}

// AllowAnalysis takes one analysis from ip's bucket (for a game review,
// which runs in the background rather than one at a time per client).
func (c *Clients) AllowAnalysis(ip string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get(ip, time.Now()).analyses.Allow()
}

// OpenSocket counts a socket for ip; false when ip has too many.
func (c *Clients) OpenSocket(ip string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.get(ip, time.Now())
	if c.lim.SocketsPerIP >= 0 && st.sockets >= c.lim.SocketsPerIP {
		return false
	}
	st.sockets++
	return true
}

// CloseSocket counts a socket of ip closed.
func (c *Clients) CloseSocket(ip string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.get(ip, time.Now()).sockets--
}

// Sweep drops the clients idle since before cutoff with nothing open.
func (c *Clients) Sweep(cutoff time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for ip, st := range c.m {
		if st.seen.Before(cutoff) && st.sockets == 0 && !st.analysing {
			delete(c.m, ip)
		}
	}
	now := time.Now()
	for k, b := range c.slow {
		if b.full(now) {
			delete(c.slow, k)
		}
	}
}

// allowSlow takes a token from the slow bucket key, made full if new with
// perHour and burst (no limit when either is negative).
func (c *Clients) allowSlow(key string, perHour float64, burst int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	b := c.slow[key]
	if b == nil {
		b = newAuthBucket(perHour/3600, burst, now)
		c.slow[key] = b
	}
	return b.Allow(now)
}

// AllowReset takes a request for a mail that sets a password from ip's
// bucket.
func (c *Clients) AllowReset(ip string) bool {
	return c.allowSlow("reset "+ip, c.lim.ResetsPerHour, c.lim.ResetsBurst)
}

// AllowAccountReset takes a mail that sets a password from the bucket of
// the account userID.
func (c *Clients) AllowAccountReset(userID string) bool {
	return c.allowSlow("account "+userID, c.lim.AccountResetsPerHour, c.lim.AccountResetsBurst)
}

// AllowExport takes a download of an account's data from ip's bucket.
func (c *Clients) AllowExport(ip string) bool {
	return c.allowSlow("export "+ip, c.lim.ExportsPerHour, c.lim.ExportsBurst)
}

// Bucket is a token bucket for one sender's pace, kept by its owner under
// the owner's lock (a socket's messages, a chat writer's lines).
type Bucket struct {
	rate      float64 // tokens a second
	burst     float64
	tokens    float64
	last      time.Time
	unlimited bool
}

// NewBucket is a full bucket of burst tokens that refills at rate a
// second, as of now.
func NewBucket(rate float64, burst int, now time.Time) *Bucket {
	return &Bucket{rate: rate, burst: float64(burst), tokens: float64(burst), last: now}
}

// Rate returns the bucket's tokens a second.
func (b *Bucket) Rate() float64 { return b.rate }

// Allow takes a token at now, false when there is none.
func (b *Bucket) Allow(now time.Time) bool {
	if b.unlimited {
		return true
	}
	b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Analysing is how many clients have an analysis running.
func (c *Clients) Analysing() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, st := range c.m {
		if st.analysing {
			n++
		}
	}
	return n
}

// wait is how long until the bucket has a token, from now.
func (b *Bucket) wait(now time.Time) time.Duration {
	if b.unlimited {
		return 0
	}
	tokens := min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	if tokens >= 1 || b.rate <= 0 {
		if tokens >= 1 {
			return 0
		}
		return time.Duration(1<<63 - 1)
	}
	return time.Duration((1 - tokens) / b.rate * float64(time.Second))
}

// full reports whether the bucket holds its whole burst again at now.
func (b *Bucket) full(now time.Time) bool {
	return b.unlimited || b.tokens+now.Sub(b.last).Seconds()*b.rate >= b.burst
}

// give puts back a token taken.
func (b *Bucket) give() {
	if !b.unlimited {
		b.tokens = min(b.burst, b.tokens+1)
	}
}
