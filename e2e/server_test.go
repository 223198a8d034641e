package e2e

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/magneton-games/magneton/server"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/web"
)

// startServer starts the real play server in the test, with the embedded
// front end and an SQLite database in a temporary folder, on 127.0.0.1 and
// a free port, and returns its base URL. MAGNETON_E2E_URL points the tests
// at a server that runs already instead.
func startServer(t *testing.T) string {
	t.Helper()
	if u := os.Getenv("MAGNETON_E2E_URL"); u != "" {
		return strings.TrimSuffix(u, "/")
	}
	return serve(t, filepath.Join(t.TempDir(), "games.db"), "127.0.0.1:0", nil).url
}

// testServer is a play server started by serve.
type testServer struct {
	t    *testing.T
	url  string
	addr string
	srv  *server.Server
	stop func()
}

// serve starts the play server on the database file db, listening on addr
// ("127.0.0.1:0" for a free port); config, if given, changes its
// configuration first (a test's shorter time limits, its mail; SiteURL is
// the server's address already). The server stops at the end of the
// test, or before with stop; a second server on the same file and address
// is the first one restarted.
func serve(t *testing.T, db, addr string, config func(*server.Config)) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), "sqlite:"+db)
	if err != nil {
		ln.Close()
		t.Fatal(err)
	}
	cfg := server.Config{
		Store:            st,
		Static:           web.Files,
		Logger:           slog.New(slog.DiscardHandler),
		ComputerMoveTime: 50 * time.Millisecond,
		SiteURL:          "http://" + ln.Addr().String(),
	}
	if config != nil {
		config(&cfg)
	}
	srv, err := server.New(context.Background(), cfg)
	if err != nil {
		ln.Close()
		st.Close()
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	var once sync.Once
	stop := func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			hs.Shutdown(ctx)
			if err := srv.Close(ctx); err != nil {
				t.Errorf("close the server: %v", err)
			}
			st.Close()
		})
	}
	t.Cleanup(stop)
	return &testServer{t: t, url: "http://" + ln.Addr().String(), addr: ln.Addr().String(), srv: srv, stop: stop}
}
