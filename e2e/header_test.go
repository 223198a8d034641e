package e2e

import (
	"fmt"
	"testing"
	"time"
)

// headerOneRow is the header's parts that stand more than half a row
// below the logo: none when the header is one row.
const headerOneRow = `(() => {
  const logo = document.querySelector('.logo').getBoundingClientRect();
  const parts = [...document.querySelectorAll('.site-nav a, #lang, .account')];
  return parts.filter((e) => e.getBoundingClientRect().top > logo.top + logo.height / 2)
    .map((e) => e.dataset.nav || e.id || e.className);
})()`

// TestBrowserHeaderOneRow: on a 1280-pixel window the header, with every
// link of the menu (Tournaments too) and a long user name, is one row in
// each language; a second row pushes the page down under the toasts,
// which then cover the players' bars (TestBrowserClockAfterRestart saw it
// when the Tournaments link came).
func TestBrowserHeaderOneRow(t *testing.T) {
	base, tabs := openTabs(t, "header")
	p := tabs[0]
	p.signUp(base, longName, "correct horse")
	words := map[string]string{"en": "Tournaments", "es": "Torneos", "it": "Tornei", "eo": "Turniroj"}
	for _, lang := range []string{"en", "es", "it", "eo"} {
		p.chooseLang(lang)
		p.waitFor("the header in "+lang, fmt.Sprintf(`document.documentElement.lang === %q && document.querySelector('.site-nav a[data-nav=tournaments]').textContent === %q && document.querySelector('.account-name')`, lang, words[lang]), 10*time.Second)
		if low := eval[[]string](p, headerOneRow); len(low) > 0 {
			t.Errorf("%s: the header is more than one row: %v stand below the logo", lang, low)
		}
	}
	p.checkConsole()
}
