package server

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/web"
)

// refusalCodes collects, from the source of the server and its packages
// (and of package engine),
// every code a refusal can carry: the literal code of wire.Refuse,
// wire.Forbid and jsonapi.WriteCoded, of a wire.Refusal literal's Code
// field, and every literal assigned to a variable named code (for a
// refusal whose code is chosen at run time).
func refusalCodes(t *testing.T) map[string]string {
	t.Helper()
	var files []string
	// The server's packages, and package engine, whose refusals the
	// server's API answers (POST /api/play, /api/analyze) as the
	// browser's engine does.
	for _, root := range []string{".", "../engine"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	codes := map[string]string{}
	fset := token.NewFileSet()
	add := func(e ast.Expr) {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil || s == "" {
			return
		}
		codes[s] = fset.Position(lit.Pos()).String()
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				switch name := funcName(n.Fun); {
				case (name == "Refuse" || name == "Forbid") && len(n.Args) > 0:
					add(n.Args[0])
				case name == "WriteCoded" && len(n.Args) > 2:
					add(n.Args[2])
				case name == "refuse" && len(n.Args) > 1:
					// package tournaments' refuse(status, code, ...)
					add(n.Args[1])
				}
			case *ast.CompositeLit:
				if funcName(n.Type) == "Refusal" {
					for _, el := range n.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Code" {
								add(kv.Value)
							}
						}
					}
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == "code" && i < len(n.Rhs) {
						add(n.Rhs[i])
					}
				}
			}
			return true
		})
	}
	return codes
}

// funcName is the name of a called function or of a type, with or
// without its package ("wire.Refuse", "Refuse"): "" for anything else.
func funcName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}

// TestRefusalCodesTranslated checks that every refusal code the server
// sends has its text in the front end's catalogue (which TestCatalogues
// checks has every key in every language), that the catalogue has no
// err.<code> the server never sends, and that the protocol document
// lists every code.
func TestRefusalCodesTranslated(t *testing.T) {
	codes := refusalCodes(t)
	for _, want := range []string{"not_your_turn", "name_taken", "range_order", "rating_above", "not_saved"} {
		if _, ok := codes[want]; !ok {
			t.Errorf("the source scan missed the code %q: refusalCodes is broken", want)
		}
	}
	src, err := fs.ReadFile(web.Files, "js/i18n/en.js")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, m := range regexp.MustCompile(`"err\.([a-z0-9_]+)":`).FindAllStringSubmatch(string(src), -1) {
		known[m[1]] = true
	}
	doc, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for c := range codes {
		names = append(names, c)
	}
	slices.Sort(names)
	for _, c := range names {
		if !known[c] {
			t.Errorf("%s: code %q has no err.%s in web/static/js/i18n/en.js", codes[c], c, c)
		}
		if !strings.Contains(string(doc), "`"+c+"`") {
			t.Errorf("%s: code %q is not listed in docs/protocol.md", codes[c], c)
		}
	}
	for c := range known {
		if _, ok := codes[c]; !ok {
			t.Errorf("web/static/js/i18n/en.js has err.%s, a code the server never sends", c)
		}
	}
}
