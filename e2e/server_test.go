package e2e

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
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
	st, err := store.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(context.Background(), server.Config{
		Store:            st,
		Static:           web.Files,
		Logger:           slog.New(slog.DiscardHandler),
		ComputerMoveTime: 50 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		hs.Shutdown(ctx)
		if err := srv.Close(ctx); err != nil {
			t.Errorf("close the server: %v", err)
		}
		st.Close()
	})
	return "http://" + ln.Addr().String()
}
