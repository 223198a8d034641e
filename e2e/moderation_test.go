package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestBrowserReportAndMute: a player reports the opponent's chat line from
// the line itself; a moderator sees the report on the moderators' page
// and mutes its writer for a day, and makes her a link that sets her
// password; the muted player, chatting again, is told so, and the account
// box shows it.
func TestBrowserReportAndMute(t *testing.T) {
	if os.Getenv("MAGNETON_E2E_URL") != "" {
		t.Skip("a moderator is made in the test's own server")
	}
	bctx := browser(t)
	s := serve(t, filepath.Join(t.TempDir(), "games.db"), "127.0.0.1:0", nil)
	base := s.url
	ann, bob, mia := tab(t, bctx, "ann"), tab(t, bctx, "bob"), tab(t, bctx, "mia")
	ann.signUp(base, "ann", "correct horse")
	bob.signUp(base, "bob", "battery staple")
	mia.signUp(base, "mia", "moderator pass")
	if err := s.srv.Moderation().Grant(context.Background(), "mia", true); err != nil {
		t.Fatal(err)
	}
	invite(base, ann, bob, "magneton", "")
	ann.say("you play like a potato")
	bob.waitFor("ann's line", chatShows("you play like a potato"), 10*time.Second)
	bob.click(".chat-line:not(.mine) .chat-report")
	bob.waitFor("the report form", `document.querySelector('#report-dialog[open] input[value="abuse"]')`, 5*time.Second)
	bob.click(`#report-dialog input[value="abuse"]`)
	bob.typeInto("#report-text", "insults")
	bob.click("#report-send")
	bob.waitFor("the thanks", `!document.querySelector('#report-dialog') && document.querySelector('.toast')`, 10*time.Second)

	mia.goTo(base + "/mod")
	mia.waitFor("the report", `Array.from(document.querySelectorAll('.mod-report')).some((r) => r.textContent.includes('ann') && r.textContent.includes('you play like a potato'))`, 10*time.Second)
	mia.typeInto(".mod-report .mod-reason", "insulting the opponent")
	mia.click(`.mod-report [data-action="mute-day"]`)
	mia.waitFor("the report answered", `document.querySelector('.mod-reports .empty') && document.querySelector('.mod-log li')`, 10*time.Second)

	// The moderator also makes ann a link that sets her password.
	mia.typeInto("#mod-player", "ann")
	mia.click(`[data-action="reset-link"]`)
	mia.waitFor("the link", `(document.querySelector('#mod-link-url') || {}).value?.startsWith(location.origin + '/reset#')`, 10*time.Second)

	ann.say("sorry?")
	ann.waitFor("the mute, told", `Array.from(document.querySelectorAll('.toast.error')).some((e) => e.textContent.includes('muted') && e.textContent.includes('insulting the opponent'))`, 10*time.Second)
	ann.goTo(base + "/")
	ann.waitFor("the mute in the account box", `document.querySelector('#account-muted')`, 10*time.Second)
	for _, p := range []*page{ann, bob, mia} {
		p.checkConsole()
	}
}
