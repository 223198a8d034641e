package bots

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/store"
)

// request is a request in progress that came with a token: revoking the
// token cancels it and closes its connection once hijacked (a socket).
type request struct {
	cancel context.CancelFunc
	stream bool // an event stream (guarded by Bots.mu)
	mu     sync.Mutex
	conn   net.Conn
}

// requestKey is the context key of a request in progress with a token.
type requestKey struct{}

func (q *request) close() {
	q.cancel()
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.conn != nil {
		q.conn.Close()
	}
}

// hijackWriter notes the connection of a request that becomes a socket.
type hijackWriter struct {
	http.ResponseWriter
	q *request
}

// Hijack takes the connection over, as http.Hijacker, and keeps it to
// close on revocation.
func (w *hijackWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	nc, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err == nil {
		w.q.mu.Lock()
		w.q.conn = nc
		w.q.mu.Unlock()
	}
	return nc, brw, err
}

// FlushError sends what is written, for the event stream.
func (w *hijackWriter) FlushError() error {
	return http.NewResponseController(w.ResponseWriter).Flush()
}

// SetReadDeadline and SetWriteDeadline pass on to the connection, for
// the event stream.
func (w *hijackWriter) SetReadDeadline(t time.Time) error {
	return http.NewResponseController(w.ResponseWriter).SetReadDeadline(t)
}

func (w *hijackWriter) SetWriteDeadline(t time.Time) error {
	return http.NewResponseController(w.ResponseWriter).SetWriteDeadline(t)
}

// Unwrap is the writer wrapped, for http.ResponseController.
func (w *hijackWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// touchEvery is how often a token's last use is written, at most.
const touchEvery = time.Minute

// Authenticate is next for requests with an API token (Authorization:
// Bearer TOKEN): an unknown or revoked token is refused at once
// (token_unknown, token_revoked, 401), one past its rate too
// (token_fast, 429); a good one acts as its owner (identity.WithToken)
// until it is revoked, which ends the request. Requests without the
// header pass as they are.
func (b *Bots) Authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := identity.Bearer(r)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		u, tk, err := b.lookup(r.Context(), token)
		switch {
		case errors.Is(err, store.ErrTokenRevoked):
			jsonapi.WriteCoded(w, http.StatusUnauthorized, "token_revoked", "this API token was revoked: make a new one on your account's page")
			return
		case errors.Is(err, store.ErrNoToken):
			jsonapi.WriteCoded(w, http.StatusUnauthorized, "token_unknown", "no such API token: send Authorization: Bearer with a token made on your account's page")
			return
		case err != nil:
			b.fail(w, r, err)
			return
		}
		if !b.limiter(tk.ID).Allow() {
			max := fmt.Sprintf("%g", b.cfg.Limits.Rate)
			jsonapi.WriteCoded(w, http.StatusTooManyRequests, "token_fast", "too many requests with this API token: at most "+max+" a second", "max", max)
			return
		}
		b.touch(tk.ID)
		ctx, cancel := context.WithCancel(identity.WithToken(r.Context(), u, tk.ID))
		q := &request{cancel: cancel}
		ctx = context.WithValue(ctx, requestKey{}, q)
		b.add(tk.ID, q)
		defer b.remove(tk.ID, q)
		defer cancel()
		next.ServeHTTP(&hijackWriter{w, q}, r.WithContext(ctx))
	})
}

// lookup finds a token's account, within the write timeout.
func (b *Bots) lookup(ctx context.Context, token string) (*store.User, store.Token, error) {
	if token == "" {
		return nil, store.Token{}, store.ErrNoToken
	}
	ctx, cancel := context.WithTimeout(ctx, b.cfg.WriteTimeout)
	defer cancel()
	return b.cfg.Store.TokenUser(ctx, ids.Hash(token))
}

// limiter is the token bucket of a token's requests.
func (b *Bots) limiter(id string) *rate.Limiter {
	b.mu.Lock()
	defer b.mu.Unlock()
	l, ok := b.rates[id]
	if !ok {
		if len(b.rates) >= 10000 {
			clear(b.rates)
		}
		l = rate.NewLimiter(rate.Limit(b.cfg.Limits.Rate), b.cfg.Limits.Burst)
		b.rates[id] = l
	}
	return l
}

// touch writes a token's last use, at most every touchEvery.
func (b *Bots) touch(id string) {
	now := time.Now()
	if !b.seen.Due(id, now) {
		return
	}
	ctx, cancel := context.WithTimeout(b.ctx, b.cfg.WriteTimeout)
	defer cancel()
	if err := b.cfg.Store.TouchToken(ctx, id, now.UnixMilli()); err != nil {
		b.cfg.Logger.Warn("API token's use not saved", "err", err)
	}
}

func (b *Bots) add(id string, q *request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.open[id] == nil {
		b.open[id] = map[*request]struct{}{}
	}
	b.open[id][q] = struct{}{}
}

func (b *Bots) remove(id string, q *request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.open[id], q)
	if len(b.open[id]) == 0 {
		delete(b.open, id)
	}
}

// closeToken ends the requests in progress of a revoked token: their
// contexts are cancelled and their sockets closed.
func (b *Bots) closeToken(id string) {
	b.mu.Lock()
	var qs []*request
	for q := range b.open[id] {
		qs = append(qs, q)
	}
	delete(b.rates, id)
	b.mu.Unlock()
	for _, q := range qs {
		q.close()
	}
}
