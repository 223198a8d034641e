package e2e

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/magneton-games/magneton/server"
	"github.com/magneton-games/magneton/server/tournaments"
)

// TestBrowserTournamentScheduled: an arena of the site's schedule is on
// the home page's list, which says the site scheduled it, as its page
// does; a player joins it, and has no button to start it early.
func TestBrowserTournamentScheduled(t *testing.T) {
	bctx := browser(t)
	day := 24 * time.Hour
	at := (time.Duration(time.Now().Add(time.Hour).UnixMilli()%day.Milliseconds()) * time.Millisecond).Truncate(time.Minute)
	base := serve(t, filepath.Join(t.TempDir(), "games.db"), "127.0.0.1:0", func(c *server.Config) {
		c.TournamentPoll = 100 * time.Millisecond
		c.Schedule = []tournaments.ScheduleEntry{{Key: "daily", Name: "Daily arena", Game: "magneton", Clock: "3+2", Rated: true, Minutes: 60,
			Every: day, At: at, Ahead: 2 * time.Hour}}
	}).url
	ann := tab(t, bctx, "ann")
	ann.signUp(base, "ann", "correct horse")
	ann.goTo(base + "/")
	ann.waitFor("the scheduled arena on the home page", `(r => r && r.querySelector('.tournament-link').textContent === 'Daily arena' &&
		r.querySelector('.row-meta').textContent.includes('Scheduled by the site'))(document.querySelector('.tournaments-home .tournament-row'))`, 10*time.Second)
	ann.goTo(base + eval[string](ann, `document.querySelector('.tournaments-home .tournament-link').getAttribute('href')`))
	ann.waitFor("its page", `document.querySelector('#tn-join') && document.querySelector('.tournament-settings').textContent.includes('Scheduled by the site')`, 10*time.Second)
	ann.click("#tn-join")
	ann.waitFor("ann in the standings", `document.querySelector('#tn-standings tr[data-player="ann"]') && document.querySelector('#tn-withdraw')`, 10*time.Second)
	if eval[bool](ann, `!!document.querySelector('#tn-start')`) {
		t.Error("a player may start the site's tournament early")
	}
	ann.checkConsole()
}
