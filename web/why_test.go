package web

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// mistakeCodes are the codes of the rules engines' mistakes
// (game.Mistaken("code", ...) in the rules packages), with the values each
// passes, and the server's fallbacks (wire.Because).
func mistakeCodes(t *testing.T) map[string][]string {
	t.Helper()
	codes := map[string][]string{"illegal": nil, "invalid": nil}
	code := regexp.MustCompile(`^game\.Mistaken\("([a-z0-9_]+)", `)
	name := regexp.MustCompile(`, "([a-z]+)", `)
	for _, dir := range []string{"../magneton", "../tumbling", "../game"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s := string(src)
			for i := strings.Index(s, "game.Mistaken(\""); i >= 0; i = strings.Index(s, "game.Mistaken(\"") {
				s = s[i:]
				m := code.FindStringSubmatch(s)
				if m == nil {
					break
				}
				// The values follow the English text, fmt.Sprintf(...).
				rest := s[len(m[0]):]
				if strings.HasPrefix(rest, "fmt.Sprintf(") {
					rest = rest[balanced(rest, len("fmt.Sprintf(")):]
				}
				rest = rest[:balanced(rest, 0)]
				var vars []string
				for _, v := range name.FindAllStringSubmatch(rest, -1) {
					vars = append(vars, v[1])
				}
				codes[m[1]] = vars
				s = s[len(m[0]):]
			}
		}
	}
	return codes
}

// balanced is the index just past the bracket that closes the one open at
// before from in Go source, or len(s).
func balanced(s string, from int) int {
	depth := 1
	inStr := false
	for i := from; i < len(s); i++ {
		switch c := s[i]; {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(s)
}

// TestMistakeTexts checks that every reason the server can give an
// illegal move or a bad position (why_code) has its words in the
// catalogues (why.<code>), using only the values that the rules engine
// passes, and that the catalogues have no reason it never gives.
func TestMistakeTexts(t *testing.T) {
	codes := mistakeCodes(t)
	for _, want := range []string{"mg_rank_char", "td_not_next", "not_empty"} {
		if _, ok := codes[want]; !ok {
			t.Fatalf("the scan missed the code %q: mistakeCodes is broken", want)
		}
	}
	en := strs(t, "js/i18n/en.js", catalogue(t, "js/i18n/en.js", "export default"))
	ph := regexp.MustCompile(`\{(\w+)\}`)
	for code, vars := range codes {
		text, ok := en["why."+code]
		if !ok {
			t.Errorf("the reason %q has no why.%s in js/i18n/en.js", code, code)
			continue
		}
		for _, m := range ph.FindAllStringSubmatch(text, -1) {
			if !slices.Contains(vars, m[1]) {
				t.Errorf("why.%s uses {%s}, which the rules engine does not give (it gives %v)", code, m[1], vars)
			}
		}
	}
	for k := range en {
		if c, ok := strings.CutPrefix(k, "why."); ok {
			if _, known := codes[c]; !known {
				t.Errorf("js/i18n/en.js has %s, a reason the server never gives", k)
			}
		}
	}
}
