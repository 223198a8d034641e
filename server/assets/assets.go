// Package assets serves the browser's engine (web/static/engine, package
// internal/enginebuild) under a content-hashed name: /engine/<hash>.wasm,
// the first 16 hex digits of its gzipped file's SHA-256, cached by
// browsers for a year as immutable (a new build is a new name, which the
// page learns from <meta name="engine">, package page). It is stored
// gzipped and sent so to every browser that accepts gzip (all do), and
// unpacked for a client that does not.
package assets

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// EngineFile is the engine in the front end's file tree.
const EngineFile = "engine/engine.wasm.gz"

// Engine is the engine's file as the server sends it.
type Engine struct {
	gz   []byte
	name string // <hash>.wasm
	once sync.Once
	wasm []byte // unpacked, at the first client that wants it so
	err  error
}

// LoadEngine reads the engine from the front end's files; nil and no
// error for a front end without one (the pages then use the server's
// engine).
func LoadEngine(static fs.FS) (*Engine, error) {
	gz, err := fs.ReadFile(static, EngineFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the browser's engine: %w", err)
	}
	sum := sha256.Sum256(gz)
	return &Engine{gz: gz, name: hex.EncodeToString(sum[:8]) + ".wasm"}, nil
}

// URL is the engine's path on the server.
func (e *Engine) URL() string { return "/engine/" + e.name }

// Size is the engine's gzipped size in bytes.
func (e *Engine) Size() int { return len(e.gz) }

// Serves reports whether path (with its leading /) is the engine's.
func (e *Engine) Serves(path string) bool { return e != nil && path == e.URL() }

// ServeHTTP sends the engine.
func (e *Engine) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/wasm")
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("Vary", "Accept-Encoding")
	h.Set("ETag", `"`+strings.TrimSuffix(e.name, ".wasm")+`"`)
	if r.Header.Get("If-None-Match") == h.Get("ETag") {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := e.gz
	if acceptsGzip(r.Header.Get("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
	} else {
		e.once.Do(e.unpack)
		if e.err != nil {
			http.Error(w, "the engine's file is damaged", http.StatusInternalServerError)
			return
		}
		body = e.wasm
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(body)
}

func (e *Engine) unpack() {
	zr, err := gzip.NewReader(bytes.NewReader(e.gz))
	if err != nil {
		e.err = err
		return
	}
	e.wasm, e.err = io.ReadAll(zr)
}

// acceptsGzip reads an Accept-Encoding header: gzip (or *) listed with a
// weight above zero.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name != "gzip" && name != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		if q == "q=0" || q == "q=0.0" || q == "q=0.00" || q == "q=0.000" {
			continue
		}
		return true
	}
	return false
}
