package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/magneton-games/magneton/internal/enginebuild"
	"github.com/magneton-games/magneton/server"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/web"
)

// variantPrefix is where the site serves the engine builds given by
// -variant, each at variantPrefix + name + ".wasm".
const variantPrefix = "/wasmbench/"

// site is the real play server in this process, on a temporary SQLite
// database and the embedded front end (web.Files), as e2e's tests start
// it. It listens on as many loopback ports as asked (listen): each port
// is an origin of its own to the browser, with nothing of it in the
// browser's cache, so that a cold load needs no cache to be cleared. It
// also serves the builds to compare (-variant), and counts the bytes of
// the engine it sends.
type site struct {
	dir      string
	st       store.Store
	srv      *server.Server
	handler  http.Handler
	variants map[string][]byte // name -> gzipped build

	mu      sync.Mutex
	servers []*http.Server

	engineBytes    atomic.Int64 // the engine's bytes sent (any build)
	engineRequests atomic.Int64
}

// startSite starts the play server, serving the gzipped builds of
// variants beside the site's own engine.
func startSite(ctx context.Context, variants map[string][]byte) (*site, error) {
	dir, err := os.MkdirTemp("", "wasmbench")
	if err != nil {
		return nil, err
	}
	st, err := store.Open(ctx, "sqlite:"+filepath.Join(dir, "games.db"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	srv, err := server.New(ctx, server.Config{
		Store:  st,
		Static: web.Files,
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		st.Close()
		os.RemoveAll(dir)
		return nil, err
	}
	s := &site{dir: dir, st: st, srv: srv, variants: variants}
	s.handler = s.count(s.serveVariants(srv.Handler()))
	return s, nil
}

// listen serves the site on another free loopback port and returns its
// base URL: a new origin.
func (s *site) listen() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	hs := &http.Server{Handler: s.handler, ReadHeaderTimeout: 10 * time.Second}
	s.mu.Lock()
	s.servers = append(s.servers, hs)
	s.mu.Unlock()
	go hs.Serve(ln)
	return "http://" + ln.Addr().String(), nil
}

// close stops the server and removes its database.
func (s *site) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s.mu.Lock()
	for _, hs := range s.servers {
		hs.Shutdown(ctx)
	}
	s.mu.Unlock()
	s.srv.Close(ctx)
	s.st.Close()
	os.RemoveAll(s.dir)
}

// serveVariants answers variantPrefix + name + ".wasm" with that build,
// gzipped, as the server sends its own engine (package assets).
func (s *site) serveVariants(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := strings.CutPrefix(r.URL.Path, variantPrefix)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		gz, ok := s.variants[strings.TrimSuffix(name, ".wasm")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "application/wasm")
		h.Set("Content-Encoding", "gzip")
		h.Set("Cache-Control", "no-store")
		h.Set("Content-Length", strconv.Itoa(len(gz)))
		w.Write(gz)
	})
}

// count counts the requests and bytes of every engine build sent.
func (s *site) count(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, ".wasm") {
			next.ServeHTTP(w, r)
			return
		}
		s.engineRequests.Add(1)
		next.ServeHTTP(&countingWriter{ResponseWriter: w, n: &s.engineBytes}, r)
	})
}

// fetched is the engine's requests and bytes sent so far.
func (s *site) fetched() (requests, bytes int64) {
	return s.engineRequests.Load(), s.engineBytes.Load()
}

// countingWriter adds the body's bytes to n.
type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	k, err := c.ResponseWriter.Write(b)
	c.n.Add(int64(k))
	return k, err
}

// readVariant reads a build of the engine given by -variant, gzipped or
// not, and returns it gzipped.
func readVariant(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b {
		return b, nil
	}
	if len(b) < 4 || string(b[:4]) != "\x00asm" {
		return nil, fmt.Errorf("%s: neither WebAssembly nor gzip", path)
	}
	return enginebuild.Gzip(b)
}
