//go:build !js

package book

import (
	"compress/gzip"
	"embed"
	"fmt"
	"io/fs"
	"path"

	"github.com/magneton-games/magneton/game"
)

// certs are the committed certificates of docs/proofs, gzipped (1.4 MB
// instead of 5 MB in the binary); TestEmbeddedCertificates keeps them the
// same as docs/proofs and rewrites them with UPDATE_BOOK=1.
//
//go:embed certs/*.proof.gz
var certs embed.FS

// Certificates is the committed certificates' file tree: certs/<name>.proof.gz,
// each a gzipped certificate file (the server sends them to the browser's
// engine, which has none of its own).
func Certificates() fs.FS { return certs }

// Embedded returns a book of the committed certificates, checked by the
// rules that rulesFor builds (games.Rules), each read in turn.
func Embedded(rulesFor func(name, settings string) (game.Rules, error)) (*Book, error) {
	b := New()
	names, err := fs.Glob(certs, "certs/*.proof.gz")
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		if err := readGzip(b, name, rulesFor); err != nil {
			return nil, fmt.Errorf("the book's %s: %w", path.Base(name), err)
		}
	}
	return b, nil
}

func readGzip(b *Book, name string, rulesFor func(name, settings string) (game.Rules, error)) error {
	f, err := certs.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	// The committed certificates are verified by the tests, not at each
	// start of the program.
	return b.read(zr, rulesFor, false)
}
