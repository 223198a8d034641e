package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/server"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/web"
)

func init() {
	commands = append(commands, serveCommand)
}

// serveOptions are the flags of magneton serve.
type serveOptions struct {
	addr     string
	data     string
	db       string
	logLevel string
	logJSON  bool
}

func serveCommand(_ *globalOptions) *cobra.Command {
	o := serveOptions{}
	c := &cobra.Command{
		Use:   "serve",
		Short: "Run the play server: games against the computer or a friend in the browser",
		Long: `Run the play server on --addr: the browser front end, the HTTP API and the
WebSockets of live games (docs/protocol.md). Games are kept in an SQLite
database in --data (created if missing), or in the database named by --db
(sqlite:PATH; PostgreSQL is planned). Every move is saved before anyone sees
it; on start the server resumes every unfinished game, restarting the running
clock from its saved value (time while the server was down is not charged).
SIGINT or SIGTERM stops it gracefully.`,
		Args: exactArgs(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			return serve(c.Context(), o, c.OutOrStdout(), c.ErrOrStderr())
		},
	}
	f := c.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:8080", "the address to listen on (host:port)")
	f.StringVar(&o.data, "data", "./data", "the folder of the SQLite database")
	f.StringVar(&o.db, "db", "", "the database URL, sqlite:PATH (default: sqlite:DATA/magneton.db)")
	f.StringVar(&o.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	f.BoolVar(&o.logJSON, "log-json", false, "write logs as JSON lines instead of text")
	return c
}

// serve runs the server until ctx ends or a signal arrives.
func serve(ctx context.Context, o serveOptions, stdout, stderr io.Writer) error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return usagef("serve: --log-level %q: want debug, info, warn or error", o.logLevel)
	}
	hopts := &slog.HandlerOptions{Level: level}
	var handler slog.Handler = slog.NewTextHandler(stderr, hopts)
	if o.logJSON {
		handler = slog.NewJSONHandler(stderr, hopts)
	}
	log := slog.New(handler)

	dbURL := o.db
	if dbURL == "" {
		if err := os.MkdirAll(o.data, 0o755); err != nil {
			return fmt.Errorf("serve: --data: %w", err)
		}
		dbURL = "sqlite:" + filepath.Join(o.data, "magneton.db")
	}
	st, err := store.Open(ctx, dbURL)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer st.Close()
	srv, err := server.New(ctx, server.Config{Store: st, Static: web.Files, Logger: log})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		srv.Close(context.Background())
		return fmt.Errorf("serve: %w", err)
	}
	hs := &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(handler, slog.LevelWarn),
	}
	fmt.Fprintf(stdout, "magneton: serving on http://%s\n", ln.Addr())
	log.Info("serving", "addr", ln.Addr().String(), "db", dbURL)

	sigs, stop := signal.NotifyContext(ctx, syscall.SIGTERM, os.Interrupt)
	defer stop()
	failed := make(chan error, 1)
	go func() { failed <- hs.Serve(ln) }()
	var serveErr error
	select {
	case <-sigs.Done():
		log.Info("shutting down")
	case serveErr = <-failed:
	}

	// Stop accepting, let HTTP requests finish, then close the games (their
	// sockets, the computers, the running clocks), then the database.
	shut, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(shut); err != nil {
		log.Warn("http shutdown", "err", err)
	}
	if err := srv.Close(shut); err != nil {
		log.Warn("game shutdown", "err", err)
	}
	if err := st.Close(); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	log.Info("stopped")
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", serveErr)
	}
	return nil
}
