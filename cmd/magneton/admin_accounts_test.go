package main

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/magneton-games/magneton/internal/smtptest"
	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/mail"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// TestAdminResetLink: magneton admin reset-link prints a link of the site
// whose token, hashed, the database keeps for the account, valid for
// --valid and once; on SQLite (--data) and PostgreSQL (--db).
func TestAdminResetLink(t *testing.T) {
	storetest.Each(t, func(t *testing.T, backend string) {
		dir := t.TempDir()
		dbURL := storetest.URL(t, backend)
		where := []string{"--db", dbURL}
		if backend == "sqlite" {
			dbURL, where = "sqlite:"+filepath.Join(dir, "magneton.db"), []string{"--data", dir}
		}
		ctx := context.Background()
		st, err := store.Open(ctx, dbURL)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if err := st.CreateUser(ctx, &store.User{ID: "u1", Name: "Ann", Password: "h", Created: 1}); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"admin", "reset-link", "ann", "--site-url", "https://play.example.org/", "--valid", "2h"}, where...)
		out, errs, code := runCmd(t, "", args...)
		token, ok := strings.CutPrefix(strings.TrimSpace(out), "https://play.example.org/reset#")
		if code != 0 || !ok || len(token) < 16 {
			t.Fatalf("exit %d: %q %s", code, out, errs)
		}
		later := func(d time.Duration) int64 { return time.Now().Add(d).UnixMilli() }
		if _, err := st.UseReset(ctx, ids.Hash(token), "new", later(2*time.Hour+time.Minute)); !errors.Is(err, store.ErrNoReset) {
			t.Errorf("the link after 2 h: %v", err)
		}
		if u, err := st.UseReset(ctx, ids.Hash(token), "new", later(time.Hour)); err != nil || u.ID != "u1" || u.Password != "new" {
			t.Errorf("the link: %+v %v", u, err)
		}
		if _, errs, code := runCmd(t, "", append([]string{"admin", "reset-link", "nobody"}, where...)...); code != 1 || !strings.Contains(errs, `no account is named "nobody"`) {
			t.Errorf("an unknown account: exit %d: %s", code, errs)
		}
	})
}

func TestAdminUsage(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"admin", "bogus"}, 2, `unknown subcommand "bogus"`},
		{[]string{"admin", "reset-link"}, 2, ""},
		{[]string{"admin", "reset-link", "ann", "--site-url", "play.example.org"}, 2, "--site-url"},
		{[]string{"admin", "reset-link", "ann", "--valid", "10s"}, 2, "--valid"},
		{[]string{"admin", "reset-link", "ann", "--data", missing}, 1, "no site's database"},
		{[]string{"serve", "--smtp", "mail.example.org:25"}, 2, "--smtp-from"},
		{[]string{"serve", "--smtp", "mail.example.org:25", "--smtp-from", "noreply@example.org"}, 2, "--site-url"},
		{[]string{"serve", "--smtp", "mail.example.org", "--smtp-from", "noreply@example.org", "--site-url", "https://play.example.org"}, 2, "host:port"},
		{[]string{"serve", "--smtp", "mail.example.org:25", "--smtp-from", "nobody", "--site-url", "https://play.example.org"}, 2, "sender"},
		{[]string{"serve", "--site-url", "https://play.example.org/games?x=1"}, 2, "--site-url"},
	} {
		_, errs, code := runCmd(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: exit %d: %s; want %d and %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
}

// TestServeMailConfig: the --smtp flags make the server's mail sender,
// logging in with the password of $MAGNETON_SMTP_PASSWORD.
func TestServeMailConfig(t *testing.T) {
	smtpd := smtptest.Start(t, smtptest.Options{User: "site", Password: "from the environment"})
	t.Setenv(smtpPasswordVar, "from the environment")
	o := serveOptions{searchMemory: 256, maxPlies: 1000, expire: time.Hour, limits: "on",
		smtp: smtpd.Addr, smtpFrom: "Magneton <noreply@example.org>", smtpUser: "site", siteURL: "https://play.example.org/"}
	cfg, err := o.config()
	if err != nil || cfg.Mail == nil || cfg.SiteURL != "https://play.example.org" {
		t.Fatalf("config: %+v %v", cfg, err)
	}
	if err := cfg.Mail.Send(context.Background(), mail.Message{To: "ann@example.org", Subject: "s", Body: "b"}); err != nil {
		t.Fatal(err)
	}
	if m := smtpd.Next(t, 5*time.Second); m.User != "site" || m.From != "noreply@example.org" {
		t.Errorf("the mail: %+v", m)
	}
	o.smtp = ""
	if cfg, err := o.config(); err != nil || cfg.Mail != nil {
		t.Errorf("without --smtp: %v %v", cfg.Mail, err)
	}
}

// TestServeServerComputerFlag: the server plays the computer unless
// --server-computer=false leaves it to the browsers.
func TestServeServerComputerFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		off  bool
	}{{nil, false}, {[]string{"--server-computer=false"}, true}, {[]string{"--server-computer"}, false}} {
		c := serveCommand(&globalOptions{})
		if err := c.Flags().Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		on, err := c.Flags().GetBool("server-computer")
		if err != nil {
			t.Fatal(err)
		}
		o := serveOptions{searchMemory: 256, maxPlies: 1000, expire: time.Hour, limits: "on", serverComputer: on}
		cfg, err := o.config()
		if err != nil || cfg.NoServerComputer != tc.off {
			t.Errorf("%v: NoServerComputer %v, %v; want %v", tc.args, cfg.NoServerComputer, err, tc.off)
		}
	}
}
