package server

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/argon2"

	"github.com/magneton-games/magneton/store"
)

// Accounts: a player may play at once as a guest (a generated name such as
// "Guest-4821", kept with a random token in a cookie) and sign up at any
// time; the guest's finished games then become the account's. A logged-in
// browser holds a session cookie whose token the database keeps hashed.

const (
	guestCookie   = "guest"
	sessionCookie = "session"
	// sessionLife is how long a login lasts.
	sessionLife = 30 * 24 * time.Hour
	// minPassword and maxPassword bound a password's length in bytes (the
	// upper bound keeps one request from costing more than a hash).
	minPassword = 8
	maxPassword = 200
)

// The Argon2id parameters: OWASP's recommended minimum in 2024 (19 MiB,
// two passes, one lane), about 30 ms on one core of the development
// machine. They are written into every hash, so raising them later leaves
// the old hashes valid.
const (
	argonTime    = 2
	argonMemory  = 19 * 1024 // KiB
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// hashPassword returns the encoded Argon2id hash of a password with a new
// salt: $argon2id$v=19$m=19456,t=2,p=1$SALT$HASH (base64 without padding).
func hashPassword(password string) string {
	salt := make([]byte, argonSaltLen)
	rand.Read(salt) // never fails
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key))
}

// checkPassword reports whether password matches an encoded hash, in time
// that does not depend on where they differ.
func checkPassword(encoded, password string) bool {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var version int
	var memory, passes uint32
	var lanes uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &passes, &lanes); err != nil || memory == 0 || passes == 0 || lanes == 0 {
		return false
	}
	b64 := base64.RawStdEncoding
	salt, err1 := b64.DecodeString(parts[4])
	want, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, passes, memory, lanes, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// reservedNames may not be taken, in any case, nor may a name that starts
// with "guest": they would pass for the computer, a guest or the site.
var reservedNames = []string{"computer", "admin", "administrator", "moderator", "system", "anonymous", "human", "magneton", "root", "support"}

// checkUserName says what is wrong with a user name, or nil.
func checkUserName(name string) error {
	if n := len(name); n < 2 || n > 20 {
		return coded("name_length", fmt.Sprintf("user name %q: want 2 to 20 characters, not %d", name, n), "name", name, "n", fmt.Sprint(n))
	}
	for i, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return coded("name_char", fmt.Sprintf("user name %q: character %d, %q, is not a letter, a digit, '-' or '_'", name, i+1, r),
				"name", name, "pos", fmt.Sprint(i+1), "char", string(r))
		}
	}
	low := strings.ToLower(name)
	if strings.HasPrefix(low, "guest") {
		return coded("name_guest", fmt.Sprintf("user name %q: names starting with \"guest\" are kept for guests", name), "name", name)
	}
	for _, r := range reservedNames {
		if low == r {
			return coded("name_reserved", fmt.Sprintf("user name %q is reserved", name), "name", name)
		}
	}
	return nil
}

// checkNewPassword says what is wrong with a password to be set, or nil.
func checkNewPassword(p string) error {
	switch {
	case len(p) < minPassword:
		return coded("password_short", fmt.Sprintf("the password is too short: at least %d characters", minPassword), "min", fmt.Sprint(minPassword))
	case len(p) > maxPassword:
		return coded("password_long", fmt.Sprintf("the password is too long: at most %d bytes", maxPassword), "max", fmt.Sprint(maxPassword))
	}
	return nil
}

// identity is who sits in a seat: an account, or a guest.
type identity struct {
	Name  string `json:"name"`            // shown to everyone
	User  string `json:"user,omitempty"`  // the account's id, or ""
	Guest string `json:"guest,omitempty"` // the hash of a guest's token, or ""
}

// guestName is the name shown for a guest token's holder.
func guestName(tokenHash string) string {
	b, err := base64.RawURLEncoding.DecodeString(tokenHash)
	if err != nil || len(b) < 4 {
		b = []byte(tokenHash + "\x00\x00\x00\x00")
	}
	return fmt.Sprintf("Guest-%04d", binary.BigEndian.Uint32(b)%10000)
}

// who returns the identity of the request's sender: its account when it
// is logged in, else its guest (a new one, whose cookie is set on w, for
// a first visit).
func (s *Server) who(w http.ResponseWriter, r *http.Request) (identity, error) {
	u, err := s.sessionUser(r)
	if err != nil {
		return identity{}, err
	}
	if u != nil {
		return identity{Name: u.Name, User: u.ID}, nil
	}
	token := ""
	if c, err := r.Cookie(guestCookie); err == nil && len(c.Value) >= 16 {
		token = c.Value
	} else {
		token = newToken()
		http.SetCookie(w, &http.Cookie{
			Name: guestCookie, Value: token, Path: "/", MaxAge: 365 * 24 * 3600,
			HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.overTLS(r),
		})
	}
	h := hashToken(token)
	return identity{Name: guestName(h), Guest: h}, nil
}

// sessionUser returns the account the request is logged in as, or nil.
func (s *Server) sessionUser(r *http.Request) (*store.User, error) {
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.WriteTimeout)
	defer cancel()
	u, err := s.st.SessionUser(ctx, hashToken(c.Value), millis(time.Now().Add(-sessionLife)))
	if errors.Is(err, store.ErrNoSession) {
		return nil, nil // expired or logged out: a guest again
	}
	return u, err
}

type accountRequest struct {
	Name        string `json:"name"`
	Password    string `json:"password"`
	NewPassword string `json:"new_password"`
}

// accountJSON is what GET /api/account and the account actions answer.
func accountJSON(id identity) map[string]any {
	return map[string]any{"name": id.Name, "guest": id.User == ""}
}

func (s *Server) handleAccount(w http.ResponseWriter, r *http.Request) {
	id, err := s.who(w, r)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, accountJSON(id))
}

// hashing admits a few password hashes at a time: each takes 19 MiB for
// tens of milliseconds, and a burst of sign-ups must not take the memory.
func (s *Server) hashing(ctx context.Context, f func()) error {
	select {
	case s.hashSlots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.hashSlots }()
	f()
	return nil
}

// authAllowed applies the limits on attempts to sign up or log in, and
// answers the client when it is over one.
func (s *Server) authAllowed(w http.ResponseWriter, r *http.Request, name string) bool {
	ip := s.clientIP(r)
	if wait := s.clients.authWait(ip, name); wait > 0 {
		secs := fmt.Sprint(int(wait.Seconds()) + 1)
		writeCoded(w, http.StatusTooManyRequests, "auth_wait", fmt.Sprintf("too many attempts from your address for %q: try again in %s s", name, secs), "name", name, "wait", secs)
		return false
	}
	return true
}

func (s *Server) handleSignup(w http.ResponseWriter, r *http.Request) {
	var req accountRequest
	if !readJSON(w, r, &req) || !s.authAllowed(w, r, req.Name) {
		return
	}
	if err := checkUserName(req.Name); err != nil {
		writeRefusal(w, http.StatusBadRequest, err)
		return
	}
	if err := checkNewPassword(req.Password); err != nil {
		writeRefusal(w, http.StatusBadRequest, err)
		return
	}
	var encoded string
	if err := s.hashing(r.Context(), func() { encoded = hashPassword(req.Password) }); err != nil {
		return // the client left
	}
	u := &store.User{ID: newID(), Name: req.Name, Password: encoded, Created: millis(time.Now())}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.WriteTimeout)
	defer cancel()
	if err := s.st.CreateUser(ctx, u); err != nil {
		if errors.Is(err, store.ErrNameTaken) {
			writeCoded(w, http.StatusConflict, "name_taken", fmt.Sprintf("the user name %q is taken (names differ in more than upper and lower case)", req.Name), "name", req.Name)
			return
		}
		s.gameError(w, r, err)
		return
	}
	s.clients.authFailed(s.clientIP(r), "") // sign-ups count against the address
	s.log.Info("account created", "user", u.Name)
	s.logIn(w, r, u)
}

func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	var req accountRequest
	if !readJSON(w, r, &req) || !s.authAllowed(w, r, req.Name) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.WriteTimeout)
	defer cancel()
	u, err := s.st.UserByName(ctx, req.Name)
	if err != nil && !errors.Is(err, store.ErrNoUser) {
		s.gameError(w, r, err)
		return
	}
	ok := false
	encoded := dummyHash()
	if u != nil {
		encoded = u.Password
	}
	// An unknown name costs the same hash as a known one, so that the time
	// of the answer does not say which names exist.
	if err := s.hashing(r.Context(), func() { ok = checkPassword(encoded, req.Password) && u != nil }); err != nil {
		return
	}
	if !ok {
		s.refuseLogin(w, r, req.Name, coded("login_wrong", "wrong user name or password"))
		return
	}
	s.logIn(w, r, u)
}

// refuseLogin answers a failed login (or password check) as name, late,
// and counts it against the client.
func (s *Server) refuseLogin(w http.ResponseWriter, r *http.Request, name string, refusal error) {
	s.clients.authFailed(s.clientIP(r), name)
	time.Sleep(failureDelay)
	writeRefusal(w, http.StatusUnauthorized, refusal)
}

// failureDelay is added to the answer to a failed login.
const failureDelay = 300 * time.Millisecond

// dummyHash is checked against when the name is unknown (made once, when
// first needed: it takes a hash's time).
var dummyHash = sync.OnceValue(func() string { return hashPassword("not a password anybody has") })

// logIn starts a session for u, gives it the guest's finished games, and
// answers with the account.
func (s *Server) logIn(w http.ResponseWriter, r *http.Request, u *store.User) {
	token := newToken()
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.WriteTimeout)
	defer cancel()
	if err := s.st.CreateSession(ctx, hashToken(token), u.ID, millis(time.Now())); err != nil {
		s.gameError(w, r, err)
		return
	}
	if c, err := r.Cookie(guestCookie); err == nil && c.Value != "" {
		if n, err := s.st.ClaimGuestGames(ctx, hashToken(c.Value), u); err != nil {
			s.log.Warn("guest games not claimed", "user", u.Name, "err", err)
		} else if n > 0 {
			s.log.Info("guest games claimed", "user", u.Name, "seats", n)
			s.claimInMemory(hashToken(c.Value), u)
		}
	}
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: token, Path: "/", MaxAge: int(sessionLife.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.overTLS(r),
	})
	writeJSON(w, http.StatusOK, accountJSON(identity{Name: u.Name, User: u.ID}))
}

func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Everywhere bool `json:"everywhere"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	u, err := s.sessionUser(r)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	if u != nil {
		c, _ := r.Cookie(sessionCookie)
		token := hashToken(c.Value)
		if req.Everywhere {
			token = ""
		}
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.WriteTimeout)
		defer cancel()
		if err := s.st.DeleteSessions(ctx, u.ID, token); err != nil {
			s.gameError(w, r, err)
			return
		}
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.overTLS(r)})
	r.Header.Del("Cookie") // answer as the guest the browser is now
	id, err := s.who(w, r)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, accountJSON(id))
}

func (s *Server) handlePassword(w http.ResponseWriter, r *http.Request) {
	var req accountRequest
	if !readJSON(w, r, &req) {
		return
	}
	u, err := s.sessionUser(r)
	switch {
	case err != nil:
		s.gameError(w, r, err)
		return
	case u == nil:
		writeCoded(w, http.StatusUnauthorized, "password_login", "log in to change your password")
		return
	case !s.authAllowed(w, r, u.Name):
		return
	}
	if err := checkNewPassword(req.NewPassword); err != nil {
		writeRefusal(w, http.StatusBadRequest, err)
		return
	}
	ok := false
	var encoded string
	if err := s.hashing(r.Context(), func() {
		if ok = checkPassword(u.Password, req.Password); ok {
			encoded = hashPassword(req.NewPassword)
		}
	}); err != nil {
		return
	}
	if !ok {
		s.refuseLogin(w, r, u.Name, coded("password_wrong", "the current password is wrong"))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.WriteTimeout)
	defer cancel()
	if err := s.st.SetPassword(ctx, u.ID, encoded); err != nil {
		s.gameError(w, r, err)
		return
	}
	// Other browsers logged in with the old password are logged out.
	if err := s.st.DeleteSessions(ctx, u.ID, ""); err != nil {
		s.gameError(w, r, err)
		return
	}
	s.logIn(w, r, u)
}

// claimInMemory brings the games this instance holds in memory up to date
// with a guest's sign-up (the database has been already), and shows the
// new name to their clients. (Another instance's game shows it from its
// next reading of the game.)
func (s *Server) claimInMemory(guestHash string, u *store.User) {
	for _, sess := range s.liveSessions() {
		sess.mu.Lock()
		nr := *sess.row
		changed := false
		for i := range 2 {
			if nr.Guests[i] == guestHash && nr.Users[i] == "" {
				nr.Users[i], nr.Players[i], nr.Guests[i] = u.ID, u.Name, ""
				changed = true
			}
		}
		if changed {
			sess.row = &nr
			sess.broadcast()
			sess.announce()
		}
		sess.mu.Unlock()
	}
}
