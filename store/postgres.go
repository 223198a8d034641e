package store

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
)

// OpenPostgres opens a PostgreSQL database (any URL or key=value string
// pgx takes) and applies the migrations. Several server instances may
// share it: each game's writes are fenced by its lease, and notifications
// go through LISTEN/NOTIFY.
func OpenPostgres(ctx context.Context, url string) (Store, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(20)
	db.SetMaxIdleConns(20)
	db.SetConnMaxIdleTime(5 * time.Minute)
	pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open database %s: %w", redact(cfg), err)
	}
	if err := migrate(pctx, db, goose.DialectPostgres, "migrations/postgres"); err != nil {
		db.Close()
		return nil, fmt.Errorf("open database %s: %w", redact(cfg), err)
	}
	s := &sqlStore{w: db, r: db, bus: newBus()}
	s.pg = newPGNotifier(cfg, s.bus)
	if err := s.start(pctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open database %s: %w", redact(cfg), err)
	}
	close(s.stopped) // PostgreSQL needs no checkpointer
	return s, nil
}

// redact names a database without its password, for messages.
func redact(cfg *pgx.ConnConfig) string {
	return fmt.Sprintf("postgres://%s@%s:%d/%s", cfg.User, cfg.Host, cfg.Port, cfg.Database)
}

// notifyDB opens the connections that send notifications. Their
// transactions commit without waiting for the disk (synchronous_commit
// off): a notification carries nothing the database must keep, and
// PostgreSQL forgets its queue in a crash anyway, but each pg_notify is a
// transaction of its own whose commit would otherwise wait for a flush of
// the log, with every instance sending several for each move.
func notifyDB(cfg *pgx.ConnConfig) *sql.DB {
	ncfg := cfg.Copy()
	if ncfg.RuntimeParams == nil {
		ncfg.RuntimeParams = map[string]string{}
	}
	ncfg.RuntimeParams["synchronous_commit"] = "off"
	db := stdlib.OpenDB(*ncfg)
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	db.SetConnMaxIdleTime(5 * time.Minute)
	return db
}

// pgNotifier holds the one connection of this process that LISTENs, and
// hands what it receives to the process's listeners (bus). It reconnects
// after a lost connection, telling the listeners so. Notifications go out
// through db.
type pgNotifier struct {
	cfg *pgx.ConnConfig
	bus *bus
	db  *sql.DB

	mu       sync.Mutex
	channels map[string]bool
	cancel   context.CancelFunc // of the running loop
	done     chan struct{}
}

func newPGNotifier(cfg *pgx.ConnConfig, b *bus) *pgNotifier {
	return &pgNotifier{cfg: cfg, bus: b, db: notifyDB(cfg), channels: map[string]bool{}}
}

func (p *pgNotifier) notify(ctx context.Context, channel, payload string) error {
	if _, err := p.db.ExecContext(ctx, `SELECT pg_notify($1, $2)`, channel, payload); err != nil {
		return fmt.Errorf("notify %s: %w", channel, err)
	}
	return nil
}

// listen makes sure the connection listens to channels, restarting it
// with the new set when one is new (servers listen to their channels once,
// at the start).
func (p *pgNotifier) listen(ctx context.Context, channels []string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	added := false
	for _, c := range channels {
		if !p.channels[c] {
			p.channels[c] = true
			added = true
		}
	}
	if !added && p.cancel != nil {
		return nil
	}
	if p.cancel != nil {
		p.cancel()
		<-p.done
	}
	var names []string
	for c := range p.channels {
		names = append(names, c)
	}
	sort.Strings(names)
	lctx, cancel := context.WithCancel(context.Background())
	p.cancel, p.done = cancel, make(chan struct{})
	ready := make(chan error, 1)
	go p.run(lctx, names, ready, p.done)
	select {
	case err := <-ready:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// run keeps a connection listening to names until ctx ends; ready gets
// the first connection's outcome.
func (p *pgNotifier) run(ctx context.Context, names []string, ready chan<- error, done chan struct{}) {
	defer close(done)
	first := true
	for ctx.Err() == nil {
		err := p.session(ctx, names, func() {
			if first {
				ready <- nil
			} else {
				p.bus.publish(Notification{Reconnected: true})
			}
			first = false
		})
		if ctx.Err() != nil {
			return
		}
		if first {
			ready <- fmt.Errorf("listen: %w", err)
			first = false
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

// session is one connection's life: LISTEN, then deliver until an error.
func (p *pgNotifier) session(ctx context.Context, names []string, up func()) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	conn, err := pgx.ConnectConfig(cctx, p.cfg)
	cancel()
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	for _, n := range names {
		if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{n}.Sanitize()); err != nil {
			return err
		}
	}
	up()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		p.bus.publish(Notification{Channel: n.Channel, Payload: n.Payload})
	}
}

func (p *pgNotifier) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cancel != nil {
		p.cancel()
		<-p.done
		p.cancel = nil
	}
	if p.db != nil {
		p.db.Close()
	}
}
