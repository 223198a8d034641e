package mail

import (
	"context"
	"crypto/tls"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/internal/smtptest"
)

// TestSend: a mail reaches an SMTP server in plain text when it offers no
// TLS, and over STARTTLS, logged in, when it does; its subject and text
// arrive whole, accents and long lines included.
func TestSend(t *testing.T) {
	body := "Ĉu vi petis novan pasvorton?\n\nhttps://play.example.org/reset#" + strings.Repeat("x", 100) + "\n.\nend"
	for _, tc := range []struct {
		name string
		opts smtptest.Options
	}{
		{"plain", smtptest.Options{}},
		{"starttls", smtptest.Options{TLS: true, User: "site", Password: "secret"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := smtptest.Start(t, tc.opts)
			cfg := Config{Addr: srv.Addr, From: "Magneton <noreply@example.org>", User: tc.opts.User, Password: tc.opts.Password}
			if tc.opts.TLS {
				cfg.TLS = &tls.Config{RootCAs: srv.RootCAs, ServerName: "127.0.0.1"}
			}
			s, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Send(context.Background(), Message{To: "ann@example.org", Subject: "Nova pasvorto ĉe Magneton", Body: body}); err != nil {
				t.Fatal(err)
			}
			m := srv.Next(t, 5*time.Second)
			if m.From != "noreply@example.org" || len(m.To) != 1 || m.To[0] != "ann@example.org" || m.TLS != tc.opts.TLS || m.User != tc.opts.User {
				t.Errorf("the envelope: %+v", m)
			}
			if got := m.Header("Subject"); got != "Nova pasvorto ĉe Magneton" {
				t.Errorf("the subject: %q", got)
			}
			if got := strings.TrimSuffix(strings.ReplaceAll(m.Body(), "\r\n", "\n"), "\n"); got != body {
				t.Errorf("the text:\n%q\nwant\n%q", got, body)
			}
			if got := m.Link("https://play.example.org/reset#"); !strings.HasSuffix(got, strings.Repeat("x", 100)) {
				t.Errorf("the link: %q", got)
			}
		})
	}
}

// TestSendRefused: a wrong password, a server that wants a login, a
// certificate not trusted and a bad address are errors.
func TestSendRefused(t *testing.T) {
	authed := smtptest.Start(t, smtptest.Options{User: "site", Password: "secret"})
	tlsOn := smtptest.Start(t, smtptest.Options{TLS: true})
	for _, tc := range []struct {
		what string
		cfg  Config
		to   string
	}{
		{"a wrong password", Config{Addr: authed.Addr, User: "site", Password: "wrong"}, "ann@example.org"},
		{"no login", Config{Addr: authed.Addr}, "ann@example.org"},
		{"an unknown certificate", Config{Addr: tlsOn.Addr}, "ann@example.org"},
		{"a bad address", Config{Addr: tlsOn.Addr}, "ann@example.org\r\nBcc: x@example.org"},
	} {
		tc.cfg.From, tc.cfg.Timeout = "noreply@example.org", 5*time.Second
		s, err := New(tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Send(context.Background(), Message{To: tc.to, Subject: "s", Body: "b"}); err == nil {
			t.Errorf("%s: sent", tc.what)
		}
	}
	if _, err := New(Config{Addr: "no-port", From: "noreply@example.org"}); err == nil {
		t.Error("an address without a port")
	}
	if _, err := New(Config{Addr: "mail:25", From: "not an address"}); err == nil {
		t.Error("a bad sender")
	}
}

func TestCheckAddress(t *testing.T) {
	for addr, ok := range map[string]bool{
		"ann@example.org": true, "Ann.B+play@mail.example.org": true, "x@localhost": true,
		"": false, "ann": false, "ann@": false, "@example.org": false, "Ann <ann@example.org>": false,
		"ann @example.org": false, "ann@example.org\n": false, "ann@.org": false, strings.Repeat("a", 250) + "@x.org": false,
	} {
		if err := CheckAddress(addr); (err == nil) != ok {
			t.Errorf("CheckAddress(%q) = %v", addr, err)
		}
	}
}
