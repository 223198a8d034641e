package server

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/internal/smtptest"
	"github.com/magneton-games/magneton/server/accounts"
	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/mail"
	"github.com/magneton-games/magneton/store"
)

// siteURL is the address the test servers' mailed links start with.
const siteURL = "https://play.example.org"

// mailServer is a test server that sends its mail through an SMTP server
// in the test's process, which it returns too.
func mailServer(t *testing.T, tune ...func(*Config)) (*testServer, *smtptest.Server) {
	t.Helper()
	smtpd := smtptest.Start(t, smtptest.Options{})
	sender, err := mail.New(mail.Config{Addr: smtpd.Addr, From: "Magneton <noreply@play.example.org>"})
	if err != nil {
		t.Fatal(err)
	}
	withMail := func(c *Config) { c.Mail, c.SiteURL = sender, siteURL }
	return startServer(t, t.TempDir(), append([]func(*Config){withMail}, tune...)...), smtpd
}

// raw sends a request as do does and returns the status and the body as
// it came.
func (u *user) raw(method, path string, body any) (int, string) {
	u.t.Helper()
	b, _ := json.Marshal(body)
	req, err := http.NewRequest(method, u.s.url+path, bytes.NewReader(b))
	if err != nil {
		u.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := u.http.Do(req)
	if err != nil {
		u.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// signedUpWith returns a new browser logged in to a new account with an
// e-mail address.
func (s *testServer) signedUpWith(name, email string) *user {
	s.t.Helper()
	u := s.user()
	if a, code := u.account("POST", "/api/account/signup", map[string]string{"name": name, "password": "long enough", "email": email}); code != http.StatusOK {
		s.t.Fatalf("sign-up %s: %d %q", name, code, a.Error)
	}
	return u
}

// resetToken reads a mail's link and returns its token, checking that it
// goes to the address to.
func resetToken(t *testing.T, m smtptest.Mail, to string) string {
	t.Helper()
	if len(m.To) != 1 || m.To[0] != to || !strings.Contains(m.Header("To"), to) {
		t.Fatalf("a mail to %v (%q), want %s", m.To, m.Header("To"), to)
	}
	link := m.Link(siteURL + "/reset#")
	token := strings.TrimPrefix(link, siteURL+"/reset#")
	if len(token) < 16 {
		t.Fatalf("no link in the mail:\n%s", m.Body())
	}
	return token
}

// TestPasswordResetByMail: a request by name, in any case, mails the
// account's address a link that sets a new password once and logs every
// browser out; a request by address mails each account that has it; the
// mail is in the page's language.
func TestPasswordResetByMail(t *testing.T) {
	s, smtpd := mailServer(t)
	laptop := s.signedUpWith("ann", "ann@example.org")
	if a, _ := laptop.account("GET", "/api/account", nil); a.Name != "ann" {
		t.Fatalf("ann: %+v", a)
	}
	phone := s.user()
	if code, body := phone.raw("POST", "/api/account/forgot", map[string]string{"who": "ANN"}); code != http.StatusAccepted || !strings.Contains(body, `"asked":true`) {
		t.Fatalf("forgot: %d %s", code, body)
	}
	m := smtpd.Next(t, 10*time.Second)
	token := resetToken(t, m, "ann@example.org")
	if subject := m.Header("Subject"); subject != "Set a new password on play.example.org" || !strings.Contains(m.Body(), "ann") {
		t.Errorf("the mail: %q\n%s", subject, m.Body())
	}
	var done struct{ Name, Error string }
	if code := phone.do("POST", "/api/account/reset", map[string]string{"token": token, "password": "brand new pass"}, &done); code != http.StatusOK || done.Name != "ann" {
		t.Fatalf("reset: %d %+v", code, done)
	}
	if a, _ := laptop.account("GET", "/api/account", nil); !a.Guest {
		t.Errorf("the other browser is still logged in after the reset: %+v", a)
	}
	if _, code := phone.account("POST", "/api/account/login", map[string]string{"name": "ann", "password": "long enough"}); code != http.StatusUnauthorized {
		t.Errorf("the old password: %d", code)
	}
	if a, code := phone.account("POST", "/api/account/login", map[string]string{"name": "ann", "password": "brand new pass"}); code != http.StatusOK || a.Name != "ann" {
		t.Errorf("the new password: %d %+v", code, a)
	}
	if a, code := phone.account("POST", "/api/account/reset", map[string]string{"token": token, "password": "another pass"}); code != http.StatusBadRequest || a.Error == "" || !strings.Contains(a.Error, "expired, was used") {
		t.Errorf("the link used again: %d %q", code, a.Error)
	}
	// Two accounts of one address, asked for by it in another case and
	// from an Esperanto page: a mail each, in Esperanto.
	s.signedUpWith("bea", "Shared@Example.org")
	s.signedUpWith("cy", "shared@example.org")
	phone.raw("POST", "/api/account/forgot", map[string]string{"who": " SHARED@example.org ", "lang": "eo"})
	for _, want := range []string{"Shared@Example.org", "shared@example.org"} {
		m := smtpd.Next(t, 10*time.Second)
		resetToken(t, m, want)
		if subject := m.Header("Subject"); subject != "Elektu novan pasvorton ĉe play.example.org" {
			t.Errorf("the Esperanto subject: %q", subject)
		}
	}
}

// TestForgotGivesNothingAway: a request for an unknown name, an account
// without an address, or an unknown address is answered as one for an
// account with an address, and mails nothing: the next mail is the
// next known account's.
func TestForgotGivesNothingAway(t *testing.T) {
	s, smtpd := mailServer(t, func(c *Config) { c.Limits = Limits{ResetsBurst: 20} })
	s.signedUpWith("ann", "ann@example.org")
	s.signedUp("bob") // no address
	u := s.user()
	wantCode, want := u.raw("POST", "/api/account/forgot", map[string]string{"who": "ann"})
	resetToken(t, smtpd.Next(t, 10*time.Second), "ann@example.org")
	for _, who := range []string{"nobody", "bob", "nobody@example.org", "ann@example.org.evil"} {
		start := time.Now()
		code, body := u.raw("POST", "/api/account/forgot", map[string]string{"who": who})
		if code != wantCode || body != want {
			t.Errorf("for %q: %d %s, want %d %s as for ann", who, code, body, wantCode, want)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("for %q: answered in %v", who, d)
		}
	}
	u.raw("POST", "/api/account/forgot", map[string]string{"who": "ann@example.org"})
	resetToken(t, smtpd.Next(t, 10*time.Second), "ann@example.org") // nothing came before it
	for _, body := range []map[string]string{{"who": ""}, {"who": "   "}, {"who": strings.Repeat("a", 300)}} {
		if a, code := u.account("POST", "/api/account/forgot", body); code != http.StatusBadRequest || a.Error == "" {
			t.Errorf("forgot %q: %d %q", body["who"], code, a.Error)
		}
	}
}

// TestForgotLimits: one address may ask a few times an hour, then hears
// 429 with a code; an account gets a few mails an hour, whoever asks, and
// the requests over that are answered as the others and mail nothing.
func TestForgotLimits(t *testing.T) {
	s, smtpd := mailServer(t, func(c *Config) {
		c.Limits = Limits{ResetsPerHour: 0.001, ResetsBurst: 3, AccountResetsPerHour: 0.001, AccountResetsBurst: 2}
	})
	s.signedUpWith("ann", "ann@example.org")
	s.signedUpWith("cat", "cat@example.org")
	one := s.userFrom("127.0.0.2")
	for i := range 3 {
		if code, _ := one.raw("POST", "/api/account/forgot", map[string]string{"who": "nobody"}); code != http.StatusAccepted {
			t.Fatalf("request %d: %d", i+1, code)
		}
	}
	var refused struct{ Error, Code string }
	if code := one.do("POST", "/api/account/forgot", map[string]string{"who": "ann"}, &refused); code != http.StatusTooManyRequests || refused.Code != "forgot_fast" {
		t.Errorf("a fourth request from one address: %d %+v", code, refused)
	}
	// Three addresses ask for ann: two mails, and the third request is
	// answered alike but mails nothing, as cat's mail next shows.
	for _, ip := range []string{"127.0.0.3", "127.0.0.4", "127.0.0.5"} {
		if code, _ := s.userFrom(ip).raw("POST", "/api/account/forgot", map[string]string{"who": "ann"}); code != http.StatusAccepted {
			t.Errorf("a request for ann from %s: %d", ip, code)
		}
	}
	s.userFrom("127.0.0.6").raw("POST", "/api/account/forgot", map[string]string{"who": "cat"})
	for _, want := range []string{"ann@example.org", "ann@example.org", "cat@example.org"} {
		resetToken(t, smtpd.Next(t, 10*time.Second), want)
	}
}

// TestResetWithoutMail: a site without mail says so, and refuses the
// requests for a mail with a code; an operator's link (as magneton admin
// reset-link makes it) sets the password; an expired, unknown or
// malformed link is refused, a bad password first, and guessing links is
// limited as logins are.
func TestResetWithoutMail(t *testing.T) {
	s := startServer(t, t.TempDir(), func(c *Config) { c.Limits = Limits{AuthBurst: 8} })
	laptop := s.signedUp("ann")
	var me struct{ Mail bool }
	if laptop.do("GET", "/api/account", nil, &me); me.Mail {
		t.Error("a site without mail says it sends mail")
	}
	var refused struct{ Error, Code string }
	if code := laptop.do("POST", "/api/account/forgot", map[string]string{"who": "ann"}, &refused); code != http.StatusNotImplemented || refused.Code != "mail_off" {
		t.Errorf("forgot without mail: %d %+v", code, refused)
	}
	ctx := context.Background()
	u, err := s.st.UserByName(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	token, err := accounts.IssueReset(ctx, s.st, u.ID, accounts.AdminLinkLife, store.ResetByAdmin)
	if err != nil {
		t.Fatal(err)
	}
	if link := accounts.ResetLink(siteURL+"/", token); link != siteURL+"/reset#"+token {
		t.Errorf("the link: %s", link)
	}
	s.st.CreateReset(ctx, store.Reset{TokenHash: ids.Hash("an-expired-token-0123"), UserID: u.ID, Created: 1, Expires: 2, Via: store.ResetByAdmin})
	other := s.user()
	for _, tc := range []struct{ token, password, code string }{
		{token, "short", "password_short"},
		{"an-expired-token-0123", "long enough 2", "reset_bad"},
		{"short", "long enough 2", "reset_bad"},
		{ids.Token(), "long enough 2", "reset_bad"},
	} {
		if code := other.do("POST", "/api/account/reset", map[string]string{"token": tc.token, "password": tc.password}, &refused); code != http.StatusBadRequest || refused.Code != tc.code {
			t.Errorf("reset with %q, %q: %d %+v, want %s", tc.token, tc.password, code, refused, tc.code)
		}
	}
	if code := other.do("POST", "/api/account/reset", map[string]string{"token": token, "password": "operator's pass"}, nil); code != http.StatusOK {
		t.Fatalf("the operator's link: %d", code)
	}
	if a, _ := laptop.account("GET", "/api/account", nil); !a.Guest {
		t.Errorf("still logged in after the reset: %+v", a)
	}
	for i := 0; ; i++ {
		code := other.do("POST", "/api/account/reset", map[string]string{"token": ids.Token(), "password": "long enough 2"}, &refused)
		if code == http.StatusTooManyRequests {
			break
		}
		if code != http.StatusBadRequest || i > 8 {
			t.Fatalf("guess %d: %d %+v", i+1, code, refused)
		}
	}
}

// TestMailOverTLS: the server sends its mail over STARTTLS, logged in,
// when the SMTP server offers it, and the link in it works.
func TestMailOverTLS(t *testing.T) {
	smtpd := smtptest.Start(t, smtptest.Options{TLS: true, User: "site", Password: "mail secret"})
	sender, err := mail.New(mail.Config{Addr: smtpd.Addr, From: "noreply@play.example.org", User: "site", Password: "mail secret",
		TLS: tlsFor(smtpd)})
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, t.TempDir(), func(c *Config) { c.Mail, c.SiteURL = sender, siteURL })
	s.signedUpWith("ann", "ann@example.org")
	s.user().raw("POST", "/api/account/forgot", map[string]string{"who": "ann", "lang": "it"})
	m := smtpd.Next(t, 10*time.Second)
	if !m.TLS || m.User != "site" || m.Header("Subject") != "Scegli una nuova password su play.example.org" {
		t.Errorf("the mail came with TLS %v, as %q: %q", m.TLS, m.User, m.Header("Subject"))
	}
	if code := s.user().do("POST", "/api/account/reset", map[string]string{"token": resetToken(t, m, "ann@example.org"), "password": "brand new pass"}, nil); code != http.StatusOK {
		t.Errorf("the link: %d", code)
	}
}

// tlsFor trusts the certificate of an SMTP server in the test's process.
func tlsFor(smtpd *smtptest.Server) *tls.Config {
	return &tls.Config{RootCAs: smtpd.RootCAs, ServerName: "127.0.0.1"}
}
