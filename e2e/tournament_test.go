package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/magneton-games/magneton/server"
)

// TestBrowserTournament: ann makes an arena with the form of /tournaments
// and joins it, bob joins it from its page, the two are paired; the game
// page names the tournament; they play a move each and ann resigns; the
// tournament's page, open in a third tab all along, then shows bob first
// with 2 points without a reload, and bob's line in its chat; the home
// page lists the tournament.
func TestBrowserTournament(t *testing.T) {
	bctx := browser(t)
	base := serve(t, filepath.Join(t.TempDir(), "games.db"), "127.0.0.1:0", func(c *server.Config) {
		c.TournamentPoll = 100 * time.Millisecond
	}).url
	ann, bob, eve := tab(t, bctx, "ann"), tab(t, bctx, "bob"), tab(t, bctx, "eve")
	ann.signUp(base, "ann", "correct horse")
	bob.signUp(base, "bob", "battery staple")
	ann.goTo(base + "/tournaments")
	ann.waitFor("the form", `document.querySelector('#tn-name') && document.querySelector('#tn-game option')`, 10*time.Second)
	ann.typeInto("#tn-name", "Friday arena")
	ann.click("#tn-create")
	ann.waitFor("the tournament's page", `location.pathname.startsWith('/tournaments/') && document.querySelector('#tn-join')`, 10*time.Second)
	url := base + eval[string](ann, `location.pathname`)
	if got := eval[string](ann, `document.querySelector('#tournament-title').textContent`); got != "Friday arena" {
		t.Errorf("the page's title is %q", got)
	}
	ann.click("#tn-join")
	ann.waitFor("ann in the standings", `document.querySelector('#tn-standings tr[data-player="ann"]') && document.querySelector('#tn-withdraw')`, 10*time.Second)
	bob.goTo(url)
	bob.waitFor("the Join button", `document.querySelector('#tn-join')`, 10*time.Second)
	bob.click("#tn-join")
	// The director pairs the two: the page lists their game (read every 2 s).
	game := `(a => a && a.getAttribute('href'))(document.querySelector('.tournament-playing a'))`
	ann.waitFor("the game in progress", game+` !== null && document.querySelectorAll('#tn-standings tbody tr').length === 2`, 15*time.Second)
	href := eval[string](ann, game)
	eve.goTo(url)
	eve.waitFor("the standings, nobody scored", `document.querySelectorAll('#tn-standings tbody tr').length === 2 && [...document.querySelectorAll('#tn-standings .points')].every((e) => e.textContent === '0')`, 10*time.Second)
	eve.do(chromedp.Evaluate[chromedp.Void](`window.notReloaded = true`))
	for _, p := range []*page{ann, bob} {
		p.goTo(base + href)
		p.waitFor("the game's link to its tournament", `(a => a && a.textContent.includes('Friday arena'))(document.querySelector('#game-tournament'))`, 10*time.Second)
	}
	openingMoves(&chooser{t: t}, ann, bob)
	ann.click("#resign")
	ann.waitFor("the confirmation", `document.querySelector('#resign').textContent.includes('Really')`, 5*time.Second)
	ann.click("#resign")
	ann.waitFor("the end", `window.magnetonGame.state.status === 'finished'`, 10*time.Second)
	eve.waitFor("bob first with 2 points", `(r => r && r.dataset.player === 'bob' && r.querySelector('.points').textContent === '2')(document.querySelector('#tn-standings tbody tr'))`, 15*time.Second)
	eve.waitFor("the result in bob's row", `document.querySelector('#tn-standings tbody tr .results').textContent.includes('+ann')`, 5*time.Second)
	if !eval[bool](eve, `!!window.notReloaded`) {
		t.Error("the tournament's page was reloaded")
	}
	if rows := eval[string](eve, `document.querySelector('.tournament-pairings').textContent`); !strings.Contains(rows, "0-1") && !strings.Contains(rows, "1-0") {
		t.Errorf("the pairings show no result: %q", rows)
	}
	// The tournament's chat: bob's line reaches eve's page.
	bob.goTo(url)
	bob.waitFor("the chat", `document.querySelector('#chat-input') && !document.querySelector('.chat-form').hidden`, 10*time.Second)
	bob.typeInto("#chat-input", "good game\n")
	eve.waitFor("bob's line", `[...document.querySelectorAll('.chat-lines .chat-line')].some((l) => l.textContent.includes('bob') && l.textContent.includes('good game'))`, 10*time.Second)
	// The home page lists it.
	bob.goTo(base + "/")
	bob.waitFor("the home page's list", fmt.Sprintf(`(a => a && a.textContent === %q)(document.querySelector('.tournaments-home .tournament-link'))`, "Friday arena"), 10*time.Second)
	for _, p := range []*page{ann, bob, eve} {
		p.checkConsole()
	}
}
