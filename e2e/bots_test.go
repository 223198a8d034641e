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

// botToken signs up the account name through the API, makes it a bot and
// returns an API token of it.
func botToken(t *testing.T, base, name string) string {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	post := func(path, body string, out any) {
		resp, err := c.Post(base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			t.Fatalf("POST %s: %d", path, resp.StatusCode)
		}
		if out != nil {
			json.NewDecoder(resp.Body).Decode(out)
		}
	}
	post("/api/account/signup", fmt.Sprintf(`{"name": %q, "password": "long enough"}`, name), nil)
	post("/api/account/bot", `{"confirm": true}`, nil)
	var tk struct{ Token string }
	post("/api/account/tokens", `{"label": "e2e"}`, &tk)
	return tk.Token
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
