// Package server is the play server: it serves the browser front end,
// answers the HTTP API and carries live games over WebSockets, as
// docs/protocol.md describes. It is the composition of rooms by concern,
// each a package below it:
//
//	round      the games in memory: sessions, sockets, clocks, computers
//	live       a game being played, as a value changed by events
//	lobby      the games as a resource: create, join, lists, records
//	accounts   sign-up, log-in, passwords, reset links, logged-in
//	           browsers, an account's data and its deletion; identity:
//	           who a request is; mail: the mail the site sends
//	profiles   players' profiles and leaderboards; ratings: Glicko-2 use
//	analysis   the analysis board, the rules engine for pages, reviews
//	puzzles    rated puzzles; lessons: lesson progress
//	moderation reports, blocks, the moderators' mutes, bans and closures
//	tournaments arenas, Swiss and round robins: their API and director
//	bots       bot accounts' API tokens (Bearer), limits per token and
//	           the bot's event stream; the challenges are the lobby's
//	cluster    the traffic between instances sharing a database
//	computer   the engine's searches, fairly sharing the cores
//	limits     what one client may use; socket, chat, jsonapi, wire, ids
//	metrics    the series for Prometheus, which the others report to
//
// Every accepted move is committed to the store before it is acknowledged
// or broadcast. What one client may use is bounded (Limits). A game is
// held in memory only while it needs to be; games nobody takes up or plays
// are given up after Config.Expire. A panic in one game's work rolls that
// game back to what the database holds; it never ends the process.
package server

import (
	"context"
	"errors"
	"fmt"
	"github.com/magneton-games/magneton/server/archive"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/magneton-games/magneton/book"
	"github.com/magneton-games/magneton/server/accounts"
	"github.com/magneton-games/magneton/server/analysis"
	"github.com/magneton-games/magneton/server/assets"
	"github.com/magneton-games/magneton/server/bots"
	"github.com/magneton-games/magneton/server/computer"
	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/lessons"
	"github.com/magneton-games/magneton/server/limits"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/lobby"
	"github.com/magneton-games/magneton/server/mail"
	"github.com/magneton-games/magneton/server/metrics"
	"github.com/magneton-games/magneton/server/moderation"
	"github.com/magneton-games/magneton/server/offline"
	"github.com/magneton-games/magneton/server/page"
	"github.com/magneton-games/magneton/server/profiles"
	"github.com/magneton-games/magneton/server/puzzles"
	"github.com/magneton-games/magneton/server/round"
	"github.com/magneton-games/magneton/server/socket"
	"github.com/magneton-games/magneton/server/tournaments"
	"github.com/magneton-games/magneton/store"
)

// Limits are what one client may use of the server (package limits).
type Limits = limits.Limits

// DefaultLimits are the limits of a server that sets none; NoLimits lifts
// every per-client limit, for load tests whose thousands of clients all
// come from one address.
var (
	DefaultLimits = limits.DefaultLimits
	NoLimits      = limits.NoLimits
)

// Config holds what a Server needs.
type Config struct {
	Store store.Store
	// Static is the front end's file tree with index.html at its root; nil
	// serves no pages (the API still works).
	Static fs.FS
	Logger *slog.Logger // nil: slog.Default()
	// ComputerMoveTime is the computer's thinking time per move in games
	// without a clock; 0 uses 1s at level 8 and 300ms below.
	ComputerMoveTime time.Duration
	// NoServerComputer turns the server's computer off: a game against
	// the computer must then be made for the browser's engine ("computer":
	// "browser"), whose moves the server checks, times and records as
	// any; one for the server's is refused (server_computer_off), and so
	// is a browser's hand-over to it. Games it played before go on.
	// The analyses and reviews are not the computer's and stay on.
	NoServerComputer bool
	// MaxAnalyses bounds the /api/analyze searches run at once; 0 means 1.
	MaxAnalyses int
	// MaxThinkers bounds the computer players searching at once; 0 means
	// the number of CPUs.
	MaxThinkers int
	// SearchMemoryMB bounds the memory of the transposition tables of all
	// the computer players and analyses searching at once; 0 means 256.
	// Tables are made for one move and freed after it.
	SearchMemoryMB int
	// Limits bound what one client may use; zero fields take
	// DefaultLimits.
	Limits Limits
	// MaxPlies ends a game as a draw (game.PlyLimit) when it reaches this
	// many moves, so that no rule setting makes an endless game; 0 means
	// 1000.
	MaxPlies int
	// Expire is how long an invitation nobody takes, or a game against
	// the computer nobody moves in, lives before it is aborted; 0 means
	// 24 hours.
	Expire time.Duration
	// PingInterval is how often the server pings each socket; a peer that
	// does not answer within PingTimeout is dropped. 0 means 30 s and 15 s.
	PingInterval, PingTimeout time.Duration
	// TrustedProxies are the reverse proxies whose X-Forwarded-For (the
	// client's address, for the limits) and X-Forwarded-Proto (TLS, for
	// the Secure cookie) the server believes; nil trusts none.
	TrustedProxies []*net.IPNet
	// Instance names this server among the instances sharing the
	// database (its leases, heartbeats and logs); each must have its own.
	// "" means "main".
	Instance string
	// WriteTimeout bounds one database write; 0 means 5s.
	WriteTimeout time.Duration
	// MessageRate and MessageBurst are the token bucket of each socket's
	// incoming messages; 0 means 20 a second and a burst of 20.
	MessageRate  float64
	MessageBurst int
	// ClaimAfter is how long a player of a live game against a person
	// must be gone before the opponent may claim the win or a draw; 0
	// means 60 s.
	ClaimAfter time.Duration
	// FirstMoveTimeout is how long each side of a live game with a clock
	// against a person has for its first move before the game is
	// aborted (the clocks start only after both have moved); 0 means
	// 30 s. A correspondence game gives its time for a move.
	FirstMoveTimeout time.Duration
	// ReviewMoveTime is the engine's time for each position of a game
	// review; 0 means 300 ms.
	ReviewMoveTime time.Duration
	// Metrics, when set, is told what the server does, for Prometheus:
	// it times the store's calls and the HTTP requests, and hears the
	// games and the computer's searches. One server a Metrics. nil
	// measures nothing: a nil *Metrics's methods do nothing, so it is
	// handed to the rooms and the pool as it is.
	Metrics *metrics.Metrics
	// Mail sends the mails with a link that sets a new password; nil: the
	// site sends none (the page says so, and an operator makes the links
	// with magneton admin reset-link).
	Mail mail.Sender
	// SiteURL is the site's address as its players reach it
	// (https://play.example.org), which mailed links start with; needed
	// with Mail.
	SiteURL string
	// IsBot says whether an account is a bot's, for the tournaments that
	// allow bots or not; nil: none is.
	IsBot func(ctx context.Context, userID string) (bool, error)
	// TournamentPoll is how often the tournaments' director reads the
	// store, 0 means 1 s; ArenaMinute how long an arena's minute lasts,
	// 0 means a minute (for tests).
	TournamentPoll, ArenaMinute time.Duration
	// Schedule is the arenas the site makes by itself (empty: none;
	// magneton serve sets tournaments.DefaultSchedule unless told
	// otherwise), looked at every SchedulePoll (0: 30 s).
	Schedule     []tournaments.ScheduleEntry
	SchedulePoll time.Duration
	// Bots bound what each API token may use (package bots); zero fields
	// take their defaults. BotPoll is how often a bot's event stream
	// looks for news (0: 500 ms).
	Bots    bots.Limits
	BotPoll time.Duration
}

// withDefaults is the configuration with each zero field at its default.
func (cfg Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.MessageRate <= 0 {
		cfg.MessageRate = 20
	}
	if cfg.MessageBurst <= 0 {
		cfg.MessageBurst = 20
	}
	if cfg.MaxPlies <= 0 {
		cfg.MaxPlies = 1000
	}
	if cfg.Instance == "" {
		cfg.Instance = "main"
	}
	def(&cfg.WriteTimeout, 5*time.Second)
	def(&cfg.Expire, 24*time.Hour)
	def(&cfg.PingInterval, 30*time.Second)
	def(&cfg.PingTimeout, 15*time.Second)
	def(&cfg.ClaimAfter, 60*time.Second)
	def(&cfg.FirstMoveTimeout, 30*time.Second)
	def(&cfg.ReviewMoveTime, analysis.DefaultReviewMoveTime)
	cfg.Limits = cfg.Limits.WithDefaults()
	return cfg
}

// Server is the play server. Make one with New, serve its Handler, and
// Close it when done.
type Server struct {
	cfg      Config
	log      *slog.Logger
	handler  http.Handler
	clients  *limits.Clients
	rooms    *round.Rooms
	analysis *analysis.Analysis
	mod      *moderation.Moderation
	accounts *accounts.Accounts
	ctx      context.Context // cancelled by Close
	cancel   context.CancelFunc
	bgWG     sync.WaitGroup // the sweeper
	closing  atomic.Bool
	draining atomic.Bool
	index    *page.Index      // the front end's page, when there is one
	engine   *assets.Engine   // the browser's engine, when the front end has one
	book     *assets.Book     // the certificates the browser's engine may read
	offline  *offline.Offline // the service worker and the manifest, with a front end
	tourneys *tournaments.Tournaments
	bots     *bots.Bots
}

// New makes a server on a store and resumes every unfinished game stored
// in it that needs an owner: the moves are replayed, the running clock
// restarts from its stored value, and a computer to move starts thinking.
func New(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: no store")
	}
	if cfg.Mail != nil && cfg.SiteURL == "" {
		return nil, errors.New("server: mail without the site's address (SiteURL) for its links")
	}
	cfg = cfg.withDefaults()
	cfg.Store = cfg.Metrics.Store(cfg.Store) // every package's calls timed
	log := cfg.Logger.With("instance", cfg.Instance)
	// Every game that ends is archived in the transaction that writes
	// its end (package archive); one that cannot be is logged, and
	// magneton archive verify finds it.
	cfg.Store.SetArchiveIndexer(archive.Index)
	cfg.Store.SetIndexErrorHandler(func(id string, err error) {
		log.Error("a finished game could not be archived", "game", id, "err", err)
	})
	s := &Server{cfg: cfg, log: log, clients: limits.NewClients(cfg.Limits)}
	if cfg.Static != nil {
		eng, err := assets.LoadEngine(cfg.Static)
		if err != nil {
			return nil, err
		}
		s.engine = eng
		if s.book, err = assets.LoadBook(book.Certificates()); err != nil {
			return nil, err
		}
		s.index = page.New(cfg.Static, gameTitles)
		if eng != nil {
			s.index.Engine = eng.URL()
		}
		s.offline = offline.New(offline.Config{Static: cfg.Static, Pages: s.index.Pages, Engine: s.index.Engine, PagePattern: pagePattern})
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	proxies := limits.Proxies(cfg.TrustedProxies)
	ids := identity.NewResolver(cfg.Store, proxies, cfg.WriteTimeout, log)
	pool := computer.NewPool(computer.Config{Thinkers: cfg.MaxThinkers, PerClient: cfg.Limits.ThinkersPerIP, Analyses: cfg.MaxAnalyses,
		MemoryMB: cfg.SearchMemoryMB, MoveTime: cfg.ComputerMoveTime, Metrics: cfg.Metrics})
	play := live.Settings{MaxPlies: cfg.MaxPlies, FirstMoveTimeout: cfg.FirstMoveTimeout, ClaimAfter: cfg.ClaimAfter, Expire: cfg.Expire,
		NoServerComputer: cfg.NoServerComputer, ComputerMoveTime: pool.MoveTime}
	mod := moderation.New(moderation.Config{Store: cfg.Store, Identities: ids, Clients: s.clients, Proxies: proxies, WriteTimeout: cfg.WriteTimeout, Logger: log})
	s.mod = mod
	cfg.Bots = cfg.Bots.WithDefaults()
	lob := lobby.New(lobby.Config{Store: cfg.Store, Identities: ids, Clients: s.clients, Proxies: proxies, Play: play,
		Instance: cfg.Instance, WriteTimeout: cfg.WriteTimeout, Logger: log, Moderation: mod, SiteURL: cfg.SiteURL, BotGames: cfg.Bots.Games})
	rooms, err := round.New(ctx, round.Config{Store: cfg.Store, Logger: log, Instance: cfg.Instance, WriteTimeout: cfg.WriteTimeout,
		Play: play, Pool: pool, Clients: s.clients, Proxies: proxies, Identities: ids,
		Sockets:      socket.Limits{Rate: cfg.MessageRate, Burst: cfg.MessageBurst, Clients: s.clients},
		PingInterval: cfg.PingInterval, PingTimeout: cfg.PingTimeout, ListsChanged: lob.ListsChanged, Moderation: mod, Metrics: cfg.Metrics})
	if err != nil {
		s.cancel()
		return nil, fmt.Errorf("server: %w", err)
	}
	s.rooms = rooms
	lob.SetRooms(rooms)
	if s.bots, err = bots.New(bots.Config{Store: cfg.Store, Identities: ids, Limits: cfg.Bots, WriteTimeout: cfg.WriteTimeout, Logger: log, Poll: cfg.BotPoll}); err != nil {
		s.cancel()
		rooms.Close(context.Background())
		return nil, fmt.Errorf("server: %w", err)
	}
	s.analysis = analysis.New(analysis.Config{Store: cfg.Store, Pool: pool, Identities: ids, Clients: s.clients, Proxies: proxies,
		Instance: cfg.Instance, WriteTimeout: cfg.WriteTimeout, ReviewMoveTime: cfg.ReviewMoveTime, Logger: log})
	mux := http.NewServeMux()
	s.routes(mux)
	lob.Routes(mux)
	mux.HandleFunc("GET /api/games/{id}/ws", rooms.ServeWS)
	s.analysis.Routes(mux)
	s.accounts = accounts.New(accounts.Config{Store: cfg.Store, Identities: ids, Clients: s.clients, Proxies: proxies, Games: rooms,
		Mail: cfg.Mail, SiteURL: cfg.SiteURL, WriteTimeout: cfg.WriteTimeout, Logger: log, Moderation: mod})
	s.accounts.Routes(mux)
	mod.Routes(mux)
	s.readerRoutes(mux, ids, proxies, pool)
	s.tourneys = s.newTournaments(rooms, ids, proxies, mod)
	s.tourneys.Routes(mux)
	s.bots.Routes(mux)
	s.handler = cfg.Metrics.HTTP(guard(proxies, s.bots.Authenticate(mux)))
	if err := s.watch(pool); err != nil {
		s.cancel()
		s.bots.Close()
		rooms.Close(context.Background())
		return nil, fmt.Errorf("server: %w", err)
	}
	s.bgWG.Add(2)
	go s.sweeper(time.Minute)
	go s.archiveCatchUp()
	s.tourneys.Start()
	return s, nil
}

// archiveCatchUp archives, in the background, the finished games the
// archive does not hold: those that ended before the site had one (the
// first start after the upgrade) and any whose indexing failed as they
// ended. Several instances may do it at once: a game is archived once.
func (s *Server) archiveCatchUp() {
	defer s.bgWG.Done()
	start := time.Now()
	n, failed, err := archive.CatchUp(s.ctx, s.cfg.Store)
	if err != nil && s.ctx.Err() == nil {
		s.log.Error("archiving the games finished before the archive", "err", err)
	}
	for id, err := range failed {
		s.log.Error("a finished game could not be archived", "game", id, "err", err)
	}
	if n > 0 {
		s.log.Info("archived the games finished before the archive", "games", n, "took", time.Since(start).Round(time.Millisecond))
	}
}

// readerRoutes adds the profiles', puzzles' and lessons' APIs to mux.
func (s *Server) readerRoutes(mux *http.ServeMux, ids *identity.Resolver, proxies limits.Proxies, pool *computer.Pool) {
	cfg := s.cfg
	profiles.New(profiles.Config{Store: cfg.Store, Identities: ids, Clients: s.clients, Proxies: proxies, Logger: s.log, SiteURL: cfg.SiteURL}).Routes(mux)
	archive.New(archive.Config{Store: cfg.Store, Identities: ids, Clients: s.clients, Proxies: proxies, Logger: s.log}).Routes(mux)
	puzzles.New(cfg.Store, ids, s.log).WithSearches(pool, proxies.ClientIP).Routes(mux)
	lessons.New(cfg.Store, ids, s.log).Routes(mux)
}

// newTournaments makes the tournaments' API and director. Bots may enter
// the tournaments that allow them as the store's accounts say, unless the
// configuration's IsBot says otherwise.
func (s *Server) newTournaments(rooms *round.Rooms, ids *identity.Resolver, proxies limits.Proxies, mod *moderation.Moderation) *tournaments.Tournaments {
	cfg := s.cfg
	isBot := cfg.IsBot
	if isBot == nil {
		isBot = cfg.Store.IsBot
	}
	return tournaments.New(tournaments.Config{Store: cfg.Store, Rooms: rooms, Identities: ids, Clients: s.clients, Proxies: proxies,
		Moderation: mod, IsBot: isBot, Instance: cfg.Instance, WriteTimeout: cfg.WriteTimeout, Logger: s.log,
		Poll: cfg.TournamentPoll, ArenaMinute: cfg.ArenaMinute, Schedule: cfg.Schedule, SchedulePoll: cfg.SchedulePoll})
}

// watch has the metrics read what the rooms and the pool hold at each
// scrape.
func (s *Server) watch(pool *computer.Pool) error {
	return s.cfg.Metrics.Watch(metrics.Sources{
		Games:   s.rooms.Census,
		Sockets: s.rooms.SocketsOpen,
		Searches: func() (int, int, int) {
			st := pool.Stats()
			return st.Waiting, st.AnalysesWaiting, st.TableMB
		},
	})
}

// Handler returns the HTTP handler of the whole server.
func (s *Server) Handler() http.Handler { return s.handler }

// Rooms returns the games this instance holds in memory.
func (s *Server) Rooms() *round.Rooms { return s.rooms }

// Moderation returns the moderators' decisions and tools.
func (s *Server) Moderation() *moderation.Moderation { return s.mod }

// Clients returns what each client uses of the server.
func (s *Server) Clients() *limits.Clients { return s.clients }

// Drain makes /readyz answer 503 so that a load balancer sends new
// clients to other instances; the server goes on serving those it has
// until Close.
func (s *Server) Drain() { s.draining.Store(true) }

// sweeper, every period, forgets idle clients, drops from memory the games
// that no longer need it, and aborts the games nobody took up or played
// for Config.Expire.
func (s *Server) sweeper(period time.Duration) {
	defer s.bgWG.Done()
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		s.Sweep(time.Now())
	}
}

// Sweep is one round of the sweeper, as of now.
func (s *Server) Sweep(now time.Time) {
	s.clients.Sweep(now.Add(-10 * time.Minute))
	s.rooms.Sweep(now)
}

// Close shuts the server down: it refuses new actions, stops the computers
// and the reviews, saves the running clocks, closes every socket and waits
// (within ctx) for their handlers. It does not close the store. Stop the
// http.Server first so that no new request arrives.
func (s *Server) Close(ctx context.Context) error {
	if s.closing.Swap(true) {
		return nil
	}
	s.cancel()
	s.tourneys.Close()
	s.analysis.Close(ctx)
	s.accounts.Close(ctx)
	s.bots.Close()
	err := s.rooms.Close(ctx)
	s.bgWG.Wait()
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	return nil
}
