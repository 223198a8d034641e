package page

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/web"
)

// titles are the games' titles as the server gives them.
func titles(lang string) []string {
	if lang == "es" {
		return []string{"Magneton", "Demolición"}
	}
	return []string{"Magneton", "Tumbling Down"}
}

// TestServe checks that index.html comes in the visitor's language: the
// lang cookie first, then Accept-Language by weight, else English.
func TestServe(t *testing.T) {
	ix := New(web.Files, titles)
	for _, c := range []struct {
		name, accept, cookie string
		lang, title          string
	}{
		{"nothing asked", "", "", "en", "Magneton · play Magneton and Tumbling Down"},
		{"Spanish asked", "es-ES,es;q=0.9,en;q=0.8", "", "es", "Magneton · juega a Magneton y Demolición"},
		{"a language the site lacks, then Italian", "de-DE,de;q=0.9,it;q=0.5", "", "it", "gioca a Magneton"},
		{"weights over order", "en;q=0.2,eo;q=0.8", "", "eo", "ludu Magneton"},
		{"the switch's cookie over the browser", "es", "it", "it", "gioca a Magneton"},
		{"a cookie the site does not speak", "es", "xx", "es", "juega a Magneton"},
		{"only languages the site lacks", "de,fr;q=0.5", "", "en", "play Magneton"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			if c.accept != "" {
				r.Header.Set("Accept-Language", c.accept)
			}
			if c.cookie != "" {
				r.AddCookie(&http.Cookie{Name: "lang", Value: c.cookie})
			}
			w := httptest.NewRecorder()
			ix.Serve(w, r)
			body := w.Body.String()
			if w.Code != http.StatusOK {
				t.Fatalf("status %d: %s", w.Code, body)
			}
			if !strings.Contains(body, `<html lang="`+c.lang+`"`) {
				t.Errorf("want lang=%q in %.80q", c.lang, body)
			}
			i, j := strings.Index(body, "<title"), strings.Index(body, "</title>")
			if i < 0 || j < i || !strings.Contains(body[i:j], c.title) {
				t.Errorf("the title is not in %s: %q", c.lang, body[max(i, 0):max(j, 0)])
			}
			if got := w.Header().Get("Content-Language"); got != c.lang {
				t.Errorf("Content-Language %q, want %q", got, c.lang)
			}
		})
	}
}

// TestWorded checks that every marked text and label of index.html is
// worded in every language, and that a catalogue's text is escaped.
func TestWorded(t *testing.T) {
	got := worded(`<html lang="en"><a data-t="k" href="#">old</a><a aria-label="old" data-t-label="k"></a>`, "es", map[string]string{"k": `<b> & "q"`})
	want := `<html lang="es"><a data-t="k" href="#">&lt;b&gt; &amp; &#34;q&#34;</a><a aria-label="&lt;b&gt; &amp; &#34;q&#34;" data-t-label="k"></a>`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	ix := New(web.Files, titles)
	ix.once.Do(ix.load)
	if ix.err != nil {
		t.Fatal(ix.err)
	}
	en := string(ix.pages["en"])
	for _, l := range Langs[1:] {
		page := string(ix.pages[l])
		for _, m := range textMark.FindAllStringSubmatch(page, -1) {
			if strings.Contains(en, m[0]) {
				t.Errorf("%s: %q is as in English", l, m[0])
			}
		}
	}
}
