package assets

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/magneton-games/magneton/engine"
)

// Book is the committed certificates of the book of proven positions as
// the server offers them to the browser's engine, which has none of its
// own: GET /engine/book.json lists them (engine.BookFile: each file's
// game and rules, read from its header), and each is
// /engine/book/<hash>/<name>.proof.gz, gzipped as committed, cached for a
// year (its hash is in its path). The page fetches those of the game and
// rules it analyses or plays level 8 at (js/engine.js).
type Book struct {
	list  []byte
	files map[string][]byte // by URL
}

// LoadBook reads the certificates of certs (book.Certificates()), files
// certs/*.proof.gz.
func LoadBook(certs fs.FS) (*Book, error) {
	names, err := fs.Glob(certs, "certs/*.proof.gz")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	b := &Book{files: map[string][]byte{}}
	list := []engine.BookFile{}
	for _, name := range names {
		data, err := fs.ReadFile(certs, name)
		if err != nil {
			return nil, fmt.Errorf("the book's %s: %w", name, err)
		}
		f, err := header(data)
		if err != nil {
			return nil, fmt.Errorf("the book's %s: %w", name, err)
		}
		sum := sha256.Sum256(data)
		f.Name = path.Base(name)
		f.URL = "/engine/book/" + hex.EncodeToString(sum[:8]) + "/" + f.Name
		f.Bytes = len(data)
		b.files[f.URL] = data
		list = append(list, f)
	}
	b.list, _ = json.Marshal(list)
	return b, nil
}

// header reads a gzipped certificate file's game and rules lines.
func header(gz []byte) (engine.BookFile, error) {
	var f engine.BookFile
	zr, err := gzip.NewReader(strings.NewReader(string(gz)))
	if err != nil {
		return f, err
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for i := 0; i < 10 && sc.Scan(); i++ {
		if v, ok := strings.CutPrefix(sc.Text(), "game "); ok {
			f.Game = v
		}
		if v, ok := strings.CutPrefix(sc.Text(), "rules "); ok {
			f.Rules = v
		}
	}
	if f.Game == "" {
		return f, fmt.Errorf("no game line in its header")
	}
	return f, nil
}

// Serves reports whether the book answers path.
func (b *Book) Serves(p string) bool {
	if b == nil {
		return false
	}
	_, ok := b.files[p]
	return ok || p == "/engine/book.json"
}

// ServeHTTP answers the list or a file.
func (b *Book) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	if r.URL.Path == "/engine/book.json" {
		h.Set("Content-Type", "application/json")
		h.Set("Cache-Control", "no-cache")
		w.Write(b.list)
		return
	}
	data := b.files[r.URL.Path]
	h.Set("Content-Type", "application/gzip")
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("Content-Length", strconv.Itoa(len(data)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(data)
}
