package round

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/magneton-games/magneton/server/cluster"
	"github.com/magneton-games/magneton/server/computer"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// ErrClosing is Create's error while the server shuts down.
var ErrClosing = errors.New("the server is shutting down")

// Row returns the game's row as committed.
func (s *Session) Row() store.Game {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.g.Row()
}

// Game returns the game's value as committed.
func (s *Session) Game() live.Game {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.g
}

// State is the whole game as seat sees it now.
func (s *Session) State(seat int) wire.State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state(seat, time.Now())
}

// Session returns the session of a game: the live one, or one loaded from
// the store. A session kept in memory takes the game's lease if nobody
// else holds it (becoming its owner, with its clock and computer started),
// else it is a mirror of the owner's. A game over is kept only if keep is
// set (a client will watch it, and may ask for a rematch); otherwise its
// session is a snapshot for one request.
func (rs *Rooms) Session(ctx context.Context, id string, keep bool) (*Session, error) {
	if s := rs.lookup(id); s != nil {
		return s, nil
	}
	row, err := rs.st.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	moves, err := rs.st.Moves(ctx, id)
	if err != nil {
		return nil, err
	}
	s, err := rs.load(row, moves)
	if err != nil {
		return nil, err
	}
	if s.g.Live() {
		// An unfinished game not in the map: made after a list was read,
		// its session evicted, or run by another instance; keep the one
		// that is there.
		keep = true
	}
	if !keep {
		return s, nil
	}
	owner, previous, err := rs.st.AcquireLease(ctx, id, rs.cfg.Instance, time.Now().Add(-cluster.LeaseTTL).UnixMilli())
	if err != nil {
		return nil, err
	}
	rs.mu.Lock()
	if old := rs.sessions[id]; old != nil {
		rs.mu.Unlock()
		return old, nil
	}
	rs.sessions[id] = s
	rs.mu.Unlock()
	s.mu.Lock()
	s.setMirror(owner != rs.cfg.Instance)
	if s.mirror {
		s.reportPresence() // the owner answers with an announcement of who is connected
	} else {
		s.becomeOwner(previous)
	}
	s.mu.Unlock()
	return s, nil
}

// Create stores a new game (its row, whose creator is the client whose
// searches of the computer's moves are scheduled together), takes it in
// memory and starts its clock and computer.
func (rs *Rooms) Create(ctx context.Context, row *store.Game, client string) error {
	return rs.CreateGames(ctx, []*store.Game{row}, client, func(ctx context.Context) error { return rs.st.CreateGame(ctx, row) })
}

// CreateGames makes games whose rows insert writes to the store (with
// this instance's leases, Owner being set on each row before): a
// tournament's round, written in one transaction with its pairings. The
// games start once insert has succeeded; client is the address of the
// client that made them ("" for the server itself).
func (rs *Rooms) CreateGames(ctx context.Context, rows []*store.Game, client string, insert func(context.Context) error) error {
	sessions := make([]*Session, len(rows))
	for i, row := range rows {
		g, err := live.New(row, rs.cfg.Play, time.Now())
		if err != nil {
			return err
		}
		sessions[i] = rs.newSession(g, time.Now())
		sessions[i].client = client
		row.Owner, row.NeedsOwner = rs.cfg.Instance, g.Needed()
	}
	if rs.closing.Load() {
		return ErrClosing
	}
	if err := insert(ctx); err != nil {
		return err
	}
	for _, s := range sessions {
		rs.register(s)
		s.start()
	}
	return nil
}

// Spectators is how many watch a game this instance has in memory (0 for
// one it has not).
func (rs *Rooms) Spectators(id string) int {
	s := rs.lookup(id)
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.watchers()
}

// InMemory reports whether the game is in memory here.
func (rs *Rooms) InMemory(id string) bool { return rs.lookup(id) != nil }

// Count is how many games are in memory here.
func (rs *Rooms) Count() int {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return len(rs.sessions)
}

// Census is how many games this instance has in memory as their owner,
// and as a mirror of another instance's. It takes no game's lock: a scrape
// does not wait for a game's database write.
func (rs *Rooms) Census() (owned, mirrored int) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for _, s := range rs.sessions {
		if s.mirrored.Load() {
			mirrored++
		} else {
			owned++
		}
	}
	return owned, mirrored
}

// SocketsOpen is how many clients' sockets are open here.
func (rs *Rooms) SocketsOpen() int { return int(rs.sockets.Load()) }

// Closing reports whether the rooms are shutting down.
func (rs *Rooms) Closing() bool { return rs.closing.Load() }

// ClaimGuest brings the games in memory up to date with a guest's sign-up
// (the database has been already, store.Store.ClaimGuestGames), and shows
// the new name to their clients. (Another instance's game shows it from
// its next reading of the game.)
func (rs *Rooms) ClaimGuest(guestHash, userID, name string) {
	for _, s := range rs.all() {
		s.mu.Lock()
		if g, ok := s.g.ClaimGuest(guestHash, userID, name); ok {
			s.g = g
			s.broadcast()
			s.announce()
		}
		s.mu.Unlock()
	}
}

// ForgetUser brings the games in memory up to date with an account's
// deletion (the database has been already, store.Privacy.DeleteUser):
// its seats show the deleted player, and every chat is read again, since
// its lines there have lost its name.
func (rs *Rooms) ForgetUser(userID string) {
	for _, s := range rs.all() {
		s.mu.Lock()
		s.chat.Forget()
		if g, ok := s.g.ForgetUser(userID); ok {
			s.g = g
			s.broadcast()
			s.announce()
		}
		s.mu.Unlock()
	}
}

// resume takes over, at the start, the games that need an instance with
// nobody watching (a clock running, the computer to move) and that no
// other instance runs: those whose lease has expired, and those this
// instance held before a restart. A running clock is charged the time
// until the last heartbeat of the instance that ran it, and no more.
func (rs *Rooms) resume(ctx context.Context) error {
	now := time.Now()
	held, err := rs.st.HeldLeases(ctx, rs.cfg.Instance)
	if err != nil {
		return fmt.Errorf("resume games: %w", err)
	}
	orphans, err := rs.st.Orphans(ctx, now.Add(-cluster.LeaseTTL).UnixMilli())
	if err != nil {
		return fmt.Errorf("resume games: %w", err)
	}
	n := 0
	for _, id := range append(held, orphans...) {
		s, err := rs.Session(ctx, id, true)
		if err != nil {
			// One broken game must not keep the others down.
			rs.log.Error("game not resumed", "game", id, "err", err)
			continue
		}
		s.mu.Lock()
		if !s.mirror {
			n++
		}
		s.mu.Unlock()
	}
	rs.log.Info("games resumed", "count", n)
	return nil
}

// heartbeat records every period that the instance is alive, for the
// clocks after a crash (resume) and for the leases.
func (rs *Rooms) heartbeat(period time.Duration) {
	defer rs.bgWG.Done()
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		rs.beat()
		select {
		case <-rs.ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (rs *Rooms) beat() {
	ctx, cancel := rs.dbContext()
	defer cancel()
	if err := rs.st.Beat(ctx, rs.cfg.Instance, time.Now().UnixMilli()); err != nil {
		rs.log.Warn("heartbeat not saved", "err", err)
	}
}

// Sweep drops from memory the games that no longer need it, and aborts
// the games nobody took up or played for live.Settings.Expire before now.
func (rs *Rooms) Sweep(now time.Time) {
	for _, s := range rs.all() {
		s.mu.Lock()
		s.maybeEvict(now)
		s.mu.Unlock()
	}
	ctx, cancel := context.WithTimeout(rs.ctx, time.Minute)
	defer cancel()
	rows, err := rs.st.Unfinished(ctx)
	if err != nil {
		rs.log.Warn("expiry: games not listed", "err", err)
		return
	}
	cutoff := now.Add(-rs.cfg.Play.Expire).UnixMilli()
	for _, row := range rows {
		if row.Updated >= cutoff || (row.Status != store.Waiting && row.Opponent != live.OpponentComputer) {
			continue
		}
		s, err := rs.Session(ctx, row.ID, true)
		if err != nil {
			rs.log.Warn("expiry: game not loaded", "game", row.ID, "err", err)
			continue
		}
		s.mu.Lock()
		if !s.closed {
			if _, err := s.run(live.Event{Kind: live.Expire}, now); err != nil {
				rs.log.Warn("expiry: game not aborted", "game", row.ID, "err", err)
			}
		}
		s.mu.Unlock()
	}
}

// Close shuts the rooms down: it refuses new actions, stops the computers,
// saves the running clocks, closes every socket and waits (within ctx) for
// their handlers. Stop the HTTP server first so that no new request
// arrives.
func (rs *Rooms) Close(ctx context.Context) error {
	if rs.closing.Swap(true) {
		return nil
	}
	rs.cancel()
	for _, s := range rs.all() {
		s.shutdown()
		s.mu.Lock()
		mirror := s.mirror
		s.mu.Unlock()
		if !mirror {
			// The clock is saved: another instance may take over at once.
			rs.release(s.id)
		}
	}
	done := make(chan struct{})
	go func() {
		rs.aiWG.Wait()
		rs.connWG.Wait()
		rs.bgWG.Wait()
		rs.beat() // the clocks were saved as of now
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("close: %w", ctx.Err())
	}
}

// Sockets is how many clients of this instance a game has, and whether it
// is in memory here at all.
func (rs *Rooms) Sockets(id string) (n int, inMemory bool) {
	s := rs.lookup(id)
	if s == nil {
		return 0, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.clients), true
}

// Pool returns the pool the computers' searches run in.
func (rs *Rooms) Pool() *computer.Pool { return rs.pool }
