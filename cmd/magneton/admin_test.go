package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/store"
)

// TestAdminModerator: `magneton admin moderator` gives and takes back the
// moderators' role of an account on the site's database, and says what
// is wrong with a name that has none.
func TestAdminModerator(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(context.Background(), "sqlite:"+filepath.Join(dir, "magneton.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateUser(context.Background(), &store.User{ID: "u1", Name: "Ann", Password: "h", Created: 1}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	bin := buildBinary(t)
	role := func() string {
		st, err := store.Open(context.Background(), "sqlite:"+filepath.Join(dir, "magneton.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		s, err := st.Standing(context.Background(), "u1")
		if err != nil {
			t.Fatal(err)
		}
		return s.Role
	}
	for _, tc := range []struct {
		args []string
		want string
		role string
	}{
		{[]string{"admin", "moderator", "ann", "--data", dir}, "ann is a moderator now", store.RoleModerator},
		{[]string{"admin", "moderator", "ann", "--revoke", "--data", dir}, "ann is no longer a moderator", ""},
	} {
		out, err := exec.Command(bin, tc.args...).CombinedOutput()
		if err != nil || !strings.Contains(string(out), tc.want) || role() != tc.role {
			t.Errorf("%v: %q (%v), role %q; want %q and role %q", tc.args, out, err, role(), tc.want, tc.role)
		}
	}
	out, err := exec.Command(bin, "admin", "moderator", "nobody", "--data", dir).CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(string(out), "no such user") {
		t.Errorf("a name without an account: %v, %q; want exit 1 saying so", err, out)
	}
	// A mistyped database is refused, and no empty one is made in its place.
	missing := filepath.Join(dir, "typo.db")
	for _, db := range []string{"sqlite:" + missing, missing, "'postgres://u@db/x'"} {
		out, err := exec.Command(bin, "admin", "moderator", "ann", "--db", db).CombinedOutput()
		if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(string(out), "database") {
			t.Errorf("--db %s: %v, %q; want exit 1 about the database", db, err, out)
		}
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("a mistyped --db made %s", missing)
	}
}
