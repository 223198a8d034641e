package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// headerOneRow is the header's parts that stand more than half a row
// below the logo: none when the header is one row.
const headerOneRow = `(() => {
  const logo = document.querySelector('.logo').getBoundingClientRect();
  const parts = [...document.querySelectorAll('.site-nav a, #lang, .account')];
  return parts.filter((e) => e.getBoundingClientRect().top > logo.top + logo.height / 2)
    .map((e) => e.dataset.nav || e.id || e.className);
})()`

// TestBrowserHeaderOneRow: the header, with every link of the menu
// (Tournaments too), for a guest and with a long user name, is one row in each language on
// windows of 1280, 1000 and 880 pixels (below 1280 the links are in the
// Menu button's panel); a second row pushes the page down under the
// toasts, which then cover the players' bars (TestBrowserClockAfterRestart
// saw it when the Tournaments link came), and in Spanish at 880 pixels
// the links took three rows. The quick pairing's clock buttons keep
// their text inside them at each width.
func TestBrowserHeaderOneRow(t *testing.T) {
	base, tabs := openTabs(t, "header")
	p := tabs[0]
	p.goTo(base + "/")
	words := map[string]string{"en": "Tournaments", "es": "Torneos", "it": "Tornei", "eo": "Turniroj"}
	// A guest first (a name and two buttons, Sign up and Log in: in
	// Spanish at 1280 pixels they once took a second row), then an account.
	for _, who := range []string{"guest", "account"} {
		if who == "account" {
			p.chooseLang("en")
			p.signUp(base, longName, "correct horse")
		}
		for _, width := range []int64{1280, 1000, 880} {
			p.do(chromedp.EmulateViewport(width, 860))
			for _, lang := range []string{"en", "es", "it", "eo"} {
				p.chooseLang(lang)
				p.waitFor("the header in "+lang, fmt.Sprintf(`document.documentElement.lang === %q && document.querySelector('.site-nav a[data-nav=tournaments]').textContent === %q && document.querySelector('.account-name')`, lang, words[lang]), 10*time.Second)
				if low := eval[[]string](p, headerOneRow); len(low) > 0 {
					t.Errorf("%s, %d px, %s: the header is more than one row: %v stand below the logo", who, width, lang, low)
				}
				if over := eval[[]string](p, quickOverflow); len(over) > 0 {
					t.Errorf("%s, %d px, %s: the quick pairing's %v overflow their buttons", who, width, lang, over)
				}
			}
		}
	}
	p.checkConsole()
}

// quickOverflow is the quick pairing's clock buttons whose text is wider
// than the button.
const quickOverflow = `[...document.querySelectorAll('.quick-btn')].filter((b) => b.scrollWidth > b.clientWidth + 1).map((b) => b.textContent)`
