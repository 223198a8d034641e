package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"

	"github.com/magneton-games/magneton/server/assets"
	"github.com/magneton-games/magneton/web"
)

// buildSet is the builds of the engine benched in the browser: the
// site's own (browserSide) and the variants, in that order.
type buildSet struct {
	names []string
	gz    map[string][]byte // the variants' gzipped files, by name
	size  map[string][2]int // gzipped and plain bytes, by name
}

// readBuilds reads the site's engine from the embedded front end and the
// variants from their files.
func readBuilds(vs []variant) (*buildSet, error) {
	b := &buildSet{names: []string{browserSide}, gz: map[string][]byte{}, size: map[string][2]int{}}
	own, err := fs.ReadFile(web.Files, assets.EngineFile)
	if err != nil {
		return nil, fmt.Errorf("the site's engine: %w", err)
	}
	if b.size[browserSide], err = sizes(own); err != nil {
		return nil, err
	}
	for _, v := range vs {
		if _, dup := b.size[v.name]; dup {
			return nil, fmt.Errorf("two variants named %s", v.name)
		}
		gz, err := readVariant(v.path)
		if err != nil {
			return nil, err
		}
		if b.size[v.name], err = sizes(gz); err != nil {
			return nil, fmt.Errorf("%s: %w", v.path, err)
		}
		b.names = append(b.names, v.name)
		b.gz[v.name] = gz
	}
	return b, nil
}

// sizes are a gzipped file's bytes and its plain bytes.
func sizes(gz []byte) ([2]int, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return [2]int{}, err
	}
	n, err := io.Copy(io.Discard, zr)
	return [2]int{len(gz), int(n)}, err
}

// print writes each build's size.
func (b *buildSet) print(w io.Writer) {
	for _, name := range b.names {
		s := b.size[name]
		fmt.Fprintf(w, "engine %s: %d bytes gzipped (%.2f MB), %d plain\n", name, s[0], float64(s[0])/1e6, s[1])
	}
}
