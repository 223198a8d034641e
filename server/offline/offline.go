// Package offline serves what makes the site install and work without the
// network (docs/offline.md): the service worker, /sw.js, and the web app
// manifest, /manifest.webmanifest.
//
// The service worker's code is the front end's web/static/sw.js; its line
// "const OFFLINE = {...};" is filled in here, from the embedded files, with
// what the worker precaches (every file of the front end the pages use, the
// page itself as "/", and the browser engine under its content-hashed
// name), the API answers it keeps for offline use (the meta), the pattern
// of the paths that are pages (answered with the cached page when
// offline), and a version: the first 16 hex digits of a SHA-256 of all of
// that, the files' contents and the page in every language. Any change to
// any file is a new version, hence a new /sw.js, which the browser
// installs beside the old one; once it has precached everything it takes
// over and drops the old caches. Made from the files the server embeds,
// the list cannot fall behind them, and there is no generated file to
// keep current.
package offline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strconv"
	"sync"
)

// Paths of what this package serves.
const (
	WorkerPath   = "/sw.js"
	ManifestPath = "/manifest.webmanifest"
)

// WorkerFile and ManifestFile are their sources in the front end's files.
const (
	WorkerFile   = "sw.js"
	ManifestFile = "manifest.webmanifest"
)

// DataURLs are the API answers the worker keeps for offline use, asked of
// the network first and answered from the cache when it does not answer.
var DataURLs = []string{"/api/meta"}

// notCached are front-end files the pages never ask for by their own path:
// the page (precached as "/"), the worker itself, the engine (asked for
// by its hashed name) and the engine's build record.
var notCached = []string{"index.html", WorkerFile, "engine/engine.wasm.gz", "engine/engine.json"}

// marker begins the line of sw.js that this package fills in.
var marker = []byte("const OFFLINE = ")

// Config is what the worker is made from.
type Config struct {
	// Static is the front end's file tree.
	Static fs.FS
	// Pages gives index.html in every language, as the server sends it
	// (package page): the worker caches the visitor's, so all of them
	// make the version.
	Pages func() (map[string][]byte, error)
	// Engine is the browser engine's URL (package assets), "" for none.
	Engine string
	// PagePattern is a regular expression (in the syntax that Go and
	// JavaScript share) of the paths the server answers with the page.
	PagePattern string
}

// Offline serves the service worker and the manifest of one front end.
type Offline struct {
	cfg      Config
	once     sync.Once
	err      error
	worker   []byte
	manifest []byte
	files    []string
	version  string
}

// New is the offline support of a front end; the worker is made at its
// first request.
func New(cfg Config) *Offline {
	return &Offline{cfg: cfg}
}

// Serves reports whether path (with its leading /) is one of this
// package's.
func (o *Offline) Serves(p string) bool {
	return o != nil && (p == WorkerPath || p == ManifestPath)
}

// Version is the worker's version ("" and the error when it cannot be
// made).
func (o *Offline) Version() (string, error) {
	o.once.Do(o.build)
	return o.version, o.err
}

// Files are the URLs the worker precaches, in its order.
func (o *Offline) Files() ([]string, error) {
	o.once.Do(o.build)
	return o.files, o.err
}

// ServeHTTP sends the worker or the manifest, never to be cached by the
// browser's HTTP cache: the browser compares the worker byte for byte to
// find an update.
func (o *Offline) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o.once.Do(o.build)
	if o.err != nil {
		http.Error(w, "this server has no offline support: "+o.err.Error(), http.StatusNotFound)
		return
	}
	body, ctype := o.worker, "text/javascript; charset=utf-8"
	if r.URL.Path == ManifestPath {
		body, ctype = o.manifest, "application/manifest+json"
	}
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(body)
}

// offlineData is what the worker's OFFLINE constant holds.
type offlineData struct {
	Version string   `json:"version"`
	Files   []string `json:"files"`
	Data    []string `json:"data"`
	Pages   string   `json:"pages"`
}

func (o *Offline) build() {
	o.err = o.make()
}

func (o *Offline) make() error {
	src, err := fs.ReadFile(o.cfg.Static, WorkerFile)
	if err != nil {
		return fmt.Errorf("the service worker: %w", err)
	}
	if o.manifest, err = fs.ReadFile(o.cfg.Static, ManifestFile); err != nil {
		return fmt.Errorf("the web app manifest: %w", err)
	}
	files, sum, err := o.listFiles()
	if err != nil {
		return err
	}
	pages, err := o.cfg.Pages()
	if err != nil {
		return fmt.Errorf("the page the service worker keeps: %w", err)
	}
	langs := make([]string, 0, len(pages))
	for l := range pages {
		langs = append(langs, l)
	}
	slices.Sort(langs)
	for _, l := range langs {
		addPart(sum, "page:"+l, pages[l])
	}
	addPart(sum, "worker", src)
	addPart(sum, "engine", []byte(o.cfg.Engine))
	o.version = hex.EncodeToString(sum.Sum(nil)[:8])
	if o.cfg.Engine != "" {
		files = append(files, o.cfg.Engine)
	}
	o.files = append([]string{"/"}, files...)
	data, err := json.Marshal(offlineData{Version: o.version, Files: o.files, Data: DataURLs, Pages: o.cfg.PagePattern})
	if err != nil {
		return fmt.Errorf("the service worker's list: %w", err)
	}
	o.worker, err = fill(src, data)
	return err
}

// hasher is the part of a hash.Hash that the version uses.
type hasher interface {
	Write([]byte) (int, error)
	Sum([]byte) []byte
}

// addPart adds a named part to the version's hash, its length first, so
// that no two different lists of parts hash alike.
func addPart(h hasher, name string, b []byte) {
	fmt.Fprintf(h, "%s\x00%d\x00", name, len(b))
	h.Write(b)
}

// listFiles lists the front end's files that the worker precaches (as
// URLs, in the tree's order) and starts the version's hash with every
// file of the tree, cached or not.
func (o *Offline) listFiles() ([]string, hasher, error) {
	sum := sha256.New()
	var files []string
	err := fs.WalkDir(o.cfg.Static, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(o.cfg.Static, p)
		if err != nil {
			return err
		}
		addPart(sum, "file:"+p, b)
		if !slices.Contains(notCached, p) && path.Base(p)[0] != '.' {
			files = append(files, "/"+p)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("listing the front end's files for the service worker: %w", err)
	}
	return files, sum, nil
}

// fill puts data in the worker's source, on its line that begins with
// "const OFFLINE = ".
func fill(src, data []byte) ([]byte, error) {
	i := bytes.Index(src, marker)
	if i < 0 || bytes.Count(src, marker) != 1 {
		return nil, errors.New("web/static/sw.js must have one line beginning with " + strconv.Quote(string(marker)))
	}
	end := bytes.IndexByte(src[i:], '\n')
	if end < 0 {
		end = len(src) - i
	}
	var out bytes.Buffer
	out.Write(src[:i])
	out.Write(marker)
	out.Write(data)
	out.WriteString(";")
	out.Write(src[i+end:])
	return out.Bytes(), nil
}
