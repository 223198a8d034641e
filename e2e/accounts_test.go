package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// accountName is the name the header's account box shows.
const accountName = `((e) => e ? e.textContent : '')(document.querySelector('.account .account-name'))`

// typeInto replaces what an input of the page holds with text, typed.
func (p *page) typeInto(css, text string) {
	p.t.Helper()
	p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).value = ''`, css)), chromedp.SendKeys(chromedp.CSS(css), text))
}

// formError waits for the account form to show a message holding want.
func (p *page) formError(what, want string) {
	p.t.Helper()
	p.waitFor(what, fmt.Sprintf(`(e => e && e.textContent.includes(%q))(document.querySelector('#account-dialog[open] #account-error'))`, want), 10*time.Second)
}

// waitAccount waits for the header to show a logged-in player's name,
// linking to their profile, and no form.
func (p *page) waitAccount(name string) {
	p.t.Helper()
	p.waitFor(name+" in the header", fmt.Sprintf(`(a => a && a.textContent === %q && a.getAttribute('href') === '/@/%s')(document.querySelector('.account a.account-name')) && !document.querySelector('#account-dialog')`, name, name), 10*time.Second)
}

// waitGuest waits for the header to show a guest's name and the buttons
// to sign up and log in; it returns the name.
func (p *page) waitGuest() string {
	p.t.Helper()
	p.waitFor("a guest's name in the header", `/^Guest-\d{4}$/.test(`+accountName+`) && document.querySelector('#signup-open') && document.querySelector('#login-open')`, 10*time.Second)
	return eval[string](p, accountName)
}

// menuItem opens the account menu and presses one of its items.
func (p *page) menuItem(id string) {
	p.t.Helper()
	p.click("#account-menu-button")
	p.waitFor("the account menu", `!document.querySelector('#account-menu').hidden`, 5*time.Second)
	p.click("#" + id)
}

// TestBrowserAccounts: a guest sees its generated name in the header and
// cannot play rated games; it signs up through the form (the server's
// refusal of a short password shown in the form, the typed name kept) and
// the page follows without a reload; it logs out and back in (a wrong
// password refused in the form), changes its password, and finds its name
// on its profile page; an unknown player's profile says so; the
// leaderboard has a tab per game and family.
func TestBrowserAccounts(t *testing.T) {
	bctx := browser(t)
	base := startServer(t)
	p := tab(t, bctx, "player")
	p.goTo(base + "/")
	guest := p.waitGuest()
	t.Logf("the guest is %s", guest)
	checkGuestForms(p)
	signUpAndBackIn(t, p)
	changePassword(p)
	checkProfilePages(t, p, base)
	checkLeaderboardTabs(t, p, base)
	p.checkConsole()
}

// checkGuestForms: a guest is offered no rated game, and the account form
// closes with Escape, the focus back on its button.
func checkGuestForms(p *page) {
	p.t.Helper()
	p.waitFor("the new-game form", `document.querySelector('#start')`, 10*time.Second)
	p.click(`[data-name=opponent] input[value="human"] + label`)
	p.waitFor("the Rated switch, off for a guest", `(e => e && e.disabled && !e.checked)(document.querySelector('#rated')) && document.querySelector('#rated-note').textContent.toLowerCase().includes('log in to play rated games')`, 5*time.Second)
	p.click("#login-open")
	p.waitFor("the log-in form", `document.querySelector('#account-dialog[open] #account-name') === document.activeElement`, 5*time.Second)
	p.do(chromedp.KeyEvent(kb.Escape))
	p.waitFor("the form closed", `!document.querySelector('#account-dialog') && document.activeElement === document.querySelector('#login-open')`, 5*time.Second)
}

// signUpAndBackIn signs ann up (the server's refusal of a short password
// shown in the form, the name kept), the page following without a reload;
// logs out through the menu, and back in (a wrong password refused in the
// form).
func signUpAndBackIn(t *testing.T, p *page) {
	t.Helper()
	// A mark on the window tells that the page is not reloaded afterwards.
	p.do(chromedp.Evaluate[chromedp.Void](`window.notReloaded = true`))
	p.refusedForm("#signup-open", "signup", "ann", "short", "the refusal of a short password", "too short")
	p.typeInto("#account-password", "correct horse")
	p.click("#account-submit")
	p.waitAccount("ann")
	// The home page follows without a reload: rated games are offered now.
	p.waitFor("the Rated switch, on offer", `(e => e && !e.disabled)(document.querySelector('#rated'))`, 5*time.Second)
	if !eval[bool](p, `!!window.notReloaded`) {
		t.Error("the page was reloaded after the sign-up")
	}
	p.menuItem("logout")
	p.waitGuest()
	p.waitFor("the Rated switch, off again", `(e => e && e.disabled)(document.querySelector('#rated'))`, 5*time.Second)
	p.refusedForm("#login-open", "login", "ann", "wrong horse", "the refusal of a wrong password", "Wrong user name or password.")
	p.typeInto("#account-password", "correct horse\n")
	p.waitAccount("ann")
}

// changePassword changes ann's password (a wrong current one refused in
// the form), logs out everywhere and back in with the new one, the name
// typed in another case.
func changePassword(p *page) {
	p.t.Helper()
	p.menuItem("account-password-open")
	p.waitFor("the password form", `document.querySelector('#account-dialog[open][data-kind="password"] #account-password')`, 5*time.Second)
	p.typeInto("#account-password", "not my password")
	p.typeInto("#account-new-password", "battery staple")
	p.typeInto("#account-new-password2", "battery staple\n")
	p.waitFor("the refusal of a wrong current password", `document.querySelector('#account-dialog[open] #account-error').textContent.length > 0`, 10*time.Second)
	p.typeInto("#account-password", "correct horse\n")
	p.waitFor("the form closed", `!document.querySelector('#account-dialog')`, 10*time.Second)
	p.waitAccount("ann")
	p.menuItem("logout-everywhere")
	p.waitGuest()
	p.click("#login-open")
	p.waitFor("the log-in form", `document.querySelector('#account-dialog[open][data-kind="login"] #account-name')`, 5*time.Second)
	p.typeInto("#account-name", "ANN") // any case
	p.typeInto("#account-password", "battery staple\n")
	p.waitAccount("ann")
}

// checkProfilePages: ann's profile page (GET /api/users/<name>) names her
// and links her games' PGN; an unknown player's says so.
func checkProfilePages(t *testing.T, p *page, base string) {
	t.Helper()
	p.goTo(base + "/@/ann")
	p.waitAccount("ann")
	p.waitFor("the profile", `(e => e && e.textContent === 'ann')(document.querySelector('#profile-name'))`, 10*time.Second)
	if got := eval[string](p, `document.querySelector('#pgn-all').getAttribute('href')`); got != "/api/users/ann/games.pgn" {
		t.Errorf("the PGN link is %q", got)
	}
	p.goTo(base + "/@/nobody")
	p.waitFor("the unknown player", `(e => e && e.textContent === 'No such player')(document.querySelector('.not-found h1'))`, 10*time.Second)
}

// checkLeaderboardTabs: the leaderboard (GET /api/leaderboard) has a tab
// per game and family of the meta, empty yet; the arrow keys move between
// them, and the address follows.
func checkLeaderboardTabs(t *testing.T, p *page, base string) {
	t.Helper()
	p.goTo(base + "/#/leaderboard")
	want := eval[[]string](p, `fetch('/api/meta').then((r) => r.json()).then((m) => m.games.flatMap((g) => g.variants.map((v) => g.name + '/' + v.name)))`)
	p.waitFor("the tabs", fmt.Sprintf(`document.querySelectorAll('[role=tab]').length === %d`, len(want)), 10*time.Second)
	got := eval[[]string](p, `[...document.querySelectorAll('[role=tab]')].map((b) => b.dataset.game + '/' + b.dataset.family)`)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the leaderboard's tabs are %q, want %q", got, want)
	}
	p.waitFor("an empty leaderboard", `document.querySelector('#leaderboard-panel').textContent.includes('No established ratings yet')`, 10*time.Second)
	p.click(`[role=tab][aria-selected="true"]`)
	p.do(chromedp.KeyEvent(kb.ArrowRight))
	p.waitFor("the second tab", `document.activeElement === document.querySelectorAll('[role=tab]')[1] && document.activeElement.getAttribute('aria-selected') === 'true'`, 5*time.Second)
	if hash := eval[string](p, `location.hash`); !regexp.MustCompile(`^#/leaderboard\?game=[\w-]+&family=[\w-]+$`).MatchString(hash) {
		t.Errorf("the address of the second tab is %q", hash)
	}
}

// refusedForm opens the account form of kind with the button open, fills
// in name and a password the server refuses, and checks that the form
// shows the refusal (want) and keeps the name.
func (p *page) refusedForm(open, kind, name, password, what, want string) {
	p.t.Helper()
	p.click(open)
	p.waitFor("the "+kind+" form", fmt.Sprintf(`document.querySelector('#account-dialog[open][data-kind=%q] #account-name')`, kind), 5*time.Second)
	p.typeInto("#account-name", name)
	p.typeInto("#account-password", password+"\n")
	p.formError(what, want)
	if got := eval[string](p, `document.querySelector('#account-name').value`); got != name {
		p.t.Errorf("after %s the name field holds %q, want %s", what, got, name)
	}
}

// signUp makes an account through the header's form and waits for the
// header to show it.
func (p *page) signUp(base, name, password string) {
	p.t.Helper()
	p.goTo(base + "/")
	p.waitGuest()
	p.click("#signup-open")
	p.waitFor("the sign-up form", `document.querySelector('#account-dialog[open][data-kind="signup"] #account-name')`, 5*time.Second)
	p.typeInto("#account-name", name)
	p.typeInto("#account-password", password+"\n")
	p.waitAccount(name)
}

// TestBrowserLobby: the home page's open games follow the server without
// a reload and without taking the focus away; quick pairing makes a seek
// when nobody waits with that clock and joins the one waiting otherwise;
// a rated game made with the form shows both players' ratings, and their
// changes once it is over, on the game page and the profile.
func TestBrowserLobby(t *testing.T) {
	base, tabs := openTabs(t, "ann", "bob", "guest")
	ann, bob, guest := tabs[0], tabs[1], tabs[2]
	ann.signUp(base, "ann", "correct horse")
	bob.signUp(base, "bob", "battery staple")
	c := &chooser{t: t}
	game, seek := quickPairings(t, base, c, ann, guest)
	rated := ratedGameFromForm(t, base, c, game, ann, bob)
	checkRatedProfiles(t, base, game, rated, ann, bob)
	guestGameKept(base, seek, guest)
	cancelOwnSeek(base, game, bob)
	for _, p := range []*page{ann, bob, guest} {
		p.checkConsole()
	}
}

// quickPairings: with ann's lobby open (the focus on a quick pairing
// button), nobody waits, so the guest's quick pairing makes a seek and
// waits in it; ann's lobby shows it without a reload and without taking
// the focus away, with its count on the button; ann's quick pairing with
// that clock joins it, and both see each other's names. A move each
// follows. It returns the game of the first quick button and the seek.
func quickPairings(t *testing.T, base string, c *chooser, ann, guest *page) (game, seek string) {
	t.Helper()
	ann.waitFor("the quick pairing", `document.querySelector('.quick-btn[data-clock="10+5"]')`, 10*time.Second)
	game = eval[string](ann, `document.querySelector('.quick-btn').dataset.game`)
	quick := fmt.Sprintf(`.quick-btn[data-game=%q][data-clock="5+3"]`, game)
	ann.do(chromedp.Evaluate[chromedp.Void](`window.notReloaded = true; document.querySelector('.quick-btn[data-clock="10+5"]').focus()`))
	guest.goTo(base + "/")
	guest.waitFor("the quick pairing", fmt.Sprintf(`document.querySelector(%q)`, quick), 10*time.Second)
	guest.click(quick)
	guest.waitFor("the seek", `location.pathname.startsWith('/g/') && window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'waiting'`, 10*time.Second)
	seek = guest.state().ID
	row := fmt.Sprintf(`#open-list .game-row[data-key=%q]`, seek)
	ann.waitFor("the guest's seek in the lobby", fmt.Sprintf(`(r => r && r.textContent.includes('5+3') && r.textContent.includes('casual') && /Guest-\d{4}/.test(r.textContent))(document.querySelector(%q))`, row), 10*time.Second)
	if !eval[bool](ann, `window.notReloaded && document.activeElement === document.querySelector('.quick-btn[data-clock="10+5"]')`) {
		t.Error("the lobby's refresh reloaded the page or took the focus away")
	}
	ann.waitFor("the waiting count", fmt.Sprintf(`document.querySelector(%q).textContent.includes('1 waiting')`, quick), 5*time.Second)
	ann.click(quick)
	ann.waitFor("the game with the guest", fmt.Sprintf(`location.pathname === '/g/%s' && window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'playing' && window.magnetonGame.state.seat !== null`, seek), 10*time.Second)
	guest.waitFor("ann, linked to her profile", `window.magnetonGame.state.status === 'playing' && Array.from(document.querySelectorAll('.player a.player-name')).some((a) => a.textContent === 'ann' && a.getAttribute('href') === '/@/ann')`, 10*time.Second)
	ann.waitFor("the guest's name", `Array.from(document.querySelectorAll('.player .player-name')).some((e) => /^Guest-\d{4}$/.test(e.textContent))`, 5*time.Second)
	// A move each, in time for the first-move deadline, so that the guest
	// can resign the game later.
	openingMoves(c, ann, guest)
	return game, seek
}

// ratedGameFromForm: bob makes a rated game of game with the form (the
// rating range offered, no rule options), ann joins it from the lobby,
// both see both ratings; after a move each bob resigns, and both see the
// ratings' changes. It returns the game's id.
func ratedGameFromForm(t *testing.T, base string, c *chooser, game string, ann, bob *page) string {
	t.Helper()
	bob.goTo(base + "/")
	bob.waitFor("the new-game form", `document.querySelector('#start')`, 10*time.Second)
	bob.click(fmt.Sprintf(`[data-name=game] input[value=%q] + label`, game))
	bob.click(`[data-name=opponent] input[value="human"] + label`)
	bob.waitFor("the Rated switch", `(e => e && !e.disabled)(document.querySelector('#rated'))`, 5*time.Second)
	if !eval[bool](bob, `document.querySelector('#rated').checked`) {
		bob.click("#rated")
	}
	bob.waitFor("the rating range", `document.querySelector('#min-rating') && document.querySelector('#max-rating') && !document.querySelector('details.options')`, 5*time.Second)
	bob.do(chromedp.SetValue(chromedp.CSS(`#clock`), "3+2"), chromedp.Evaluate[chromedp.Void](`document.querySelector('#clock').dispatchEvent(new Event('change'))`))
	bob.click("#start")
	bob.waitFor("the rated seek", `location.pathname.startsWith('/g/') && window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'waiting' && window.magnetonGame.state.rated === true`, 10*time.Second)
	rated := bob.state().ID
	ann.goTo(base + "/")
	row := fmt.Sprintf(`#open-list .game-row[data-key=%q]`, rated)
	ann.waitFor("Bob's rated seek", fmt.Sprintf(`(r => r && r.textContent.includes('rated') && r.textContent.includes('bob') && r.textContent.includes('3+2'))(document.querySelector(%q))`, row), 10*time.Second)
	ann.click(row + " button")
	ann.waitFor("the rated game", fmt.Sprintf(`location.pathname === '/g/%s' && window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'playing'`, rated), 10*time.Second)
	for _, p := range []*page{ann, bob} {
		p.waitFor("both ratings", `window.magnetonGame.state.status === 'playing' && document.querySelectorAll('.player .rating').length === 2`, 10*time.Second)
	}
	openingMoves(c, ann, bob) // before them Bob could only abort, which rates nothing
	bob.click("#resign")
	bob.waitFor("the confirmation", `document.querySelector('#resign').textContent.includes('Really')`, 5*time.Second)
	bob.click("#resign")
	for _, p := range []*page{ann, bob} {
		p.waitFor("the rating changes", `window.magnetonGame.state.status === 'finished' && document.querySelectorAll('.player .rating-diff').length === 2 && document.querySelector('.player .rating-diff.up') && document.querySelector('.player .rating-diff.down')`, 10*time.Second)
		// The changes stay on the players' rows, not on a second line.
		if !eval[bool](p, oneLineJS) {
			t.Errorf("%s: a player row with its rating change takes two lines", p.name)
		}
	}
	return rated
}

// checkRatedProfiles: ann's profile has a rating card of game, its graph
// and the rated game won (not among the losses); bob's the game lost and a
// provisional rating.
func checkRatedProfiles(t *testing.T, base, game, rated string, ann, bob *page) {
	t.Helper()
	ann.goTo(base + "/@/ann")
	ann.waitFor("the rating card", fmt.Sprintf(`document.querySelector('.rating-card[data-game=%q][data-family="standard"][aria-pressed="true"]')`, game), 10*time.Second)
	ann.waitFor("the rating graph", `document.querySelector('.chart-box svg.chart[role=img] circle')`, 5*time.Second)
	ann.waitFor("the won game", fmt.Sprintf(`(r => r && r.querySelector('.outcome.win') && r.textContent.includes('bob'))(document.querySelector('tr[data-id=%q]'))`, rated), 5*time.Second)
	ann.click(`[data-name=filter-result] input[value="loss"] + label`)
	ann.waitFor("no losses", fmt.Sprintf(`!document.querySelector('tr[data-id=%q]')`, rated), 5*time.Second)
	bob.goTo(base + "/@/bob")
	bob.waitFor("bob's lost game", fmt.Sprintf(`(r => r && r.querySelector('.outcome.loss') && r.textContent.includes('ann'))(document.querySelector('tr[data-id=%q]'))`, rated), 10*time.Second)
	if d := eval[string](bob, `document.querySelector('.rating-card[aria-pressed="true"]').textContent`); !strings.Contains(d, "?") {
		t.Errorf("bob's rating card after one game: %q, want a provisional rating", d)
	}
}

// guestGameKept: the guest resigns the casual game seek, then signs up:
// the game played as a guest is the account's, on its profile.
func guestGameKept(base, seek string, guest *page) {
	guest.t.Helper()
	guest.goTo(base + "/g/" + seek)
	guest.waitFor("the casual game", `window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'playing' && document.querySelector('#resign')`, 10*time.Second)
	guest.click("#resign")
	guest.waitFor("the confirmation", `document.querySelector('#resign').textContent.includes('Really')`, 5*time.Second)
	guest.click("#resign")
	guest.waitFor("the end", `window.magnetonGame.state.status === 'finished'`, 10*time.Second)
	guest.signUp(base, "cat", "long enough pass")
	guest.goTo(base + "/@/cat")
	guest.waitFor("the game played as a guest", fmt.Sprintf(`(r => r && r.querySelector('.outcome.loss') && r.textContent.includes('ann'))(document.querySelector('tr[data-id=%q]'))`, seek), 10*time.Second)
}

// cancelOwnSeek: bob seeks with quick pairing, then takes the seek back
// from the lobby.
func cancelOwnSeek(base, game string, bob *page) {
	bob.t.Helper()
	bob.goTo(base + "/")
	own := fmt.Sprintf(`.quick-btn[data-game=%q][data-clock="15+10"]`, game)
	bob.waitFor("the quick pairing", fmt.Sprintf(`document.querySelector(%q)`, own), 10*time.Second)
	bob.click(own)
	bob.waitFor("bob's seek", `location.pathname.startsWith('/g/') && window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'waiting'`, 10*time.Second)
	mine := bob.state().ID
	bob.goTo(base + "/")
	cancel := fmt.Sprintf(`#open-list .game-row[data-key=%q] .cancel-seek`, mine)
	bob.waitFor("the Cancel button of his seek", fmt.Sprintf(`document.querySelector(%q)`, cancel), 10*time.Second)
	bob.click(cancel)
	bob.waitFor("the seek gone from the lobby", fmt.Sprintf(`!document.querySelector('#open-list .game-row[data-key=%q]')`, mine), 10*time.Second)
}
