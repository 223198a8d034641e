package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server"
	"github.com/magneton-games/magneton/server/mail"
	"github.com/magneton-games/magneton/server/metrics"
	"github.com/magneton-games/magneton/server/tournaments"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/web"
)

func init() {
	commands = append(commands, serveCommand)
}

// serveOptions are the flags of magneton serve.
type serveOptions struct {
	addr         string
	data         string
	db           string
	logLevel     string
	logJSON      bool
	searchMemory int
	thinkers     int
	// serverComputer: the server plays the computer; off, only the
	// browsers' engines do.
	serverComputer bool
	limits         string
	maxPlies       int
	expire         time.Duration
	instance       string
	drain          time.Duration
	proxies        []string
	adminAddr      string
	// The mail: the SMTP server, the sender, the user to log in as (the
	// password comes from $MAGNETON_SMTP_PASSWORD), and the site's
	// address that mailed links start with.
	smtp, smtpFrom, smtpUser string
	siteURL                  string
	// schedule is the file of the site's scheduled arenas, none for none,
	// empty for tournaments.DefaultSchedule.
	schedule string
}

// smtpPasswordVar is the environment variable of the SMTP password: a
// flag would show it to every user of the machine (ps).
const smtpPasswordVar = "MAGNETON_SMTP_PASSWORD"

// checkSiteURL says what is wrong with a --site-url for the command cmd.
func checkSiteURL(cmd, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || strings.Trim(u.Path, "/") != "" {
		return usagef("%s: --site-url %q: want the site's address, such as https://play.example.org", cmd, raw)
	}
	return nil
}

// mailer is the mail sender of the --smtp flags, nil without --smtp.
func (o serveOptions) mailer() (mail.Sender, error) {
	if o.smtp == "" {
		return nil, nil
	}
	switch {
	case o.smtpFrom == "":
		return nil, usagef("serve: --smtp needs --smtp-from, the sender's address")
	case o.siteURL == "":
		return nil, usagef("serve: --smtp needs --site-url, the site's address that the mailed links start with")
	}
	m, err := mail.New(mail.Config{Addr: o.smtp, From: o.smtpFrom, User: o.smtpUser, Password: os.Getenv(smtpPasswordVar)})
	if err != nil {
		return nil, usageError{fmt.Errorf("serve: %w", err)}
	}
	return m, nil
}

// defaultInstance names an instance on a shared database by its host and
// port, unique among the instances as long as each machine's name is. An
// SQLite database has one server, named "main" whatever its address, so
// that a restart finds its own games.
func defaultInstance(addr net.Addr) string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	_, port, _ := net.SplitHostPort(addr.String())
	return host + ":" + port
}

// redactURL hides a database URL's password, for the log.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

func serveCommand(_ *globalOptions) *cobra.Command {
	o := serveOptions{}
	c := &cobra.Command{
		Use:   "serve",
		Short: "Run the play server: games against the computer or a friend in the browser",
		Long: `Run the play server on --addr: the browser front end, the HTTP API and the
WebSockets of live games (docs/protocol.md). Games are kept in an SQLite
database in --data (created if missing), or in the database named by --db:
sqlite:PATH, or postgres://USER:PASSWORD@HOST/DB for PostgreSQL, which
several instances may share behind a load balancer (docs/deploy.md). With
--smtp, --smtp-from and --site-url it mails the links that set a new
password (the SMTP password in $MAGNETON_SMTP_PASSWORD). Every
move is saved before anyone sees it; on start the server resumes the
unfinished games that need it (a clock running, the computer to move),
charging a running clock up to the moment it stopped. SIGINT or SIGTERM
stops it gracefully. With --server-computer=false the server does not
play the computer: the games against it are played by the browsers that
run its engine, whose moves it checks, times and records as any.

With --admin ADDR a second listener, for the operators only, serves the
metrics for Prometheus on /metrics and Go's profiler on /debug/pprof/;
the public address serves neither. It prints its address on a second
line after the first.

The site makes arenas of its own on a schedule (docs/tournaments.md): by
default a rated 60-minute 3+2 arena of each game every day, at 18:00 and
19:00 UTC; --schedule FILE reads another, --schedule none has none.`,
		Example: `  magneton serve                                   # SQLite in ./data, on http://127.0.0.1:8080
  magneton serve --addr 0.0.0.0:8080 --data /var/lib/magneton
  magneton serve --db 'postgres://magneton:PASSWORD@db.internal/magneton' --instance web1
  magneton serve --admin 127.0.0.1:9090 --log-json   # metrics and pprof on 9090, logs as JSON lines
  magneton serve --schedule arenas.json              # the site's own arenas from a file (--schedule none: none)
  MAGNETON_SMTP_PASSWORD=... magneton serve --smtp mail.example.org:587 --smtp-user magneton \
      --smtp-from 'Magneton <noreply@example.org>' --site-url https://play.example.org`,
		Args: exactArgs(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			return serve(c.Context(), o, c.OutOrStdout(), c.ErrOrStderr())
		},
	}
	f := c.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:8080", "the address to listen on (host:port)")
	f.StringVar(&o.data, "data", "./data", "the folder of the SQLite database")
	f.StringVar(&o.db, "db", "", "the database URL, sqlite:PATH or postgres://... (default: sqlite:DATA/magneton.db)")
	f.StringVar(&o.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	f.BoolVar(&o.logJSON, "log-json", false, "write logs as JSON lines instead of text")
	f.IntVar(&o.searchMemory, "search-memory", 256, "MB of memory for all the computer players' searches at once, 16 to 65536")
	f.IntVar(&o.thinkers, "thinkers", 0, "computer players searching at once, 1 to 1024 (default: the number of CPUs)")
	f.BoolVar(&o.serverComputer, "server-computer", true, "the server plays the computer in the games against it; false leaves them to the browsers that run its engine (games for the server's computer are refused)")
	f.StringVar(&o.limits, "client-limits", "on", "the limits per client address (docs/protocol.md): on, or off for load tests from one address")
	f.IntVar(&o.maxPlies, "max-plies", 1000, "moves after which a game is drawn, 100 to 100000")
	f.DurationVar(&o.expire, "expire", 24*time.Hour, "how long an invitation nobody takes, or a computer game nobody plays, lives: 1m to 8760h")
	f.StringVar(&o.instance, "instance", "", "this instance's name among those sharing the database (default: host:port on PostgreSQL, main on SQLite)")
	f.StringArrayVar(&o.proxies, "trusted-proxy", nil, "a reverse proxy's address or CIDR (repeatable) whose X-Forwarded-For and X-Forwarded-Proto are believed")
	f.DurationVar(&o.drain, "drain", 0, "on SIGTERM, answer /readyz 503 this long (serving on) before stopping, for a load balancer: 0 to 5m")
	f.StringVar(&o.adminAddr, "admin", "", "an address (host:port, kept private) serving /metrics for Prometheus and /debug/pprof/; off when empty")
	f.StringVar(&o.smtp, "smtp", "", "the SMTP server (host:port) of the mail with links that set a new password (default: no mail)")
	f.StringVar(&o.smtpFrom, "smtp-from", "", "the sender of that mail, such as 'Magneton <noreply@example.org>'")
	f.StringVar(&o.smtpUser, "smtp-user", "", "the user to log in to the SMTP server as, with the password in $"+smtpPasswordVar)
	f.StringVar(&o.siteURL, "site-url", "", "the site's address as its players reach it (https://play.example.org), which mailed links start with")
	f.StringVar(&o.schedule, "schedule", "", "a JSON file of the arenas the site makes by itself (docs/tournaments.md), or none (default: a daily rated arena of each game)")
	return c
}

// scheduled reads --schedule: the default schedule, none, or a file's.
func (o serveOptions) scheduled() ([]tournaments.ScheduleEntry, error) {
	switch o.schedule {
	case "":
		return tournaments.DefaultSchedule(), nil
	case "none":
		return nil, nil
	}
	data, err := os.ReadFile(o.schedule)
	if err != nil {
		return nil, usagef("serve: --schedule: %v", err)
	}
	s, err := tournaments.ParseSchedule(data)
	if err != nil {
		return nil, usagef("serve: --schedule %s: %v", o.schedule, err)
	}
	return s, nil
}

// config checks the flags and makes the server's configuration.
func (o serveOptions) config() (server.Config, error) {
	cfg := server.Config{SearchMemoryMB: o.searchMemory, MaxThinkers: o.thinkers, MaxPlies: o.maxPlies, Expire: o.expire, NoServerComputer: !o.serverComputer}
	switch {
	case o.searchMemory < 16 || o.searchMemory > 65536:
		return cfg, usagef("serve: --search-memory %d: want 16 to 65536 (MB)", o.searchMemory)
	case o.thinkers != 0 && (o.thinkers < 1 || o.thinkers > 1024):
		return cfg, usagef("serve: --thinkers %d: want 1 to 1024", o.thinkers)
	case o.maxPlies < 100 || o.maxPlies > 100000:
		return cfg, usagef("serve: --max-plies %d: want 100 to 100000", o.maxPlies)
	case o.expire < time.Minute || o.expire > 8760*time.Hour:
		return cfg, usagef("serve: --expire %v: want 1m to 8760h", o.expire)
	case o.drain < 0 || o.drain > 5*time.Minute:
		return cfg, usagef("serve: --drain %v: want 0 to 5m", o.drain)
	}
	for _, p := range o.proxies {
		if !strings.Contains(p, "/") {
			if strings.Contains(p, ":") {
				p += "/128"
			} else {
				p += "/32"
			}
		}
		_, n, err := net.ParseCIDR(p)
		if err != nil {
			return cfg, usagef("serve: --trusted-proxy %q: want an address or a CIDR such as 10.0.0.0/8", p)
		}
		cfg.TrustedProxies = append(cfg.TrustedProxies, n)
	}
	switch o.limits {
	case "on":
	case "off":
		cfg.Limits = server.NoLimits
	default:
		return cfg, usagef("serve: --client-limits %q: want on or off", o.limits)
	}
	if o.siteURL != "" {
		if err := checkSiteURL("serve", o.siteURL); err != nil {
			return cfg, err
		}
	}
	schedule, err := o.scheduled()
	if err != nil {
		return cfg, err
	}
	cfg.Schedule = schedule
	m, err := o.mailer()
	if err != nil {
		return cfg, err
	}
	cfg.Mail, cfg.SiteURL = m, strings.TrimSuffix(o.siteURL, "/")
	return cfg, nil
}

// The shutdown's budgets: for HTTP requests to finish, then for the games
// to save their clocks and close their sockets.
const (
	httpDrain = 3 * time.Second
	gameDrain = 5 * time.Second
)

// serve runs the server until ctx ends or a signal arrives.
func serve(ctx context.Context, o serveOptions, stdout, stderr io.Writer) error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return usagef("serve: --log-level %q: want debug, info, warn or error", o.logLevel)
	}
	cfg, err := o.config()
	if err != nil {
		return err
	}
	handler := o.logHandler(stderr, level)
	log := slog.New(handler)

	dbURL, err := o.dbURL()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer ln.Close()
	cfg.Instance = o.instanceName(dbURL, ln.Addr())
	adm, err := o.admin(&cfg, handler)
	if err != nil {
		return err
	}
	defer adm.close() // after the shutdown: the metrics are there while the site drains
	// Answer at once, while the database is opened and migrated: a
	// prober hears 503 "starting" rather than nothing.
	var front frontDoor
	hs := httpServer(&front, handler)
	failed := make(chan error, 1)
	go func() { failed <- hs.Serve(ln) }()
	log.Info("listening", "addr", ln.Addr().String())
	// The book of proven positions is read meanwhile, so that the first
	// level 8 game or analysis does not wait for it.
	go games.ProvenBook()
	st, err := store.Open(ctx, dbURL)
	if err != nil {
		hs.Close()
		return fmt.Errorf("serve: %w", err)
	}
	defer st.Close()
	cfg.Store, cfg.Static, cfg.Logger = st, web.Files, log
	srv, err := server.New(ctx, cfg)
	if err != nil {
		hs.Close()
		return fmt.Errorf("serve: %w", err)
	}
	front.open(srv.Handler())
	fmt.Fprintf(stdout, "magneton: serving on http://%s\n", ln.Addr())
	if adm != nil {
		// After the first line, which tests and scripts read alone.
		fmt.Fprintf(stdout, "magneton: admin on http://%s\n", adm.addr())
	}
	log.Info("serving", "addr", ln.Addr().String(), "db", redactURL(dbURL), "instance", cfg.Instance)

	sigs, stop := signal.NotifyContext(ctx, syscall.SIGTERM, os.Interrupt)
	defer stop()
	serveErr := o.serveUntil(sigs, log, srv, failed)
	return shutdown(log, srv, hs, st, serveErr)
}

// admin starts the admin address of --admin, with the metrics it serves
// set in cfg.Metrics (cfg.Instance named); nil without --admin. It is up
// before the database opens, so that a start that hangs can be profiled.
func (o serveOptions) admin(cfg *server.Config, logs slog.Handler) (*adminServer, error) {
	if o.adminAddr == "" {
		return nil, nil
	}
	cfg.Metrics = metrics.New(cfg.Instance, slog.New(logs))
	a, err := startAdmin(o.adminAddr, cfg.Metrics, logs)
	if err != nil {
		return nil, err
	}
	slog.New(logs).Info("admin listening", "addr", a.addr().String())
	return a, nil
}

// frontDoor is the HTTP handler while the server starts: 503 "starting"
// to everything, then the server's handler once it is open.
type frontDoor struct {
	h atomic.Pointer[http.Handler]
}

// open lets the requests through to h from now on.
func (f *frontDoor) open(h http.Handler) { f.h.Store(&h) }

func (f *frontDoor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h := f.h.Load(); h != nil {
		(*h).ServeHTTP(w, r)
		return
	}
	w.Header().Set("Retry-After", "1")
	http.Error(w, "starting: the database is being opened", http.StatusServiceUnavailable)
}

// logHandler is the log's handler on stderr at level: text, or JSON
// lines with --log-json.
func (o serveOptions) logHandler(stderr io.Writer, level slog.Level) slog.Handler {
	hopts := &slog.HandlerOptions{Level: level}
	if o.logJSON {
		return slog.NewJSONHandler(stderr, hopts)
	}
	return slog.NewTextHandler(stderr, hopts)
}

// dbURL is the database's URL: --db, or an SQLite database in --data,
// which it makes if missing.
func (o serveOptions) dbURL() (string, error) {
	if o.db != "" {
		return o.db, nil
	}
	if err := os.MkdirAll(o.data, 0o755); err != nil {
		return "", fmt.Errorf("serve: --data: %w", err)
	}
	return "sqlite:" + filepath.Join(o.data, "magneton.db"), nil
}

// instanceName is this instance's name among those sharing the database
// at dbURL: --instance, or "main" on SQLite (the only one), or the one
// defaultInstance makes of the address it listens on.
func (o serveOptions) instanceName(dbURL string, addr net.Addr) string {
	switch {
	case o.instance != "":
		return o.instance
	case strings.HasPrefix(dbURL, "sqlite:"):
		return "main" // the only one
	}
	return defaultInstance(addr)
}

// httpServer is the HTTP server of handler, logging its errors as warnings
// to logs. A request must arrive whole within ReadTimeout (a slow body
// cannot hold a connection open) and be answered within WriteTimeout (an
// analysis takes 5 s at most); a WebSocket clears both and is watched by
// its pings instead.
func httpServer(handler http.Handler, logs slog.Handler) *http.Server {
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       20 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(logs, slog.LevelWarn),
	}
}

// serveUntil serves until sigs ends (a signal, or the end of the
// command's context), and then for --drain with /readyz answering 503,
// or until serving fails (failed), with the error it returns.
func (o serveOptions) serveUntil(sigs context.Context, log *slog.Logger, srv *server.Server, failed <-chan error) error {
	select {
	case <-sigs.Done():
		log.Info("shutting down", "drain", o.drain)
		if o.drain > 0 {
			// /readyz says so, and the load balancer sends new clients
			// elsewhere, while this instance serves those it has.
			srv.Drain()
			time.Sleep(o.drain)
		}
		return nil
	case err := <-failed:
		return err
	}
}

// shutdown stops accepting and lets HTTP requests finish, within their
// own budget (a slow request is then cut off); then closes the games
// (their sockets, the computers, the running clocks) within theirs; then
// the database. It returns the database's error, if closing it failed,
// or else that of serving (serveErr) unless it only says that the server
// was closed.
func shutdown(log *slog.Logger, srv *server.Server, hs *http.Server, st store.Store, serveErr error) error {
	httpShut, cancel := context.WithTimeout(context.Background(), httpDrain)
	defer cancel()
	if err := hs.Shutdown(httpShut); err != nil {
		log.Warn("http shutdown: requests cut off", "err", err)
		hs.Close()
	}
	gameShut, cancel2 := context.WithTimeout(context.Background(), gameDrain)
	defer cancel2()
	if err := srv.Close(gameShut); err != nil {
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
