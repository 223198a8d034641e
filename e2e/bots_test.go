package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/magneton-games/magneton/server"
)

// apiUser is an account's cookie jar speaking the API.
type apiUser struct {
	t *testing.T
	c *http.Client
}

// signedUp signs the account name up through the API.
func signedUp(t *testing.T, base, name string) *apiUser {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	u := &apiUser{t, &http.Client{Jar: jar, Timeout: 10 * time.Second}}
	u.post(base+"/api/account/signup", fmt.Sprintf(`{"name": %q, "password": "long enough"}`, name), nil)
	return u
}

func (u *apiUser) post(url, body string, out any) {
	u.t.Helper()
	resp, err := u.c.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		u.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		u.t.Fatalf("POST %s: %d", url, resp.StatusCode)
	}
	if out != nil {
		json.NewDecoder(resp.Body).Decode(out)
	}
}

// botToken signs up the account name through the API, makes it a bot and
// returns an API token of it.
func botToken(t *testing.T, base, name string) string {
	t.Helper()
	u := signedUp(t, base, name)
	u.post(base+"/api/account/bot", `{"confirm": true}`, nil)
	var tk struct{ Token string }
	u.post(base+"/api/account/tokens", `{"label": "e2e"}`, &tk)
	return tk.Token
}

// TestBrowserChallengeAccepted: a person challenged by another finds the
// challenge on the home page and accepts it, which opens the game.
func TestBrowserChallengeAccepted(t *testing.T) {
	base, tabs := openTabs(t, "bob")
	bob := tabs[0]
	bob.signUp(base, "bob", "battery staple")
	ann := signedUp(t, base, "ann")
	var c struct{ ID string }
	ann.post(base+"/api/challenges", `{"to": "bob", "game": "magneton", "color": "first", "clock": "5+3"}`, &c)
	bob.goTo(base + "/")
	bob.waitFor("the challenge", fmt.Sprintf(`(r => r && r.textContent.includes('ann'))(document.querySelector('.challenge-row[data-id=%q]'))`, c.ID), 10*time.Second)
	bob.click(".challenge-row .ch-accept")
	bob.waitFor("the game, bob seated", fmt.Sprintf(`location.pathname === '/g/%s' && window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'playing' && window.magnetonGame.state.seat === 1`, c.ID), 10*time.Second)
	bob.checkConsole()
}

// TestBrowserBotChallenge: a person in the browser challenges a bot from
// its profile to a rated game, which a magneton bot process (its engine
// another process, magneton ugi) accepts and plays to the end; the pages
// say BOT by its name, and the game changes both ratings.
func TestBrowserBotChallenge(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "magneton")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/magneton").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	bctx := browser(t)
	ts := serve(t, filepath.Join(t.TempDir(), "games.db"), "127.0.0.1:0", func(c *server.Config) {
		c.MaxPlies = 16
		c.BotPoll = 100 * time.Millisecond
	})
	base := ts.url
	token := botToken(t, base, "robo")
	var logs bytes.Buffer
	cmd := exec.Command(bin, "bot", "--server", base, "--token", token, "--engine", "ugi:"+bin+" ugi", "--quit-after", "1", "--min-clock", "30s")
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	ann := tab(t, bctx, "ann")
	ann.signUp(base, "ann", "correct horse")
	ann.goTo(base + "/@/robo")
	ann.waitFor("BOT on the profile", `(e => e && e.textContent === 'BOT')(document.querySelector('.profile-title .bot-tag'))`, 10*time.Second)
	ann.click("#challenge")
	ann.waitFor("the challenge form", `!document.querySelector('#challenge-form').hidden`, 5*time.Second)
	ann.do(chromedp.SetValue(chromedp.CSS("#ch-clock"), "1+0"), chromedp.SetValue(chromedp.CSS("#ch-color"), "first"))
	if !eval[bool](ann, `document.querySelector('#ch-rated').checked`) {
		ann.click("#ch-rated")
	}
	ann.click("#ch-send")
	ann.waitFor("the game, accepted", `window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'playing'`, 20*time.Second)
	ann.waitFor("BOT in the bar", `(e => e && e.closest('.player') && e.textContent === 'BOT')(document.querySelector('.player .bot-tag'))`, 5*time.Second)
	c := &chooser{t: t}
	for ply := 0; ; ply++ {
		s, over := ann.myTurn(ply)
		if over {
			break
		}
		ann.play(c.move(s))
	}
	ann.waitFor("the ratings' changes", `document.querySelectorAll('.player .rating-diff').length === 2`, 10*time.Second)
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("magneton bot: %v\n%s", err, logs.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("magneton bot did not quit after its game:\n%s", logs.String())
	}
	ann.goTo(base + "/@/ann")
	ann.waitFor("ann's rating card", `document.querySelector('.rating-card[data-family="standard"]')`, 10*time.Second)
	ann.checkConsole()
}

// TestBrowserProfileSlowAccount: a bot's profile opened by a logged-in
// player offers the challenge even when the server's answer about who is
// looking (GET /api/account) comes after its answer about the bot. The
// browser holds that request until the profile's own has been answered
// and the page has had two frames to draw it; the page drawn then without
// the button (the account unknown) and never again failed CI once.
func TestBrowserProfileSlowAccount(t *testing.T) {
	base, tabs := openTabs(t, "ann")
	ann := tabs[0]
	botToken(t, base, "robo")
	ann.signUp(base, "ann", "correct horse")
	held := ann.holdRequests("*/api/account", "who is looking (GET /api/account)")
	ann.goTo(base + "/@/robo")
	id := held.next()
	ann.waitFor("the bot's profile answered", `performance.getEntriesByType('resource').some(e => e.name.endsWith('/api/users/robo') && e.responseEnd > 0)`, 10*time.Second)
	eval[bool](ann, `new Promise(ok => requestAnimationFrame(() => requestAnimationFrame(() => ok(true))))`)
	held.release(id)
	ann.waitFor("the challenge button", `(b => b && !b.hidden)(document.querySelector('#challenge'))`, 10*time.Second)
	ann.checkConsole()
}
