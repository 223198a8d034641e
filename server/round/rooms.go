// Package round holds the games this server instance has in memory, each
// a Session: the game's value (package live), the clients connected to it
// here, its timer, its computer's search and its chat. A Session applies
// the events of its game (its players' messages, its timer, its computer's
// moves) to the value, saves what they change before anyone hears of it,
// then tells its clients and the other instances (package cluster), arms
// its timer and starts its computer, as the event's effects say. One
// instance owns each game in play (its lease); the others hold mirrors
// that follow the owner's announcements and forward their clients'
// actions to it.
//
// A game is held in memory only while it needs to be: someone watches
// it, its clock runs, or the computer is to move; the database holds the
// rest. A panic in one game's work rolls that game back to what the
// database holds; it never ends the process.
//
// The rooms tell monitoring what happens (Config.Metrics: moves, their
// latency, takeovers, leases) and what they hold (Census, SocketsOpen),
// without knowing how it is shown.
package round

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/magneton-games/magneton/server/chat"
	"github.com/magneton-games/magneton/server/cluster"
	"github.com/magneton-games/magneton/server/computer"
	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/limits"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/ratings"
	"github.com/magneton-games/magneton/server/socket"
	"github.com/magneton-games/magneton/store"
)

// Store is the part of the store the games in play use.
type Store interface {
	cluster.Notifier
	ratings.Store
	store.Leases
	CreateGame(ctx context.Context, g *store.Game) error
	CreateRematch(ctx context.Context, old, next *store.Game) error
	Game(ctx context.Context, id string) (*store.Game, error)
	Moves(ctx context.Context, id string) ([]store.Move, error)
	UpdateGame(ctx context.Context, g *store.Game) error
	AddMove(ctx context.Context, g *store.Game, m store.Move) error
	TakeBack(ctx context.Context, g *store.Game, fromPly int) error
	Unfinished(ctx context.Context) ([]*store.Game, error)
	AddChat(ctx context.Context, l store.ChatLine) error
	Chat(ctx context.Context, gameID string, fromSeq int) ([]store.ChatLine, error)
}

// Config is what Rooms needs.
type Config struct {
	Store    Store
	Logger   *slog.Logger
	Instance string
	// WriteTimeout bounds one database write.
	WriteTimeout time.Duration
	// Play is what every game's play follows.
	Play live.Settings
	// Pool runs the computers' searches.
	Pool *computer.Pool
	// Clients, Proxies and Sockets bound the clients' sockets and tell
	// their addresses; Identities who they are.
	Clients    *limits.Clients
	Proxies    limits.Proxies
	Sockets    socket.Limits
	Identities *identity.Resolver
	// PingInterval and PingTimeout: each socket is pinged every
	// PingInterval and dropped when it does not answer within PingTimeout.
	PingInterval, PingTimeout time.Duration
	// ListsChanged is called when a game may have joined or left the
	// lobby's lists (nil: nothing to tell).
	ListsChanged func()
	// Moderation says who may chat and play (nil: everyone).
	Moderation Moderation
	// Metrics hears what the games do, for monitoring; nil reports
	// nothing.
	Metrics Metrics
}

// Moderation is what the games ask of the moderators' decisions (package
// moderation): whether an account ("" for a guest) may chat now, may play,
// and whether two accounts block each other; and what they tell them: a
// rated game that began, to flag when its accounts share an address or a
// browser.
type Moderation interface {
	CheckChat(ctx context.Context, userID string, now time.Time) error
	CheckPlay(ctx context.Context, userID string) error
	CheckPair(ctx context.Context, a, b string) error
	FlagShared(ctx context.Context, row *store.Game)
}

// Metrics hears what the rooms measure as it happens, for monitoring
// (package server/metrics shows it to Prometheus). It is called from the
// games' work, with a game's lock held: it must be cheap (no allocation,
// no waiting) and safe for concurrent use.
type Metrics interface {
	// Moved is a move saved and sent to the clients, a player's or the
	// computer's, in a game by name (game.Spec.Name).
	Moved(game string)
	// MoveLatency is the time from a player's move message's arrival at
	// the game's owner to the move's save and broadcast.
	MoveLatency(d time.Duration)
	// TakenOver is a game this instance took over from another.
	TakenOver()
	// LeasesHeld is how many games' leases this instance holds, as the
	// database said at a round of leases.
	LeasesHeld(n int)
}

// noMetrics reports nothing.
type noMetrics struct{}

func (noMetrics) Moved(string)              {}
func (noMetrics) MoveLatency(time.Duration) {}
func (noMetrics) TakenOver()                {}
func (noMetrics) LeasesHeld(int)            {}

// Rooms is the games this instance holds in memory.
type Rooms struct {
	cfg     Config
	st      Store
	log     *slog.Logger
	node    *cluster.Node
	pool    *computer.Pool
	metrics Metrics
	ctx     context.Context // cancelled by Close: stops the computers
	cancel  context.CancelFunc
	// sockets counts the clients' sockets open here, for monitoring.
	sockets atomic.Int64

	mu       sync.Mutex
	sessions map[string]*Session // games in play, and finished ones being watched

	aiWG    sync.WaitGroup
	connWG  sync.WaitGroup
	bgWG    sync.WaitGroup // the heartbeat, the leases, the listener
	closing atomic.Bool
	// started is when this run began, and prevBeat the last heartbeat of
	// this instance's previous run: what a clock it ran then is charged
	// up to.
	started  time.Time
	prevBeat int64
}

// maxPanics is how many panics of one game are rolled back with its clock
// and computer restarted.
const maxPanics = 3

// idleEvict is how long a game that needs no timer stays in memory after
// its last use.
const idleEvict = time.Minute

// IdleEvict is idleEvict, for tests of the eviction.
const IdleEvict = idleEvict

// FaultHook, when a test sets it, is called at points of a game's work
// ("move" before a move is saved, "computer" before the computer's move
// is played, "flag" before a fallen flag is saved) to inject faults there.
var FaultHook func(point string)

func hook(point string) {
	if FaultHook != nil {
		FaultHook(point)
	}
}

// Session is one game held in memory by this instance (not a login: see
// package accounts). Every change happens under mu, and is written to the
// database before anyone hears of it.
type Session struct {
	rooms *Rooms
	id    string

	mu      sync.Mutex
	g       live.Game // as committed
	clients map[*socket.Client]struct{}
	conns   [2]int // connected clients of this instance per seat
	flag    *time.Timer
	// The computer's search: aiGen numbers them, so that a stopped one's
	// goroutine finds it changed.
	aiCancel context.CancelFunc
	thinking bool
	aiGen    int
	closed   bool // the server is shutting down
	evicted  bool // no longer in the rooms' map
	// client is the client the computer's searches are scheduled for: the
	// IP that made the game, or the game itself when that is not known (a
	// game resumed after a restart).
	client string
	// touched is when the session was last used; an idle one leaves
	// memory at the sweeper's next round after idleEvict.
	touched time.Time
	// panics counts the panics rolled back; after maxPanics the clock and
	// the computer are no longer restarted by the rollback, so that a
	// fault that comes back every time does not loop.
	panics int
	// mirror: another instance owns the game; this session shows it to
	// its clients and forwards their actions. mirrored is its copy that
	// Census reads without the lock (set with setMirror).
	mirror   bool
	mirrored atomic.Bool
	// remote holds, for the owner, the mirrors' reports of their clients;
	// ownerConnected and ownerWatchers, for a mirror, the presence as the
	// owner last announced it.
	remote         map[string]presence
	ownerConnected [2]bool
	ownerWatchers  int
	// listed is the status the game had when the lists were last told of
	// it (noteStatus).
	listed string
	// knownOwner is, for a mirror, the instance that announced the game's
	// last change ("" for not known): where to forward without asking the
	// database each move. A forward that fails forgets it.
	knownOwner string
	chat       chat.Log
}

// presence is a mirror's last report of its clients of a game.
type presence struct {
	conns    [2]int
	watchers int // spectators
	at       time.Time
	// sent is when the mirror took the report (ns since the epoch): the
	// reports of one mirror travel by two ways (a request when its clients
	// change, the periodic report) and may arrive out of order.
	sent int64
}

// setMirror makes the session a mirror or the owner (with s.mu held).
func (s *Session) setMirror(yes bool) {
	s.mirror = yes
	s.mirrored.Store(yes)
}

// newSession is the session of a game's value, not yet in the map.
func (rs *Rooms) newSession(g live.Game, now time.Time) *Session {
	return &Session{
		rooms: rs, id: g.ID(), g: g, clients: map[*socket.Client]struct{}{},
		client: "game:" + g.ID(), touched: now, remote: map[string]presence{},
	}
}

// load is a stored game's session, not yet in the map.
func (rs *Rooms) load(row *store.Game, moves []store.Move) (*Session, error) {
	now := time.Now()
	g, err := live.Load(row, moves, rs.cfg.Play, now)
	if err != nil {
		return nil, err
	}
	return rs.newSession(g, now), nil
}

// listsChanged tells the lobby that a game may have joined or left a list.
func (rs *Rooms) listsChanged() {
	if rs.cfg.ListsChanged != nil {
		rs.cfg.ListsChanged()
	}
}

// register adds a session to the map.
func (rs *Rooms) register(s *Session) {
	rs.mu.Lock()
	rs.sessions[s.id] = s
	rs.mu.Unlock()
	rs.listsChanged() // a new game may be in a list
}

// unregister removes a session (called with the session's lock held; the
// rooms' lock is always taken after a session's, never before).
func (rs *Rooms) unregister(s *Session) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.sessions[s.id] == s {
		delete(rs.sessions, s.id)
	}
}

// lookup returns the session of a game in memory, or nil.
func (rs *Rooms) lookup(id string) *Session {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.sessions[id]
}

// all returns the sessions in memory.
func (rs *Rooms) all() []*Session {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	out := make([]*Session, 0, len(rs.sessions))
	for _, s := range rs.sessions {
		out = append(out, s)
	}
	return out
}

// dbContext bounds one database call of a game's work.
func (rs *Rooms) dbContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), rs.cfg.WriteTimeout)
}
