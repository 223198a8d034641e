package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server"
	"github.com/magneton-games/magneton/server/archive/archivetest"
	"github.com/magneton-games/magneton/store"
)

// exploreServer starts a play server on a new SQLite database, with
// games in its archive, and returns its address.
func exploreServer(t *testing.T, gs ...archivetest.Game) (string, store.Store) {
	t.Helper()
	st, err := store.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(context.Background(), server.Config{Store: st, Logger: slog.New(slog.DiscardHandler),
		Static: fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>t</title>")}}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Close(ctx)
		st.Close()
	})
	if err := archivetest.Add(context.Background(), st, gs...); err != nil {
		t.Fatal(err)
	}
	return ts.URL, st
}

// TestExplore: magneton explore against a real server: the table of the
// start's moves with their counts, results and proven values, a filter,
// --moves, an account's repertoire by its API token, and what it refuses.
func TestExplore(t *testing.T) {
	b, err := games.ProvenBook()
	if err != nil {
		t.Fatal(err)
	}
	rules, _ := games.Rules("tumbling", "")
	start := rules.Start()
	pf, ok := b.Lookup(start, nil)
	if !ok {
		t.Fatal("the book does not know Tumbling Down's start")
	}
	win := pf.Move
	after, _ := start.Play(win)
	replies := after.Moves()[:2]
	other := start.Moves()[0]
	if other == win {
		other = start.Moves()[1]
	}
	gs := []archivetest.Game{
		{ID: "w1", Game: "tumbling", Moves: []string{win, replies[0]}, Result: "1-0", Rated: true, Ratings: [2]string{"1500", "1701"}},
		{ID: "w2", Game: "tumbling", Moves: []string{win, replies[1]}, Result: "1/2-1/2", Rated: true, Ratings: [2]string{"1500", "1700?"}},
		{ID: "w3", Game: "tumbling", Moves: []string{win, replies[0]}, Result: "1-0"},
		{ID: "o1", Game: "tumbling", Moves: []string{other}, Result: "0-1", Source: store.SourceImport},
	}
	base, st := exploreServer(t, gs...)
	out, errs, code := runCmd(t, "", "explore", "--server", base, "--game", "tumbling")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	row := func(out, move string) []string {
		for _, l := range strings.Split(out, "\n") {
			if f := strings.Fields(l); len(f) > 0 && f[0] == move {
				return f
			}
		}
		t.Fatalf("no line for %s in\n%s", move, out)
		return nil
	}
	sides := rules.Spec().SideNames
	// move, games, share, first's wins, draws, second's wins, rating, proven
	want := fmt.Sprintf("%s 3 75.0%% 66.7%% 33.3%% 0.0%% 1600 %s wins in <= %d", win, sides[0], pf.Moves-1)
	if got := strings.Join(row(out, win), " "); got != want {
		t.Errorf("the line of %s: %q, want %q\n%s", win, got, want, out)
	}
	if got := strings.Join(row(out, other), " "); got != other+" 1 25.0% 0.0% 0.0% 100.0% - -" {
		t.Errorf("the line of %s: %q\n%s", other, got, out)
	}
	if !strings.Contains(out, "4 games in the archive from this position") || !strings.Contains(out, sides[0]+" to move") {
		t.Errorf("the heading:\n%s", out)
	}
	// Rated games only: the imported game goes.
	out, _, _ = runCmd(t, "", "--game", "tumbling", "explore", "start", "--server", base, "--rated")
	if strings.Contains(out, other) || !strings.Contains(out, "2 games in the archive") {
		t.Errorf("--rated:\n%s", out)
	}
	// After the book's move: the replies, each a proven loss.
	out, errs, code = runCmd(t, "", "--game", "tumbling", "explore", "--server", base, "--moves", win)
	if code != 0 {
		t.Fatalf("--moves: exit %d: %s", code, errs)
	}
	for _, r := range replies {
		if f := row(out, r); !strings.Contains(strings.Join(f, " "), sides[0]+" wins in <=") {
			t.Errorf("after %s, %s: %v", win, r, f)
		}
	}
	// A position given as text, the same as after the move.
	byText, _, _ := runCmd(t, "", "--game", "tumbling", "explore", after.String(), "--server", base)
	if byText != out {
		t.Errorf("the position as text:\n%s\nafter the move:\n%s", byText, out)
	}

	// An account's repertoire, by its API token.
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	post := func(path, body string, into any) {
		resp, err := c.Post(base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 300 {
			t.Fatalf("%s: %d", path, resp.StatusCode)
		}
		if into != nil {
			json.NewDecoder(resp.Body).Decode(into)
		}
	}
	post("/api/account/signup", `{"name": "ann", "password": "correct horse battery"}`, nil)
	var tok struct{ Token string }
	post("/api/account/tokens", `{"label": "explore"}`, &tok)
	u, err := st.UserByName(context.Background(), "ann")
	if err != nil || tok.Token == "" {
		t.Fatalf("ann: %v, token %q", err, tok.Token)
	}
	if err := archivetest.Add(context.Background(), st, archivetest.Game{ID: "a1", Game: "tumbling", Moves: []string{win}, Result: "0-1", Users: [2]string{"", u.ID}, Ended: time.Now().UnixMilli()}); err != nil {
		t.Fatal(err)
	}
	out, errs, code = runCmd(t, "", "--game", "tumbling", "explore", "--server", base, "--mine", "--token", tok.Token)
	if code != 0 {
		t.Fatalf("--mine: exit %d: %s", code, errs)
	}
	// Ann, Black's opponent here, won: 0-1, her opponent's move.
	if got := strings.Join(row(out, win), " "); !strings.HasPrefix(got, win+" 1 100.0% 0.0% 0.0% 100.0% - theirs ") || !strings.Contains(out, "1 game of yours from this position") {
		t.Errorf("--mine: %q\n%s", got, out)
	}

	for _, tc := range []struct {
		args []string
		code int
		msg  *regexp.Regexp
	}{
		{[]string{"explore"}, 2, regexp.MustCompile(`--server "": want the play server's address`)},
		{[]string{"explore", "--server", base, "--mine"}, 2, regexp.MustCompile(`--mine needs the account's API token`)},
		{[]string{"explore", "--server", base, "--mine", "--token", "x", "--rated"}, 2, regexp.MustCompile(`--mine takes no other filter`)},
		{[]string{"explore", "--server", base, "nonsense"}, 1, regexp.MustCompile(`explore: position: `)},
		{[]string{"explore", "--server", base, "--moves", "d4 d4"}, 1, regexp.MustCompile(`the server answered 400 Bad Request: move 2: `)},
		{[]string{"explore", "--server", base, "--speeds", "slow"}, 1, regexp.MustCompile(`400 Bad Request: speeds "slow": want bullet, blitz`)},
		{[]string{"explore", "--server", base, "--min-band", "150"}, 1, regexp.MustCompile(`minBand "150": want a multiple of 200`)},
		{[]string{"explore", "--server", "http://127.0.0.1:1"}, 1, regexp.MustCompile(`explore: Get "http://127.0.0.1:1/api/explorer`)},
	} {
		_, errs, code := runCmd(t, "", tc.args...)
		if code != tc.code || !tc.msg.MatchString(errs) {
			t.Errorf("%v: exit %d, %q; want %d and %s", tc.args, code, errs, tc.code, tc.msg)
		}
	}
}
