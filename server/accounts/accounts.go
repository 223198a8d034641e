// Package accounts is the play server's accounts: sign-up, log-in and
// log-out, the change of a password, an e-mail address and the one-time
// links mailed to it that set a new password, the list of an account's
// logged-in browsers, the download of its data and its deletion. A player
// may play at once as a guest (package identity) and sign up at any time;
// the guest's games then become the account's. Passwords are kept as
// Argon2id hashes; a few hashes run at a time, and the attempts of one
// address are limited (package limits), so that neither a burst of
// sign-ups nor a guesser can take the server.
package accounts

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"

	"github.com/magneton-games/magneton/server/fair"
	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/limits"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/mail"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// minPassword and maxPassword bound a password's length in bytes (the
// upper bound keeps one request from costing more than a hash).
const (
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

// HashPassword returns the encoded Argon2id hash of a password with a new
// salt: $argon2id$v=19$m=19456,t=2,p=1$SALT$HASH (base64 without padding).
func HashPassword(password string) string {
	salt := make([]byte, argonSaltLen)
	rand.Read(salt) // never fails
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key))
}

// CheckPassword reports whether password matches an encoded hash, in time
// that does not depend on where they differ.
func CheckPassword(encoded, password string) bool {
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

// checkNewPassword says what is wrong with a password to be set, or nil.
func checkNewPassword(p string) error {
	switch {
	case len(p) < minPassword:
		return wire.Refuse("password_short", fmt.Sprintf("the password is too short: at least %d characters", minPassword), "min", fmt.Sprint(minPassword))
	case len(p) > maxPassword:
		return wire.Refuse("password_long", fmt.Sprintf("the password is too long: at most %d bytes", maxPassword), "max", fmt.Sprint(maxPassword))
	}
	return nil
}

// checkEmail says what is wrong with an account's e-mail address, or
// nil; "" (none) is right.
func checkEmail(email string) error {
	if email == "" {
		return nil
	}
	if err := mail.CheckAddress(email); err != nil {
		return wire.Refuse("email_bad", fmt.Sprintf("the e-mail address %q: %v", clip(email), err), "email", clip(email))
	}
	return nil
}

// clip cuts a text to quote at 60 bytes, on a rune's boundary.
func clip(s string) string {
	if len(s) <= 60 {
		return s
	}
	cut := 60
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// Accounts answers the account API.
type Accounts struct {
	cfg Config
	// hashers admits the password hashes that run at once, one per
	// address, the next to the address that has hashed least lately; a
	// request waits at most hashWait.
	hashers  *fair.Scheduler
	hashWait time.Duration
	// mailer mails the links that set a password; nil without mail.
	mailer *resetMailer
}

// hashWait is the longest a request waits for a hashing slot. Sign-ups
// from many addresses, each within its own limit, would otherwise queue
// for minutes (800 at once took longer than 20 s on two cores); past it
// the client hears 503 auth_busy, with nothing counted against it.
const hashWait = 3 * time.Second

// errHashBusy: no hashing slot came free within hashWait.
var errHashBusy = errors.New("accounts: every password hashing slot is busy")

// New makes the accounts' handlers, and starts the mailer when there is
// mail to send; Close stops it.
func New(cfg Config) *Accounts {
	a := &Accounts{cfg: cfg, hashers: newHashers(), hashWait: hashWait}
	if cfg.Mail != nil {
		a.mailer = newResetMailer(cfg)
	}
	return a
}

// Close stops the mailer, waiting within ctx for the mail it sends.
func (a *Accounts) Close(ctx context.Context) {
	if a.mailer != nil {
		a.mailer.close(ctx)
	}
}

// hashOf is the hash of a cookie's token, "" for no cookie.
func hashOf(c *http.Cookie) string {
	if c == nil || c.Value == "" {
		return ""
	}
	return ids.Hash(c.Value)
}

// loggedIn returns the account the request is logged in as, with the
// hash of its session's token; nil when it has answered (an error, or
// 401 for a guest).
func (a *Accounts) loggedIn(w http.ResponseWriter, r *http.Request) (*store.User, string) {
	u, err := a.cfg.Identities.User(r)
	switch {
	case err != nil:
		a.fail(w, r, err)
		return nil, ""
	case u == nil:
		jsonapi.WriteCoded(w, http.StatusUnauthorized, "account_login", "log in to your account first")
		return nil, ""
	}
	c, _ := r.Cookie(identity.SessionCookie)
	return u, hashOf(c)
}

type accountRequest struct {
	Name        string `json:"name"`
	Password    string `json:"password"`
	NewPassword string `json:"new_password"`
	Email       string `json:"email"`
}

// userJSON is what GET /api/account and the account actions answer for
// an account: its e-mail address too, which only its owner sees, whether
// the site sends mail, and its standing with the moderators.
func (a *Accounts) userJSON(ctx context.Context, u *store.User) map[string]any {
	out := map[string]any{"name": u.Name, "guest": false, "email": u.Email, "mail": a.cfg.Mail != nil}
	if a.cfg.Moderation != nil {
		if st, err := a.cfg.Moderation.Told(ctx, u.ID); err == nil {
			out["standing"] = st
		}
	}
	return out
}

// guestJSON is what they answer for a guest.
func (a *Accounts) guestJSON(p live.Player) map[string]any {
	return map[string]any{"name": p.Name, "guest": true, "mail": a.cfg.Mail != nil}
}

func (a *Accounts) fail(w http.ResponseWriter, r *http.Request, err error) {
	jsonapi.Fail(w, r, a.cfg.Logger, err)
}

func (a *Accounts) handleAccount(w http.ResponseWriter, r *http.Request) {
	u, err := a.cfg.Identities.User(r)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if u != nil {
		jsonapi.Write(w, http.StatusOK, a.userJSON(r.Context(), u))
		return
	}
	p, err := a.cfg.Identities.Who(w, r)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, a.guestJSON(p))
}

// newHashers is the scheduler of the password hashes: four at once (each
// takes 19 MiB for tens of milliseconds, and a burst of sign-ups must not
// take the memory), one per address, and a slot that frees goes to the
// address that has hashed least lately, so that the owner of an account
// logs in while others flood the server from many addresses.
func newHashers() *fair.Scheduler {
	return fair.New(fair.Options{Slots: 4, PerKey: 1, ByUse: true})
}

// hashing runs f, a password hash of request r, once it has a slot. It
// returns errHashBusy when no slot comes free within hashWait, and the
// request's error when the client leaves first.
func (a *Accounts) hashing(r *http.Request, f func()) error {
	ctx, cancel := context.WithTimeout(r.Context(), a.hashWait)
	defer cancel()
	release, err := a.hashers.Acquire(ctx, a.cfg.Proxies.ClientIP(r))
	if err != nil {
		if r.Context().Err() != nil {
			return r.Context().Err()
		}
		return errHashBusy
	}
	defer release()
	f()
	return nil
}

// hashFailed answers a request whose password hash did not run: 503
// auth_busy when the slots were busy, nothing when the client left.
func hashFailed(w http.ResponseWriter, err error) {
	if errors.Is(err, errHashBusy) {
		w.Header().Set("Retry-After", "5")
		jsonapi.WriteCoded(w, http.StatusServiceUnavailable, "auth_busy", "the server is busy checking passwords: try again in a few seconds")
	}
}

// startAuth applies the limits on attempts to sign up (name "") or log in
// as name: the attempt, which counts unless refunded, or nil when it has
// answered the client that it is over a limit.
func (a *Accounts) startAuth(w http.ResponseWriter, r *http.Request, name string) *limits.Attempt {
	att, wait := a.cfg.Clients.StartAuth(a.cfg.Proxies.ClientIP(r), name)
	if att == nil {
		secs := fmt.Sprint(int(wait.Seconds()) + 1)
		jsonapi.WriteCoded(w, http.StatusTooManyRequests, "auth_wait", fmt.Sprintf("too many attempts from your address for %q: try again in %s s", name, secs), "name", name, "wait", secs)
	}
	return att
}

func (a *Accounts) handleSignup(w http.ResponseWriter, r *http.Request) {
	var req accountRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	// A sign-up counts against the address, as it starts; one refused
	// before any account is made does not.
	att := a.startAuth(w, r, "")
	if att == nil {
		return
	}
	counted := false
	defer func() {
		if !counted {
			att.Refund()
		}
	}()
	if err := identity.CheckUserName(req.Name); err != nil {
		jsonapi.WriteRefusal(w, http.StatusBadRequest, err)
		return
	}
	if err := checkNewPassword(req.Password); err != nil {
		jsonapi.WriteRefusal(w, http.StatusBadRequest, err)
		return
	}
	if err := checkEmail(req.Email); err != nil {
		jsonapi.WriteRefusal(w, http.StatusBadRequest, err)
		return
	}
	var encoded string
	if err := a.hashing(r, func() { encoded = HashPassword(req.Password) }); err != nil {
		hashFailed(w, err)
		return
	}
	u := &store.User{ID: ids.New(), Name: req.Name, Password: encoded, Created: time.Now().UnixMilli(), Email: req.Email}
	ctx, cancel := context.WithTimeout(r.Context(), a.cfg.WriteTimeout)
	defer cancel()
	if err := a.cfg.Store.CreateUser(ctx, u); err != nil {
		if errors.Is(err, store.ErrNameTaken) {
			jsonapi.WriteCoded(w, http.StatusConflict, "name_taken", fmt.Sprintf("the user name %q is taken, or one that reads the same (names differ in more than upper and lower case, - and _, and look-alike letters such as l, I and 1, or O and 0)", req.Name), "name", req.Name)
			return
		}
		a.fail(w, r, err)
		return
	}
	counted = true
	a.cfg.Logger.Info("account created", "user", u.Name)
	a.logIn(w, r, u)
}

func (a *Accounts) handleLogin(w http.ResponseWriter, r *http.Request) {
	var req accountRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	// The attempt counts as a failure from the start: a right password
	// gives its place back.
	att := a.startAuth(w, r, req.Name)
	if att == nil {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), a.cfg.WriteTimeout)
	defer cancel()
	u, err := a.cfg.Store.UserByName(ctx, req.Name)
	if err != nil && !errors.Is(err, store.ErrNoUser) {
		att.Refund()
		a.fail(w, r, err)
		return
	}
	ok := false
	encoded := dummyHash()
	if u != nil {
		encoded = u.Password
	}
	// An unknown name costs the same hash as a known one, so that the time
	// of the answer does not say which names exist.
	if err := a.hashing(r, func() { ok = CheckPassword(encoded, req.Password) && u != nil }); err != nil {
		att.Refund()
		hashFailed(w, err)
		return
	}
	if !ok {
		refuseLogin(w, wire.Refuse("login_wrong", "wrong user name or password"))
		return
	}
	att.Refund()
	if a.cfg.Moderation != nil {
		if err := a.cfg.Moderation.CheckPlay(r.Context(), u.ID); err != nil {
			jsonapi.WriteRefusal(w, http.StatusForbidden, err) // banned or closed: told why
			return
		}
	}
	a.logIn(w, r, u)
}

// refuseLogin answers a failed login (or password check), late.
func refuseLogin(w http.ResponseWriter, refusal error) {
	refuseLate(w, http.StatusUnauthorized, refusal)
}

// refuseLate answers a failed attempt with status, late.
func refuseLate(w http.ResponseWriter, status int, refusal error) {
	time.Sleep(failureDelay)
	jsonapi.WriteRefusal(w, status, refusal)
}

// failureDelay is added to the answer to a failed login.
const failureDelay = 300 * time.Millisecond

// dummyHash is checked against when the name is unknown (made once, when
// first needed: it takes a hash's time).
var dummyHash = sync.OnceValue(func() string { return HashPassword("not a password anybody has") })

// logIn starts a session for u, gives it the guest's games, and answers
// with the account.
func (a *Accounts) logIn(w http.ResponseWriter, r *http.Request, u *store.User) {
	token := ids.Token()
	ctx, cancel := context.WithTimeout(r.Context(), a.cfg.WriteTimeout)
	defer cancel()
	if err := a.cfg.Store.CreateSession(ctx, ids.Hash(token), u.ID, ShortAgent(r.UserAgent()), time.Now().UnixMilli()); err != nil {
		a.fail(w, r, err)
		return
	}
	if c, err := r.Cookie(identity.GuestCookie); err == nil && c.Value != "" {
		if n, err := a.cfg.Store.ClaimGuestGames(ctx, ids.Hash(c.Value), u); err != nil {
			a.cfg.Logger.Warn("guest games not claimed", "user", u.Name, "err", err)
		} else if n > 0 {
			a.cfg.Logger.Info("guest games claimed", "user", u.Name, "seats", n)
			a.cfg.Games.ClaimGuest(ids.Hash(c.Value), u.ID, u.Name)
		}
	}
	a.cfg.Identities.SetCookie(w, r, identity.SessionCookie, token, identity.SessionLife)
	if a.cfg.Moderation != nil {
		a.cfg.Moderation.Seen(r.Context(), u.ID, a.cfg.Proxies.ClientIP(r), identity.Browser(r))
	}
	jsonapi.Write(w, http.StatusOK, a.userJSON(r.Context(), u))
}

func (a *Accounts) handleLogout(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Everywhere bool `json:"everywhere"`
	}
	if !jsonapi.Read(w, r, &req) {
		return
	}
	u, err := a.cfg.Identities.User(r)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if u != nil {
		c, _ := r.Cookie(identity.SessionCookie)
		token := ids.Hash(c.Value)
		if req.Everywhere {
			token = ""
		}
		ctx, cancel := context.WithTimeout(r.Context(), a.cfg.WriteTimeout)
		defer cancel()
		if err := a.cfg.Store.DeleteSessions(ctx, u.ID, token); err != nil {
			a.fail(w, r, err)
			return
		}
	}
	a.loggedOut(w, r, u != nil)
}

// loggedOut clears the browser's login (and, with seats, its seat
// cookies: a shared browser keeps no control of the account's games) and
// answers as the guest the browser is now.
func (a *Accounts) loggedOut(w http.ResponseWriter, r *http.Request, seats bool) {
	a.cfg.Identities.SetCookie(w, r, identity.SessionCookie, "", -1)
	for _, c := range r.Cookies() {
		if seats && identity.IsSeatCookie(c.Name) {
			a.cfg.Identities.SetCookie(w, r, c.Name, "", -1)
		}
	}
	r.Header.Del("Cookie") // answer as the guest the browser is now
	p, err := a.cfg.Identities.Who(w, r)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, a.guestJSON(p))
}

func (a *Accounts) handlePassword(w http.ResponseWriter, r *http.Request) {
	var req accountRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	u, err := a.cfg.Identities.User(r)
	switch {
	case err != nil:
		a.fail(w, r, err)
		return
	case u == nil:
		jsonapi.WriteCoded(w, http.StatusUnauthorized, "password_login", "log in to change your password")
		return
	}
	att := a.startAuth(w, r, u.Name)
	if att == nil {
		return
	}
	if err := checkNewPassword(req.NewPassword); err != nil {
		att.Refund()
		jsonapi.WriteRefusal(w, http.StatusBadRequest, err)
		return
	}
	ok := false
	var encoded string
	if err := a.hashing(r, func() {
		if ok = CheckPassword(u.Password, req.Password); ok {
			encoded = HashPassword(req.NewPassword)
		}
	}); err != nil {
		att.Refund()
		hashFailed(w, err)
		return
	}
	if !ok {
		refuseLogin(w, wire.Refuse("password_wrong", "the current password is wrong"))
		return
	}
	att.Refund()
	ctx, cancel := context.WithTimeout(r.Context(), a.cfg.WriteTimeout)
	defer cancel()
	if err := a.cfg.Store.SetPassword(ctx, u.ID, encoded); err != nil {
		a.fail(w, r, err)
		return
	}
	// Other browsers logged in with the old password are logged out.
	if err := a.cfg.Store.DeleteSessions(ctx, u.ID, ""); err != nil {
		a.fail(w, r, err)
		return
	}
	a.logIn(w, r, u)
}
