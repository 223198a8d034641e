// Package page serves the front end's one HTML page, index.html, in the
// visitor's language: the page's lang attribute, its title and the few
// words it shows before its scripts run (the skip link, the home link's
// label, "Loading…", the noscript note) come from the front end's
// catalogues (js/i18n/<lang>.js), so that a browser that asks for Spanish
// is answered in Spanish from the first byte, and a screen reader reads
// the title in the right voice.
//
// The language is the visitor's choice (the lang cookie that the header's
// switch sets), else the first language of Accept-Language that the site
// speaks, else English. index.html marks the elements to word with
// data-t="key" (their text) and data-t-label="key" (their aria-label);
// a text's {site} is the page's application-name, its {games} the games'
// titles in that language.
package page

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Langs are the languages of the front end's catalogues, English first.
var Langs = []string{"en", "es", "it", "eo"}

// Index is index.html made once per language from a front end's files.
type Index struct {
	// Engine is the browser engine's URL (package assets) that the page
	// names in <meta name="engine">, "" for none; set it before the first
	// Serve.
	Engine string
	static fs.FS
	titles func(lang string) []string
	once   sync.Once
	pages  map[string][]byte
	err    error
}

// New is the index page of a front end's file tree; titles gives the
// games' titles in a language.
func New(static fs.FS, titles func(lang string) []string) *Index {
	return &Index{static: static, titles: titles}
}

var (
	textMark  = regexp.MustCompile(`(<(\w+)[^>]*\sdata-t="([^"]+)"[^>]*>)([^<]*)(</\w+>)`)
	labelMark = regexp.MustCompile(`(<[^>]*\sdata-t-label="([^"]+)"[^>]*>)`)
	ariaLabel = regexp.MustCompile(`aria-label="[^"]*"`)
	htmlLang  = regexp.MustCompile(`<html lang="[^"]*"`)
	appName   = regexp.MustCompile(`<meta name="application-name" content="([^"]*)">`)
	holder    = regexp.MustCompile(`\{(\w+)\}`)
	// engineMark is where the page names the browser's engine.
	engineMark = regexp.MustCompile(`<meta name="engine" content="[^"]*">`)
)

func (ix *Index) load() {
	tmpl, err := fs.ReadFile(ix.static, "index.html")
	if err != nil {
		ix.err = fmt.Errorf("reading the front end's index.html: %w", err)
		return
	}
	ix.pages = map[string][]byte{}
	for _, l := range Langs {
		words, err := catalogue(ix.static, l)
		if errors.Is(err, fs.ErrNotExist) {
			words = map[string]string{} // a front end without catalogues: the page as it is
		} else if err != nil {
			ix.err = err
			return
		}
		vars := map[string]string{"games": list(words, ix.titles(l))}
		if m := appName.FindSubmatch(tmpl); m != nil {
			vars["site"] = string(m[1])
		}
		for k, w := range words {
			words[k] = fill(w, vars)
		}
		ix.pages[l] = []byte(engineMark.ReplaceAllLiteralString(worded(string(tmpl), l, words), `<meta name="engine" content="`+html.EscapeString(ix.Engine)+`">`))
	}
}

// worded is the page template in one language: its lang attribute, and
// each marked text and label from words (left as it is where words lacks
// the key).
func worded(tmpl, lang string, words map[string]string) string {
	s := htmlLang.ReplaceAllString(tmpl, `<html lang="`+lang+`"`)
	s = textMark.ReplaceAllStringFunc(s, func(m string) string {
		g := textMark.FindStringSubmatch(m)
		if w, ok := words[g[3]]; ok {
			return g[1] + html.EscapeString(w) + g[5]
		}
		return m
	})
	return labelMark.ReplaceAllStringFunc(s, func(m string) string {
		g := labelMark.FindStringSubmatch(m)
		if w, ok := words[g[2]]; ok {
			return ariaLabel.ReplaceAllString(m, `aria-label="`+html.EscapeString(w)+`"`)
		}
		return m
	})
}

// fill puts vars in a text's {placeholders}, leaving the others.
func fill(text string, vars map[string]string) string {
	return holder.ReplaceAllStringFunc(text, func(m string) string {
		if v, ok := vars[m[1:len(m)-1]]; ok {
			return v
		}
		return m
	})
}

// list says names as a list in a catalogue's words: "A, B and C".
func list(words map[string]string, names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	last := len(names) - 1
	return fill(words["doc.and"], map[string]string{"list": strings.Join(names[:last], ", "), "last": names[last]})
}

// catalogue reads a language's catalogue, the JSON object after "export
// default" in js/i18n/<lang>.js.
func catalogue(static fs.FS, lang string) (map[string]string, error) {
	file := "js/i18n/" + lang + ".js"
	src, err := fs.ReadFile(static, file)
	if err != nil {
		return nil, fmt.Errorf("reading the catalogue: %w", err)
	}
	s := string(src)
	i := strings.Index(s, "export default")
	if i < 0 {
		return nil, fmt.Errorf("%s: no export default", file)
	}
	var m map[string]string
	if err := json.NewDecoder(strings.NewReader(s[i+len("export default"):])).Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: the catalogue is not a JSON object of texts: %w", file, err)
	}
	return m, nil
}

// Pages are index.html in each language (Langs), as Serve sends them; a
// front end without index.html is an error.
func (ix *Index) Pages() (map[string][]byte, error) {
	ix.once.Do(ix.load)
	if ix.err != nil {
		return nil, ix.err
	}
	return ix.pages, nil
}

// Serve answers with index.html in the visitor's language.
func (ix *Index) Serve(w http.ResponseWriter, r *http.Request) {
	ix.once.Do(ix.load)
	if ix.err != nil {
		http.Error(w, "this server has no front end", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Language", Choose(r))
	w.Header().Set("Vary", "Accept-Language, Cookie")
	w.Write(ix.pages[Choose(r)])
}

// Choose is the language of a request: its lang cookie when the site
// speaks it, else Accept-Language's language with the highest weight that
// the site speaks, else English.
func Choose(r *http.Request) string {
	if c, err := r.Cookie("lang"); err == nil && speaks(c.Value) {
		return c.Value
	}
	return fromAccept(r.Header.Get("Accept-Language"))
}

func speaks(l string) bool {
	for _, x := range Langs {
		if x == l {
			return true
		}
	}
	return false
}

// fromAccept picks from an Accept-Language header ("es-ES,es;q=0.9,en;q=0.8").
func fromAccept(header string) string {
	type choice struct {
		lang string
		q    float64
	}
	var cs []choice
	for _, part := range strings.Split(header, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		base, _, _ := strings.Cut(strings.ToLower(tag), "-")
		if q > 0 && speaks(base) {
			cs = append(cs, choice{base, q})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].q > cs[j].q })
	if len(cs) == 0 {
		return "en"
	}
	return cs[0].lang
}
