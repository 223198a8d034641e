package e2e

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/magneton-games/magneton/internal/smtptest"
	"github.com/magneton-games/magneton/server"
	"github.com/magneton-games/magneton/server/mail"
)

// signUpWithEmail makes an account with an e-mail address through the
// header's form and waits for the header to show it.
func (p *page) signUpWithEmail(base, name, password, email string) {
	p.t.Helper()
	p.goTo(base + "/")
	p.waitGuest()
	p.click("#signup-open")
	p.waitFor("the sign-up form", `document.querySelector('#account-dialog[open][data-kind="signup"] #account-email')`, 5*time.Second)
	p.typeInto("#account-name", name)
	p.typeInto("#account-password", password)
	p.typeInto("#account-email", email+"\n")
	p.waitAccount(name)
}

// logInAs logs in through the header's form, the name filled in or typed.
func (p *page) logInAs(name, password string) {
	p.t.Helper()
	p.waitFor("the log-in form", `document.querySelector('#account-dialog[open][data-kind="login"] #account-password')`, 5*time.Second)
	if eval[string](p, `document.querySelector('#account-name').value`) != name {
		p.typeInto("#account-name", name)
	}
	p.typeInto("#account-password", password+"\n")
	p.waitAccount(name)
}

// TestBrowserPasswordReset: with the server's mail going to an SMTP server
// in the test, a player who forgot her password asks for a link from the
// log-in form; the mail's link opens the page that sets a new one (the
// token gone from the address bar), which logs out her other browser;
// she logs in with the new password.
func TestBrowserPasswordReset(t *testing.T) {
	bctx := browser(t)
	smtpd := smtptest.Start(t, smtptest.Options{})
	sender, err := mail.New(mail.Config{Addr: smtpd.Addr, From: "Magneton <noreply@example.org>"})
	if err != nil {
		t.Fatal(err)
	}
	base := serve(t, filepath.Join(t.TempDir(), "games.db"), "127.0.0.1:0", func(c *server.Config) { c.Mail = sender }).url
	p, other := tab(t, bctx, "ann"), tab(t, bctx, "ann's other browser")
	p.signUpWithEmail(base, "ann", "correct horse", "ann@example.org")
	other.goTo(base + "/")
	other.click("#login-open")
	other.logInAs("ann", "correct horse")
	p.menuItem("logout")
	p.waitGuest()
	p.click("#login-open")
	p.waitFor("the log-in form", `document.querySelector('#account-dialog[open] #account-forgot')`, 5*time.Second)
	p.typeInto("#account-name", "ann")
	p.click("#account-forgot")
	p.waitFor("the forgot form, the name kept", `(e => e && e.value === 'ann')(document.querySelector('#account-dialog[open][data-kind="forgot"] #account-who'))`, 5*time.Second)
	p.click("#account-submit")
	p.waitFor("the answer", `(e => e && e.textContent.includes('on its way'))(document.querySelector('#account-message'))`, 10*time.Second)
	p.click("#account-close")
	m := smtpd.Next(t, 15*time.Second)
	link := m.Link(base + "/reset#")
	if len(m.To) != 1 || m.To[0] != "ann@example.org" || len(link) < len(base)+24 {
		t.Fatalf("the mail to %v has no link:\n%s", m.To, m.Body())
	}
	p.goTo(link)
	p.waitFor("the new password's form", `document.activeElement === document.querySelector('#reset-password')`, 10*time.Second)
	if got := eval[string](p, `location.pathname + location.hash`); got != "/reset" {
		t.Errorf("the address bar shows %q, want /reset without the token", got)
	}
	p.typeInto("#reset-password", "battery staple")
	p.typeInto("#reset-password2", "battery staple\n")
	p.waitFor("the password set", `(e => e && e.textContent.includes('ann'))(document.querySelector('#reset-done'))`, 10*time.Second)
	p.click("#reset-login")
	p.logInAs("ann", "battery staple")
	other.goTo(base + "/")
	other.waitGuest()
	p.checkConsole()
	other.checkConsole()
}

// TestBrowserDeleteAccount: ann plays bob, with a line in the chat, and
// bob resigns; ann deletes her account from the account menu (a wrong
// password refused in the form first) and is a guest; the finished game
// then shows the deleted player in her seat and her line, without a link,
// in English and in Spanish.
func TestBrowserDeleteAccount(t *testing.T) {
	base, tabs := openTabs(t, "ann", "bob")
	ann, bob := tabs[0], tabs[1]
	ann.signUp(base, "ann", "correct horse")
	id := invite(base, ann, bob, "magneton", "")
	openingMoves(&chooser{t: t}, ann, bob)
	ann.say("good luck")
	bob.waitFor("ann's line", chatShows("good luck"), 10*time.Second)
	bob.click("#resign")
	bob.waitFor("the confirmation", `document.querySelector('#resign').textContent.includes('Really')`, 5*time.Second)
	bob.click("#resign")
	ann.waitFor("the end", `window.magnetonGame.state.status === 'finished'`, 10*time.Second)
	ann.goTo(base + "/@/ann") // her profile, where no toast of the game covers the header's menu
	ann.waitAccount("ann")
	ann.menuItem("account-delete-open")
	ann.waitFor("the deletion form", `document.querySelector('#account-dialog[open][data-kind="delete"] #account-password')`, 5*time.Second)
	ann.typeInto("#account-password", "wrong horse\n")
	ann.formError("the refusal of a wrong password", "The current password is wrong.")
	ann.typeInto("#account-password", "correct horse\n")
	ann.waitGuest()
	bob.goTo(base + "/g/" + id)
	deleted := func(name string) string {
		return fmt.Sprintf(`window.magnetonGame && window.magnetonGame.state && window.magnetonGame.state.status === 'finished' &&
			Array.from(document.querySelectorAll('.player .player-name')).some((e) => e.textContent === %[1]q && !e.closest('a')) &&
			!document.querySelector('.player a.player-name[href="/@/ann"]') &&
			Array.from(document.querySelectorAll('.chat-lines .chat-name')).some((e) => e.textContent.includes(%[1]q))`, name)
	}
	bob.waitFor("the deleted player in the game", deleted("deleted player"), 10*time.Second)
	bob.chooseLang("es")
	bob.waitFor("the deleted player in Spanish", deleted("jugador eliminado"), 10*time.Second)
	if eval[bool](bob, `/\bann\b/.test(document.body.innerText)`) {
		t.Errorf("the game page still names ann:\n%s", eval[string](bob, `document.body.innerText`))
	}
	ann.checkConsole()
	bob.checkConsole()
}

// TestBrowserAccountBox: the account menu sets the e-mail address (with
// the password), lists the logged-in browsers, this one marked, and logs
// out another; it links the download of the account's data.
func TestBrowserAccountBox(t *testing.T) {
	base, tabs := openTabs(t, "ann", "ann's phone")
	p, phone := tabs[0], tabs[1]
	p.signUp(base, "ann", "correct horse")
	phone.goTo(base + "/")
	phone.click("#login-open")
	phone.logInAs("ann", "correct horse")
	p.menuItem("account-email-open")
	p.waitFor("the e-mail form", `document.activeElement === document.querySelector('#account-dialog[open][data-kind="email"] #account-email')`, 5*time.Second)
	p.typeInto("#account-email", "ann@example.org")
	p.typeInto("#account-password", "correct horse\n")
	p.waitFor("the address saved", `!document.querySelector('#account-dialog') && Array.from(document.querySelectorAll('.toast')).some((e) => e.textContent.includes('ann@example.org'))`, 10*time.Second)
	p.menuItem("account-sessions-open")
	rows := `document.querySelectorAll('#sessions-dialog[open] .session-row')`
	p.waitFor("two browsers, this one marked", rows+`.length === 2 && document.querySelector('#sessions-dialog .session-row.current .session-this') && /Chrome \d+, Linux/.test(document.querySelector('#sessions-dialog .session-row').textContent)`, 10*time.Second)
	p.click("#sessions-dialog .session-row:not(.current) .session-logout")
	p.waitFor("one browser left", rows+`.length === 1 && document.querySelector('#sessions-logout-others').disabled`, 10*time.Second)
	p.click("#sessions-close")
	p.waitFor("the dialog closed", `!document.querySelector('#sessions-dialog')`, 5*time.Second)
	if got := eval[string](p, `document.querySelector('#account-data').getAttribute('href')`); got != "/api/account/data" {
		t.Errorf("the download's link is %q", got)
	}
	phone.goTo(base + "/")
	phone.waitGuest()
	p.checkConsole()
	phone.checkConsole()
}
