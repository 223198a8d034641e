package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/store"
)

// A session is one game held in memory: the rules engine's game, the
// database row as last committed, the connected clients, the clock's timer
// and the computer's search. Every change happens under mu, and is written
// to the database before anyone hears of it.
type session struct {
	srv *Server
	id  string

	mu        sync.Mutex
	row       *store.Game // as committed
	spec      *game.Spec
	rules     game.Rules
	g         *game.Game
	positions []string // position text after each move
	legal     []string // the current position's legal moves, cached
	computer  int      // the computer's seat, or -1
	clients   map[*client]struct{}
	conns     [2]int // connected clients of this instance per seat
	flag      *time.Timer
	aiCancel  context.CancelFunc
	thinking  bool
	aiGen     int  // numbers the computer's searches: a stopped one's goroutine finds it changed
	closed    bool // the server is shutting down
	evicted   bool // no longer in the server's map
	// owner is the client the computer's searches are scheduled for: the
	// IP that made the game, or the game itself when that is not known
	// (a game resumed after a restart).
	owner string
	// touched is when the session was last used; an idle one leaves
	// memory at the sweeper's next round after idleEvict.
	touched time.Time
	// panics counts the panics rolled back; after maxPanics the clock and
	// the computer are no longer restarted, so that a fault that comes
	// back every time does not loop.
	panics int
	// mirror: another instance owns the game (cluster.go); this session
	// shows it to its clients and forwards their actions.
	mirror bool
	// remote holds, for the owner, the mirrors' reports of their clients;
	// ownerConnected, for a mirror, the players' presence as the owner
	// last announced it.
	remote         map[string]presence
	ownerConnected [2]bool
	ownerWatchers  int
	// listed is the status the game had when the cached lists were last
	// dropped for it (noteStatus).
	listed string
	// knownOwner is, for a mirror, the instance that announced the game's
	// last change ("" for not known): where to forward without asking the
	// database each move. A forward that fails forgets it.
	knownOwner string
	// awaySince is when each seat's player was last seen connected (zero
	// while connected): the opponent may claim the game after
	// Config.ClaimAfter.
	awaySince [2]time.Time
	// chat holds the game's chat lines once read (chatLoaded), and
	// chatBuckets each writer's pace.
	chat        []store.ChatLine
	chatLoaded  bool
	chatBuckets map[string]*bucket
}

// maxPanics is how many panics of one game are rolled back with its clock
// and computer restarted.
const maxPanics = 3

// idleEvict is how long a game that needs no timer stays in memory after
// its last use.
const idleEvict = time.Minute

// testHook, when a test sets it, is called at points of a game's work
// ("move" before a move is committed, "computer" before the computer's
// move is played, "flag" when a flag falls) to inject faults there.
var testHook func(point string)

func hook(point string) {
	if testHook != nil {
		testHook(point)
	}
}

// userError is a refusal to tell the client about; anything else is logged
// and reported as an internal error.
type userError struct {
	msg string
	// forbidden: the client may not do it at all (403), rather than not
	// now (409).
	forbidden bool
	// code names the refusal for a front end that says it in the
	// player's language (err.<code> in its catalogue), with vars the
	// values its text needs; "" for a refusal without one, which is shown
	// as msg.
	code string
	vars map[string]string
}

// coded is refuse for a refusal the front end words itself: code names
// it, vars (name, value pairs) fill its text, and msg is the English
// text, with the values already in it.
func coded(code string, msg string, vars ...string) error {
	e := userError{msg: msg, code: code}
	if len(vars) > 0 {
		e.vars = map[string]string{}
		for i := 0; i+1 < len(vars); i += 2 {
			e.vars[vars[i]] = vars[i+1]
		}
	}
	return e
}

func (e userError) Error() string { return e.msg }

func refuse(format string, args ...any) error { return userError{msg: fmt.Sprintf(format, args...)} }

// forbidCoded is coded for what the client may not do at all.
func forbidCoded(code, msg string, vars ...string) error {
	e := coded(code, msg, vars...).(userError)
	e.forbidden = true
	return e
}

// errSave is what a client hears when the database refused a write.
var errSave = userError{msg: "the server could not save that; please try again", code: "not_saved"}

// errMoved is what a client hears when the game moved to another server
// instance between its action and the write.
var errMoved = userError{msg: "another server instance runs this game now; please try again", code: "game_moved"}

// save writes a changed row as the game's owner within the write timeout.
// When another instance has taken the game over meanwhile, the store
// refuses the write and the session becomes a mirror.
func (s *session) save(nr *store.Game) error {
	if s.mirror {
		return errMoved
	}
	nr.Owner = s.srv.cfg.Instance
	ctx, cancel := context.WithTimeout(context.Background(), s.srv.cfg.WriteTimeout)
	defer cancel()
	err := s.srv.st.UpdateGame(ctx, nr)
	return s.writeError("game not saved", err)
}

// writeError turns a store error into what the client hears, logging it.
func (s *session) writeError(what string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrNotOwner):
		s.becomeMirror()
		return errMoved
	}
	s.srv.log.Error(what, "game", s.id, "err", err)
	return errSave
}

func millis(t time.Time) int64 { return t.UnixMilli() }

// slowWrite is the time past which a move's database write is logged.
const slowWrite = 200 * time.Millisecond

// buildGame replays a game's row and moves with the rules engine.
func buildGame(row *store.Game, moves []store.Move) (*game.Game, game.Rules, error) {
	rules, err := games.Rules(row.Game, row.Rules)
	if err != nil {
		return nil, nil, fmt.Errorf("game %s: %w", row.ID, err)
	}
	start, err := rules.ParsePosition(row.Start)
	if err != nil {
		return nil, nil, fmt.Errorf("game %s: start: %w", row.ID, err)
	}
	g := game.NewGame(start)
	for i, m := range moves {
		if m.Ply != i {
			return nil, nil, fmt.Errorf("game %s: move %d is stored as ply %d", row.ID, i+1, m.Ply+1)
		}
		if err := g.Play(m.Move); err != nil {
			return nil, nil, fmt.Errorf("game %s: move %d: %w", row.ID, i+1, err)
		}
	}
	if row.Status == store.Finished {
		if res, _ := g.Result(); !res.Over() {
			want, err := game.ParseResult(row.Result)
			if err != nil {
				return nil, nil, fmt.Errorf("game %s: %w", row.ID, err)
			}
			ending, err := rules.Spec().Ending(row.Reason)
			if err != nil {
				return nil, nil, fmt.Errorf("game %s: %w", row.ID, err)
			}
			loser := game.First
			if want == game.FirstWins {
				loser = game.Second
			}
			if err := g.End(loser, ending); err != nil {
				return nil, nil, fmt.Errorf("game %s: %w", row.ID, err)
			}
		}
	}
	return g, rules, nil
}

// newSession builds a session from a stored game. A running clock restarts
// now from its stored value: time while the server was down is not
// charged to anyone.
func newSession(srv *Server, row *store.Game, moves []store.Move) (*session, error) {
	g, rules, err := buildGame(row, moves)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	s := &session{
		srv: srv, id: row.ID, row: row, spec: rules.Spec(), rules: rules, g: g,
		computer: -1, clients: map[*client]struct{}{},
		owner: "game:" + row.ID, touched: now, remote: map[string]presence{},
		awaySince: [2]time.Time{now, now},
	}
	for _, st := range g.States()[1:] {
		s.positions = append(s.positions, st.String())
	}
	if row.Opponent == opponentComputer {
		for i, h := range row.Seats {
			if h == "" {
				s.computer = i
			}
		}
	}
	return s, nil
}

// rebase makes this instance's ownership of the game start a new stretch
// of the running clock, written to the database so that every instance
// shows the same clock: the running side is charged the time from its
// last saved change to chargeUntil (ms since the epoch: the last heartbeat
// of the instance that ran the game before, when it certainly ran), and
// no more: the time the game had no running owner is nobody's.
func (s *session) rebase(now time.Time, chargeUntil int64) error {
	if s.row.PerMove {
		return nil // a correspondence clock runs by the calendar, server or not
	}
	run := s.running()
	if _, first := s.firstMoveDeadline(); first {
		// The time to make a first move, too, runs only while the game
		// has an owner.
		nr := *s.row
		nr.ClockAt = millis(now) - max(chargeUntil-nr.ClockAt, 0)
		return s.update(&nr)
	}
	if run < 0 {
		return nil
	}
	nr := *s.row
	if chargeUntil > nr.ClockAt {
		nr.Remaining[run] -= time.Duration(chargeUntil-nr.ClockAt) * time.Millisecond
	}
	nr.ClockAt = millis(now)
	return s.update(&nr)
}

// becomeOwner makes the session the game's owner, this instance having
// just taken its lease from previous ("" for nobody): it reads the game
// again, rebases the clock, and starts the clock and the computer.
func (s *session) becomeOwner(previous string) {
	s.mirror = false
	if err := s.refresh(); err != nil {
		s.srv.log.Warn("game taken over but not read", "game", s.id, "err", err)
	}
	chargeUntil := s.row.ClockAt // nobody held it: nobody ran the clock
	switch {
	case previous == s.srv.cfg.Instance && s.row.ClockAt < millis(s.srv.started):
		chargeUntil = s.srv.prevBeat // this instance ran it before a restart
	case previous == s.srv.cfg.Instance:
		chargeUntil = millis(time.Now()) // this instance has run it all along
	case previous != "":
		ctx, cancel := context.WithTimeout(context.Background(), s.srv.cfg.WriteTimeout)
		beat, err := s.srv.st.LastBeat(ctx, previous)
		cancel()
		if err == nil && beat > 0 {
			chargeUntil = beat
		}
	}
	if err := s.rebase(time.Now(), chargeUntil); err != nil {
		s.srv.log.Warn("clock not rebased on taking the game over", "game", s.id, "err", err)
	}
	if previous != "" && previous != s.srv.cfg.Instance {
		s.srv.log.Info("game taken over", "game", s.id, "from", previous)
	}
	s.armFlag()
	s.maybeAI()
}

// becomeMirror makes the session a mirror: another instance owns the
// game now. Its clock and computer stop here, and it reads the game again.
func (s *session) becomeMirror() {
	if s.mirror {
		return
	}
	s.mirror = true
	s.stopFlag()
	s.stopAI()
	s.srv.log.Info("game lost to another instance", "game", s.id)
	s.refresh()
}

// tryOwn takes the game over if its lease has expired.
func (s *session) tryOwn(ctx context.Context, now time.Time) {
	owner, previous, err := s.srv.st.AcquireLease(ctx, s.id, s.srv.cfg.Instance, millis(now.Add(-leaseTTL)))
	if err != nil {
		s.srv.log.Warn("lease not taken", "game", s.id, "err", err)
		return
	}
	if owner == s.srv.cfg.Instance {
		s.becomeOwner(previous)
	}
}

// refresh reads the game from the database and shows it to the clients:
// an update when it is at most one move on, the whole state else.
func (s *session) refresh() error {
	before := len(s.g.Moves())
	s.chatLoaded = false // lines may have been missed too
	moves, err := s.load()
	if err != nil {
		return err
	}
	if d := len(moves) - before; d == 0 || d == 1 {
		s.broadcast()
	} else {
		now := time.Now()
		for c := range s.clients {
			c.send(s.stateJSON(c.seat, now))
		}
	}
	return nil
}

// follow brings a mirror up to an owner's announcement without reading
// the database, when the announcement carries the row and is at most one
// move on; false when the mirror must read the database instead.
func (s *session) follow(ev gameEvent) bool {
	local := len(s.g.Moves())
	if ev.Row == nil || ev.Row.ID != s.id || ev.Row.Moves != ev.Ply {
		return false
	}
	switch ev.Ply {
	case local:
	case local + 1:
		if err := s.g.Play(ev.Move); err != nil {
			return false
		}
		s.positions = append(s.positions, s.g.Position().String())
	default:
		return false
	}
	row := *ev.Row
	row.Owner = ""
	if res, _ := s.g.Result(); row.Status == store.Finished && !res.Over() {
		// Ended from outside the rules: take the ending from the row.
		won, err := game.ParseResult(row.Result)
		ending, err2 := s.spec.Ending(row.Reason)
		loser := game.First
		if won == game.FirstWins {
			loser = game.Second
		}
		if err != nil || err2 != nil || s.g.End(loser, ending) != nil {
			return false
		}
	}
	s.row, s.legal = &row, nil
	s.broadcast()
	return true
}

// announce tells the other instances that the game changed (after a
// commit) and who is connected to it.
func (s *session) announce() {
	s.noteStatus()
	if s.mirror {
		return
	}
	s.notifyEvent(gameEvent{ID: s.id, Ply: len(s.g.Moves()), By: s.srv.cfg.Instance, Row: s.row})
}

// announceChat tells the other instances of a new chat line.
func (s *session) announceChat(l store.ChatLine) {
	if !s.mirror {
		s.notifyEvent(gameEvent{ID: s.id, Ply: len(s.g.Moves()), By: s.srv.cfg.Instance, Chat: &l})
	}
}

// notifyEvent sends an event of the game, as its owner, with who is
// connected.
func (s *session) notifyEvent(ev gameEvent) {
	if ev.Ply > 0 {
		ev.Move = s.g.Moves()[ev.Ply-1]
	}
	for i := range ev.Connected {
		ev.Connected[i] = s.connected(i)
	}
	ev.Watchers = s.watchers()
	b, _ := json.Marshal(ev)
	if len(b) > 6000 {
		// Too long to carry the row: the mirrors read the database.
		ev.Row = nil
		b, _ = json.Marshal(ev)
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.srv.cfg.WriteTimeout)
	defer cancel()
	if err := s.srv.st.Notify(ctx, gamesChannel, string(b)); err != nil {
		s.srv.log.Warn("change not announced", "game", s.id, "err", err)
	}
}

// connected reports whether a player of seat i is connected anywhere that
// this instance knows of.
func (s *session) connected(i int) bool {
	if s.conns[i] > 0 || (s.mirror && s.ownerConnected[i]) {
		return true
	}
	for _, p := range s.remote {
		if p.conns[i] > 0 {
			return true
		}
	}
	return false
}

// noteStatus drops the server's cached lists when the game's status
// changed since it last looked: the game joined or left a list.
func (s *session) noteStatus() {
	if s.row.Status != s.listed {
		s.listed = s.row.Status
		s.srv.lists.clear()
	}
}

// localWatchers is how many spectators this instance's clients of the
// game are.
func (s *session) localWatchers() int { return len(s.clients) - s.conns[0] - s.conns[1] }

// watchers is how many spectators the game has on every instance: for the
// owner its own and the mirrors' last reports, for a mirror what the owner
// last announced.
func (s *session) watchers() int {
	if s.mirror {
		return s.ownerWatchers
	}
	n := s.localWatchers()
	for _, p := range s.remote {
		n += p.watchers
	}
	return n
}

// reportPresence sends this mirror's clients per seat to the owner, when
// they change; the round of leases reports all the games mirrored at once
// (Server.sendPresence) to keep the reports from lapsing.
func (s *session) reportPresence() {
	rq := request{Game: s.id, Op: "presence", Conns: s.conns, Watchers: s.localWatchers(), Sent: time.Now().UnixNano()}
	owner := s.leaseOwner()
	go func() {
		ctx, cancel := context.WithTimeout(s.srv.ctx, forwardTimeout)
		defer cancel()
		s.srv.forward(ctx, owner, rq)
	}()
}

// leaseOwner reads who holds the game's lease ("" if nobody): for a
// mirror, where to forward.
func (s *session) leaseOwner() string {
	ctx, cancel := context.WithTimeout(context.Background(), s.srv.cfg.WriteTimeout)
	defer cancel()
	owner, _, err := s.srv.st.LeaseOwner(ctx, s.id)
	if err != nil {
		return ""
	}
	return owner
}

// expirePresence drops the mirrors' reports that have lapsed.
func (s *session) expirePresence(now time.Time) {
	changed := false
	for inst, p := range s.remote {
		if now.Sub(p.at) > presenceTTL {
			delete(s.remote, inst)
			changed = true
		}
	}
	if changed {
		s.announce()
		s.broadcast()
	}
}

// start arms the clock and the computer of a session just made; call it
// once, before the session is shared.
func (s *session) start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mirror {
		return
	}
	s.armFlag()
	s.maybeAI()
}

func (s *session) clocked() bool { return s.row.ClockInitial > 0 }

// running returns the side whose clock runs, or -1. The clocks start once
// each side has made its first move.
func (s *session) running() int {
	if !s.clocked() || s.row.Status != store.Playing || !s.started() {
		return -1
	}
	return int(s.g.Position().Side())
}

// remaining returns both clocks as of now.
func (s *session) remaining(now time.Time) [2]time.Duration {
	r := s.row.Remaining
	if run := s.running(); run >= 0 {
		r[run] -= now.Sub(time.UnixMilli(s.row.ClockAt))
	}
	return r
}

func (s *session) stopFlag() {
	if s.flag != nil {
		s.flag.Stop()
		s.flag = nil
	}
}

// armFlag sets the timer that makes the running side's flag fall, or,
// before the clocks start, the one that aborts a game whose side to move
// lets the time for its first move pass.
func (s *session) armFlag() {
	s.stopFlag()
	if s.closed || s.mirror {
		return
	}
	now := time.Now()
	if at, ok := s.firstMoveDeadline(); ok {
		s.flag = time.AfterFunc(max(at.Sub(now), 0), s.onFlag)
		return
	}
	run := s.running()
	if run < 0 {
		return
	}
	d := max(s.remaining(now)[run], 0)
	s.flag = time.AfterFunc(d, s.onFlag)
}

func (s *session) onFlag() {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.recoverPanic("flag")
	if s.closed || s.mirror {
		return
	}
	if at, ok := s.firstMoveDeadline(); ok {
		if now := time.Now(); now.Before(at) {
			s.armFlag()
			return
		}
		hook("flag")
		if err := s.abortAs(reasonNoFirstMove, time.Now()); err != nil {
			s.srv.log.Error("abort for no first move not saved", "game", s.id, "err", err)
			s.armFlag() // try again
		}
		return
	}
	run := s.running()
	if run < 0 {
		return
	}
	if s.remaining(time.Now())[run] > 0 {
		s.armFlag() // moved on since the timer was set
		return
	}
	hook("flag")
	if err := s.timeout(run); err != nil {
		s.srv.log.Error("flag fall not saved", "game", s.id, "err", err)
		s.armFlag() // try again
	}
}

// timeout ends the game on time against side.
func (s *session) timeout(side int) error {
	if err := s.g.End(game.Side(side), game.Timeout); err != nil {
		return err
	}
	return s.finish(time.Now())
}

// finish commits the end of the game that g now shows (resignation,
// agreement, time) and tells everyone. On a database error g is put back.
func (s *session) finish(now time.Time) error {
	nr := *s.row
	res, why := s.g.Result()
	nr.Status, nr.Result, nr.Reason = store.Finished, res.String(), why.String()
	if s.clocked() {
		nr.Remaining = s.remaining(now)
		for i := range nr.Remaining {
			nr.Remaining[i] = max(nr.Remaining[i], 0)
		}
		nr.ClockAt = millis(now)
	}
	nr.DrawOffer = -1
	nr.Updated = millis(now)
	if err := s.save(&nr); err != nil {
		s.rebuild()
		return err
	}
	s.row = &nr
	s.announce()
	s.ended()
	return nil
}

// ended stops what runs during a game and tells everyone.
func (s *session) ended() {
	s.stopFlag()
	s.stopAI()
	s.rate()
	s.srv.log.Info("game over", "game", s.id, "status", s.row.Status, "result", s.row.Result, "reason", s.row.Reason, "moves", s.row.Moves)
	s.broadcast()
	s.showSpectatorChat()
	s.maybeEvict(time.Now())
}

// abandoned is the reason of a game aborted by the server.
const abandoned = "abandoned"

// expire aborts the game if nobody took it up (an invitation) or played
// it (against the computer) for Config.Expire before now.
func (s *session) expire(now time.Time) error {
	switch {
	case s.closed || s.row.Updated >= millis(now.Add(-s.srv.cfg.Expire)):
		return nil
	case s.row.Status == store.Waiting:
	case s.row.Status == store.Playing && s.computer >= 0:
	default:
		return nil
	}
	return s.abortAs(abandoned, now)
}

// endAs saves nr, a row that ends the game without a move (aborted,
// cancelled), and tells everyone.
func (s *session) endAs(nr *store.Game) error {
	if err := s.save(nr); err != nil {
		return err
	}
	s.row = nr
	s.announce()
	s.ended()
	return nil
}

// rebuild replays g without an ending from outside the rules that could
// not be saved.
func (s *session) rebuild() {
	g := game.NewGame(s.g.Start())
	for _, m := range s.g.Moves() {
		g.Play(m) // these moves were legal a moment ago
	}
	s.g = g
}

// update commits a change to the row (draw offers, rematches, seats) and
// tells everyone.
func (s *session) update(nr *store.Game) error {
	nr.Updated = millis(time.Now())
	if err := s.save(nr); err != nil {
		return err
	}
	s.row = nr
	s.announce()
	s.broadcast()
	return nil
}

// checkPlaying refuses actions on a game not being played.
func (s *session) checkPlaying() error {
	switch {
	case s.closed:
		return coded("shutting_down", "the server is shutting down; try again in a moment")
	case s.row.Status == store.Waiting:
		return coded("not_started", "the game has not started: waiting for an opponent")
	case s.row.Status == store.Finished:
		return coded("game_over", fmt.Sprintf("the game is over (%s, %s)", s.row.Result, s.row.Reason), "result", s.row.Result, "reason", s.row.Reason)
	case s.row.Status == store.Aborted:
		return s.abortedRefusal()
	}
	return nil
}

// move plays a move for side: checked by the rules engine, committed,
// then broadcast.
func (s *session) move(side int, mv string) error {
	if err := s.checkPlaying(); err != nil {
		return err
	}
	if int(s.g.Position().Side()) != side {
		return coded("not_your_turn", mv+": it is not your turn", "move", mv)
	}
	now := time.Now()
	rem := s.remaining(now)
	if s.clocked() && rem[side] <= 0 {
		if err := s.timeout(side); err != nil {
			return err
		}
		return coded("time_up", mv+": your time is up", "move", mv)
	}
	if err := s.g.Play(mv); err != nil {
		// The rules engine's sentence says why, in English; other
		// languages say the move is illegal.
		return coded("illegal_move", err.Error(), "move", mv, "why", strings.TrimPrefix(err.Error(), mv+": "))
	}
	if res, _ := s.g.Result(); !res.Over() && len(s.g.Moves()) >= s.srv.cfg.MaxPlies {
		s.g.End(0, game.PlyLimit) // cannot fail: the game goes on
	}
	hook("move")
	s.touched = now
	nr := *s.row
	nr.Moves++
	nr.Position = s.g.Position().String()
	nr.Updated = millis(now)
	m := store.Move{Ply: nr.Moves - 1, Move: mv, PlayedAt: millis(now)}
	if s.clocked() {
		switch {
		case nr.PerMove:
			rem[side] = nr.ClockInitial // a correspondence clock: the time for the next move
		case nr.Moves > 2:
			rem[side] += nr.ClockIncrement // not for a first move: the clocks did not run
		}
		nr.Remaining, nr.ClockAt = rem, millis(now)
		m.Clock = rem[side]
	}
	if nr.DrawOffer == 1-side {
		nr.DrawOffer = -1 // moving on declines the opponent's offer
	}
	nr.TakebackBy = -1 // and cancels a takeback request
	res, why := s.g.Result()
	if res.Over() {
		nr.Status, nr.Result, nr.Reason, nr.DrawOffer = store.Finished, res.String(), why.String(), -1
	}
	nr.Owner = s.srv.cfg.Instance
	ctx, cancel := context.WithTimeout(context.Background(), s.srv.cfg.WriteTimeout)
	t0 := time.Now()
	err := s.srv.st.AddMove(ctx, &nr, m)
	cancel()
	if d := time.Since(t0); d > slowWrite {
		s.srv.log.Warn("slow database write", "game", s.id, "took", d)
	}
	if err != nil {
		s.g.Undo() // the move, and a ply-limit draw with it
		return s.writeError("move "+mv+" not saved", err)
	}
	s.row = &nr
	s.positions = append(s.positions, nr.Position)
	s.legal = nil
	s.announce()
	if res.Over() {
		s.ended()
		return nil
	}
	s.armFlag()
	s.broadcast()
	s.maybeAI()
	return nil
}

// act carries out a player's message (move, resign, draw, rematch) for
// seat, as the game's owner, with s.mu held.
func (s *session) act(seat int, m clientMsg) error {
	if s.mirror {
		return errNotOwner
	}
	s.touched = time.Now()
	if do, ok := actions[m.Type]; ok {
		return do(s, seat, m)
	}
	return refuse("unknown message type %q", m.Type)
}

// actions are the players' messages, by type, and what each does for a
// seat (-1, a spectator, only chats: handleMsg lets nothing else through).
var actions = map[string]func(s *session, seat int, m clientMsg) error{
	"move": func(s *session, seat int, m clientMsg) error {
		if m.Move == "" {
			return refuse("move: no move given")
		}
		return s.move(seat, m.Move)
	},
	"resign":   func(s *session, seat int, _ clientMsg) error { return s.resign(seat) },
	"draw":     func(s *session, seat int, m clientMsg) error { return s.draw(seat, m.Action) },
	"rematch":  func(s *session, seat int, m clientMsg) error { return s.rematch(seat, m.Action) },
	"cancel":   func(s *session, _ int, _ clientMsg) error { return s.cancel() },
	"abort":    func(s *session, seat int, _ clientMsg) error { return s.abort(seat) },
	"takeback": func(s *session, seat int, m clientMsg) error { return s.takeback(seat, m.Action) },
	"claim":    func(s *session, seat int, m clientMsg) error { return s.claim(seat, m.Action) },
	"chat":     func(s *session, seat int, m clientMsg) error { return s.postChat(seat, m.Name, m.Text) },
}

// cancelled is the reason of a seek its player took back.
const cancelled = "cancelled"

// cancel takes back a waiting game (a seek): it leaves the lists, with no
// result, as an abandoned one does.
func (s *session) cancel() error {
	if s.row.Status != store.Waiting {
		return refuse("only a game still waiting for an opponent can be cancelled")
	}
	nr := *s.row
	nr.Status, nr.Reason, nr.Updated = store.Aborted, cancelled, millis(time.Now())
	return s.endAs(&nr)
}

// resign ends the game with a loss for side; before side's first move it
// aborts the game instead, which leaves no result (and no rating change):
// there is nothing to resign yet.
func (s *session) resign(side int) error {
	if err := s.checkPlaying(); err != nil {
		return err
	}
	if s.abortable(side) {
		return s.abortAs(reasonAborted, time.Now())
	}
	if err := s.g.End(game.Side(side), game.Resignation); err != nil {
		return userError{msg: err.Error()}
	}
	return s.finish(time.Now())
}

// draw handles a draw offer, acceptance or refusal by side.
func (s *session) draw(side int, action string) error {
	if err := s.checkPlaying(); err != nil {
		return err
	}
	offer := s.row.DrawOffer
	switch action {
	case "offer":
		if offer == 1-side {
			return s.draw(side, "accept")
		}
		if offer == side {
			return coded("draw_offered", "you have already offered a draw")
		}
		nr := *s.row
		nr.DrawOffer = side
		if err := s.update(&nr); err != nil {
			return err
		}
		if s.computer == 1-side {
			// The computer plays on.
			nr := *s.row
			nr.DrawOffer = -1
			return s.update(&nr)
		}
		return nil
	case "accept":
		if offer != 1-side {
			return coded("no_draw_offer", "there is no draw offer to accept")
		}
		if err := s.g.End(game.Side(side), game.Agreement); err != nil {
			return userError{msg: err.Error()}
		}
		return s.finish(time.Now())
	case "decline":
		return s.decline(side, func(g *store.Game) *int { return &g.DrawOffer }, "no_draw_offer", "there is no draw offer to decline")
	}
	return refuse("draw: unknown action %q (offer, accept or decline)", action)
}

// rematch handles a rematch offer or acceptance by side.
func (s *session) rematch(side int, action string) error {
	switch {
	case s.closed:
		return coded("shutting_down", "the server is shutting down; try again in a moment")
	case s.row.Status != store.Finished:
		return coded("rematch_not_over", "a rematch can be asked for when the game is over")
	case s.row.RematchGame != "":
		return coded("rematch_started", "the rematch has already started: /g/"+s.row.RematchGame, "game", s.row.RematchGame)
	}
	by := s.row.RematchBy
	switch action {
	case "offer":
		if s.computer == 1-side || by == 1-side {
			return s.startRematch(side)
		}
		if by == side {
			return coded("rematch_asked", "you have already asked for a rematch")
		}
		nr := *s.row
		nr.RematchBy = side
		return s.update(&nr)
	case "accept":
		if by != 1-side {
			return coded("no_rematch_offer", "there is no rematch offer to accept")
		}
		return s.startRematch(by)
	}
	return refuse("rematch: unknown action %q (offer or accept)", action)
}

// startRematch creates the new game, colours swapped: each player's seat
// token carries over to the other side, so the old seat cookie proves the
// new seat (POST /api/games/<new>/join with rematch_of).
func (s *session) startRematch(by int) error {
	now := time.Now()
	old := s.row
	next := &store.Game{
		ID: newID(), Game: old.Game, Rules: old.Rules, Start: old.Start, Opponent: old.Opponent, Level: old.Level,
		Players: [2]string{old.Players[1], old.Players[0]},
		Seats:   [2]string{old.Seats[1], old.Seats[0]},
		Users:   [2]string{old.Users[1], old.Users[0]},
		Guests:  [2]string{old.Guests[1], old.Guests[0]},
		Public:  old.Public, Status: store.Playing, Result: game.Ongoing.String(), Position: old.Start,
		ClockInitial: old.ClockInitial, ClockIncrement: old.ClockIncrement, PerMove: old.PerMove,
		Remaining: [2]time.Duration{old.ClockInitial, old.ClockInitial}, ClockAt: millis(now),
		DrawOffer: -1, RematchBy: -1, TakebackBy: -1, RematchOf: old.ID, Created: millis(now), Updated: millis(now),
	}
	if old.Rated {
		// A rated game's rematch is rated, with the ratings as they are now.
		next.Rated, next.Family, next.MinRating, next.MaxRating = true, old.Family, old.MinRating, old.MaxRating
		ctx, cancel := context.WithTimeout(context.Background(), s.srv.cfg.WriteTimeout)
		for i, u := range next.Users {
			r, err := s.srv.ratingOf(ctx, u, next.Game, next.Family)
			if err != nil {
				cancel()
				return err
			}
			next.Ratings[i] = r.String()
		}
		cancel()
	}
	sess, err := newSession(s.srv, next, nil)
	if err != nil {
		return err
	}
	nr := *old
	nr.RematchBy, nr.RematchGame, nr.Updated = by, next.ID, millis(now)
	nr.Owner, next.Owner = s.srv.cfg.Instance, s.srv.cfg.Instance
	ctx, cancel := context.WithTimeout(context.Background(), s.srv.cfg.WriteTimeout)
	err = s.srv.st.CreateRematch(ctx, &nr, next)
	cancel()
	if err != nil {
		return s.writeError("rematch not saved", err)
	}
	sess.owner = s.owner
	s.srv.register(sess)
	sess.start()
	s.row = &nr
	s.srv.log.Info("rematch", "game", s.id, "new", next.ID)
	s.announce()
	s.broadcast()
	return nil
}

// joinHashed gives the free seat of a waiting game to the holder of the
// token whose hash is tokenHash: with inviteHash, the hash of the
// invitation given ("" for none, which only a public game takes).
func (s *session) joinHashed(tokenHash, inviteHash string, who identity) (int, error) {
	switch {
	case inviteHash != "" && (s.row.Invite == "" || inviteHash != s.row.Invite):
		return 0, forbidCoded("invite_wrong", "this invitation is not for this game")
	case inviteHash == "" && !s.row.Public && s.row.Status == store.Waiting:
		return 0, forbidCoded("private_game", "this game is private: it needs its invitation link")
	}
	switch {
	case s.closed:
		return 0, coded("shutting_down", "the server is shutting down; try again in a moment")
	case s.row.Status != store.Waiting:
		return 0, coded("two_players", "the game already has two players")
	}
	free := -1
	for i, h := range s.row.Seats {
		if h == "" {
			free = i
		}
	}
	if free < 0 {
		return 0, coded("two_players", "the game already has two players")
	}
	now := time.Now()
	nr := *s.row
	nr.Seats[free] = tokenHash
	if who.Name == "" {
		who.Name = "Anonymous" // from an instance of an older version
	}
	if s.row.Rated {
		shown, err := s.checkJoinRated(who)
		if err != nil {
			return 0, err
		}
		nr.Ratings[free] = shown
	}
	nr.Players[free], nr.Users[free], nr.Guests[free] = who.Name, who.User, who.Guest
	nr.Status = store.Playing
	nr.ClockAt = millis(now)
	if err := s.update(&nr); err != nil {
		return 0, err
	}
	s.armFlag()
	return free, nil
}

// computerToMove reports whether the computer is to move in a game being
// played.
func (s *session) computerToMove() bool {
	return s.computer >= 0 && s.row.Status == store.Playing && int(s.g.Position().Side()) == s.computer
}

// maybeAI starts the computer's search when it is to move. The search
// waits for a core from the server's scheduler, fairly shared among the
// clients; its clock starts only when it has one, so the wait is not its
// time. Its player, and the transposition table that is most of its
// memory, is made when the search has its core and dropped after the move.
func (s *session) maybeAI() {
	if s.closed || s.thinking || !s.computerToMove() {
		return
	}
	g := game.NewGame(s.g.Start())
	for _, m := range s.g.Moves() {
		g.Play(m) // legal: the session's game played them
	}
	ctx, cancel := context.WithCancel(s.srv.ctx)
	s.aiGen++
	s.aiCancel, s.thinking = cancel, true
	gen, level, rules := s.aiGen, s.row.Level, s.rules
	s.srv.aiWG.Add(1)
	go func() {
		defer s.srv.aiWG.Done()
		defer cancel()
		defer func() {
			if p := recover(); p != nil {
				s.mu.Lock()
				defer s.mu.Unlock()
				if s.aiGen == gen {
					s.thinking, s.aiCancel = false, nil
				}
				s.recovered("computer", p)
			}
		}()
		s.think(ctx, g, gen, level, rules)
	}()
}

// searchDone ends search gen's turn with s.mu held; false if it was
// stopped or replaced meanwhile (its result is then of no use).
func (s *session) searchDone(ctx context.Context, gen int) bool {
	if s.aiGen != gen {
		return false
	}
	s.thinking, s.aiCancel = false, nil
	return ctx.Err() == nil && !s.closed
}

// startClock prepares the computer's search once it has a core: it
// restarts the computer's clock (the wait was not its time) and returns
// the search's limits; false if the game moved on meanwhile.
func (s *session) startClock(ctx context.Context, gen int) (ai.Limits, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.aiGen != gen || ctx.Err() != nil || s.closed {
		s.searchDone(ctx, gen)
		return ai.Limits{}, false
	}
	if !s.clocked() {
		return ai.Limits{MoveTime: s.srv.moveTime(s.row.Level)}, true
	}
	if waited := time.Since(time.UnixMilli(s.row.ClockAt)); waited > 20*time.Millisecond {
		// Charge nothing of the wait: the clock starts again from its
		// value at the last move.
		if err := s.rebase(time.Now(), s.row.ClockAt); err != nil {
			s.srv.log.Warn("the computer's clock not restarted", "game", s.id, "err", err)
		}
		s.armFlag()
	}
	return ai.Limits{Time: s.remaining(time.Now()), Increment: [2]time.Duration{s.row.ClockIncrement, s.row.ClockIncrement}}, true
}

// think runs the computer's search of a maybeAI and plays its move.
func (s *session) think(ctx context.Context, g *game.Game, gen, level int, rules game.Rules) {
	release, err := s.srv.sched.acquire(ctx, s.owner)
	if err != nil {
		s.mu.Lock()
		s.searchDone(ctx, gen)
		s.mu.Unlock()
		return
	}
	defer release()
	// The player, with its table, exists only while it has a core: the
	// searches waiting for one hold no memory.
	player, err := games.NewPlayer(fmt.Sprintf("level:%d", level), rules, ai.Config{HashMB: s.srv.tableMB(level)})
	if err != nil {
		s.srv.log.Error("no computer player", "game", s.id, "err", err)
		s.mu.Lock()
		s.searchDone(ctx, gen)
		s.mu.Unlock()
		return
	}
	lim, ok := s.startClock(ctx, gen)
	if !ok {
		return
	}
	mv, err := player.Move(ctx, g, lim)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.searchDone(ctx, gen) {
		return
	}
	if err != nil {
		s.srv.log.Error("computer found no move", "game", s.id, "err", err)
		return
	}
	hook("computer")
	if err := s.move(s.computer, mv); err != nil {
		s.srv.log.Error("computer move refused", "game", s.id, "move", mv, "err", err)
	}
}

// stopAI stops the computer's search, if any: its goroutine finds its
// number changed and leaves the game alone.
func (s *session) stopAI() {
	if s.aiCancel != nil {
		s.aiCancel()
	}
	if s.thinking {
		s.aiGen++
	}
	s.thinking, s.aiCancel = false, nil
}

// attach adds a client and sends it the state; false if the session has
// left the server's map meanwhile or the server is shutting down.
func (s *session) attach(c *client) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.evicted || s.closed {
		return false
	}
	s.touched = time.Now()
	if c.seat >= 0 {
		s.conns[c.seat]++
	}
	c.send(s.stateJSON(c.seat, time.Now()))
	if c.seat >= 0 && s.conns[c.seat] == 1 {
		s.presenceChanged() // the others see the player connected
	}
	s.clients[c] = struct{}{}
	return true
}

// presenceChanged tells everyone that a seat's connection changed: the
// local clients, and the other instances (through the owner).
func (s *session) presenceChanged() {
	s.broadcast()
	if s.mirror {
		s.reportPresence()
	} else {
		s.announce()
	}
}

// detach removes a client.
func (s *session) detach(c *client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.clients[c]; !ok {
		return
	}
	delete(s.clients, c)
	if c.seat >= 0 {
		s.conns[c.seat]--
		if s.conns[c.seat] == 0 && !s.closed {
			s.presenceChanged()
		}
	}
	s.maybeEvict(time.Now())
}

// needed reports whether the game must stay in memory with nobody
// watching: its clock runs, or the computer is to move or thinking.
func (s *session) needed() bool {
	return s.row.Status == store.Playing && (s.clocked() || s.computerToMove() || s.thinking)
}

// maybeEvict drops the session from the server's map when nobody watches
// it and it needs no timer: at once for a game over, after idleEvict for
// one that is not (it loads again from the database when someone opens
// it).
func (s *session) maybeEvict(now time.Time) {
	if s.evicted || len(s.clients) > 0 {
		return
	}
	if s.row.Status == store.Waiting || s.row.Status == store.Playing {
		if s.needed() || now.Sub(s.touched) < idleEvict {
			return
		}
	}
	s.evicted = true
	s.stopFlag()
	s.stopAI()
	s.srv.unregister(s)
	if !s.mirror {
		s.srv.release(s.id)
	}
}

// recoverPanic, deferred in a game's work with s.mu held, turns a panic
// into a rollback of the game (see recovered).
func (s *session) recoverPanic(point string) {
	if p := recover(); p != nil {
		s.recovered(point, p)
	}
}

// recoverError is recoverPanic for work that answers with an error,
// which the panic becomes.
func (s *session) recoverError(err *error, point string) {
	if p := recover(); p != nil {
		s.recovered(point, p)
		*err = errors.New("a panic (the game was rolled back)")
	}
}

// recovered handles a panic in the game's work at point, with s.mu held:
// it logs the stack and rolls the game back to what the database holds,
// so that nobody is served a move that was not committed. The process
// and the other games go on.
func (s *session) recovered(point string, p any) {
	s.srv.log.Error("panic in a game", "game", s.id, "at", point, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
	s.panics++
	if err := s.reload(); err != nil {
		s.srv.log.Error("game not rolled back: dropped from memory", "game", s.id, "err", err)
		s.evicted = true
		s.stopFlag()
		s.stopAI()
		s.srv.unregister(s)
		for c := range s.clients {
			c.kick(websocket.StatusInternalError, "the game failed; connect again")
		}
	}
}

// load replaces the game in memory by what the database holds, and
// returns its moves.
func (s *session) load() ([]store.Move, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.srv.cfg.WriteTimeout)
	defer cancel()
	row, err := s.srv.st.Game(ctx, s.id)
	if err != nil {
		return nil, err
	}
	moves, err := s.srv.st.Moves(ctx, s.id)
	if err != nil {
		return nil, err
	}
	g, rules, err := buildGame(row, moves)
	if err != nil {
		return nil, err
	}
	s.row, s.rules, s.g, s.legal = row, rules, g, nil
	s.positions = s.positions[:0]
	for _, st := range g.States()[1:] {
		s.positions = append(s.positions, st.String())
	}
	return moves, nil
}

// reload replaces the game in memory by what the database holds, then
// re-arms its clock and computer and tells everyone.
func (s *session) reload() error {
	if _, err := s.load(); err != nil {
		return err
	}
	s.stopFlag()
	s.stopAI()
	for c := range s.clients {
		c.send(s.stateJSON(c.seat, time.Now()))
	}
	if s.panics >= maxPanics {
		s.srv.log.Error("game stopped after repeated panics: its clock and computer wait for a restart", "game", s.id, "panics", s.panics)
		return nil
	}
	s.armFlag()
	s.maybeAI()
	return nil
}

// shutdown stops the session for a server shutdown: it saves the running
// clock as of now (so the downtime is not charged) and closes the sockets.
func (s *session) shutdown() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	s.stopFlag()
	s.stopAI()
	if run := s.running(); run >= 0 {
		now := time.Now()
		nr := *s.row
		nr.Remaining = s.remaining(now)
		nr.Remaining[run] = max(nr.Remaining[run], 0)
		nr.ClockAt = millis(now)
		if err := s.save(&nr); err != nil {
			s.srv.log.Error("clock not saved at shutdown", "game", s.id, "err", err)
		} else {
			s.row = &nr
		}
	}
	for c := range s.clients {
		c.kick(closeGoingAway, "the server is shutting down")
	}
}

// The messages of a game's state. A client gets a whole state, with the
// history, when it connects (and when it asks, with "sync"); after that,
// each change is an update: the state without the history, with the
// number of moves (ply) and the last move and position, so that a client
// appends a move instead of reading every move again.
type (
	liveMsg struct {
		Type      string      `json:"type"`
		ID        string      `json:"id"`
		Game      string      `json:"game"`
		Title     string      `json:"title"`
		Rules     string      `json:"rules"`
		Sides     [2]sideMsg  `json:"sides"`
		Seat      *int        `json:"seat"`
		Status    string      `json:"status"`
		Ply       int         `json:"ply"`
		Position  string      `json:"position"`
		Turn      int         `json:"turn"`
		Legal     []string    `json:"legal"`
		Last      string      `json:"last"`
		Clock     *clockMsg   `json:"clock"`
		Result    string      `json:"result"`
		Reason    string      `json:"reason"`
		DrawOffer *int        `json:"draw_offer"`
		Rematch   *rematchMsg `json:"rematch"`
		Rated     bool        `json:"rated"`
		// At is the server's time (ms since the epoch), for countdowns.
		At int64 `json:"at"`
		// Abortable: the seat may abort the game now (before its first
		// move); FirstMoveBy: when the side to move must have made its
		// first move, or the game is aborted (null when there is no such
		// deadline).
		Abortable   bool   `json:"abortable"`
		FirstMoveBy *int64 `json:"first_move_by"`
		// Takeback is a pending takeback request; TakebackAllowed says
		// whether the seat may ask for one.
		Takeback        *offerMsg `json:"takeback"`
		TakebackAllowed bool      `json:"takeback_allowed"`
		// ClaimAfterMS is how long a player must be away before the
		// opponent may claim the game (sides[i].away_since).
		ClaimAfterMS int64 `json:"claim_after_ms"`
		// ChatRoom is where the seat's chat lines go.
		ChatRoom string `json:"chat_room"`
	}
	stateMsg struct {
		liveMsg
		Start     string   `json:"start"`
		Moves     []string `json:"moves"`
		Positions []string `json:"positions"`
		// Chat holds the lines the seat may see, oldest first.
		Chat []chatMsg `json:"chat"`
	}
	offerMsg struct {
		OfferedBy int `json:"offered_by"`
	}
	sideMsg struct {
		Name      string `json:"name"`
		Letter    string `json:"letter"`
		Player    string `json:"player"`
		Connected bool   `json:"connected"`
		// User is the account's name, Rating its rating when the game
		// began (rated games), RatingDiff the change once it is over.
		User       string `json:"user,omitempty"`
		Rating     string `json:"rating,omitempty"`
		RatingDiff *int   `json:"rating_diff,omitempty"`
		// AwaySince is when a player who left was last seen (ms since
		// the epoch; omitted while connected), and Claimable says
		// whether the seat looking may claim the game against them now.
		AwaySince *int64 `json:"away_since,omitempty"`
		Claimable bool   `json:"claimable,omitempty"`
	}
	clockMsg struct {
		InitialMS   int64    `json:"initial_ms"`
		IncrementMS int64    `json:"increment_ms"`
		RemainingMS [2]int64 `json:"remaining_ms"`
		Running     *int     `json:"running"`
		At          int64    `json:"at"`
		// PerMove: a correspondence clock, InitialMS for each move.
		PerMove bool `json:"per_move"`
	}
	rematchMsg struct {
		OfferedBy int    `json:"offered_by"`
		Game      string `json:"game,omitempty"`
	}
)

func intp(i int) *int { return &i }

// live builds the state without the history as seen from seat (-1: a
// spectator), as an update.
func (s *session) live(seat int, now time.Time) liveMsg {
	r := s.row
	pos := s.g.Position()
	legal := []string{}
	if r.Status == store.Playing {
		if s.legal == nil {
			s.legal = pos.Moves()
		}
		legal = s.legal
	}
	moves := s.g.Moves()
	m := liveMsg{
		Type: "update", ID: r.ID, Game: s.spec.Name, Title: s.spec.Title, Rules: r.Rules,
		Status: r.Status, Ply: len(moves), Position: pos.String(),
		Turn: int(pos.Side()), Legal: legal, Result: r.Result, Reason: r.Reason, Rated: r.Rated,
		At: millis(now), Abortable: s.abortable(seat), TakebackAllowed: s.takebackAllowed(seat),
		ClaimAfterMS: s.srv.cfg.ClaimAfter.Milliseconds(), ChatRoom: chatRoom(seat),
	}
	if at, ok := s.firstMoveDeadline(); ok {
		ms := millis(at)
		m.FirstMoveBy = &ms
	}
	if r.TakebackBy >= 0 {
		m.Takeback = &offerMsg{OfferedBy: r.TakebackBy}
	}
	s.trackAway(now)
	if len(moves) > 0 {
		m.Last = moves[len(moves)-1]
	}
	if seat >= 0 {
		m.Seat = intp(seat)
	}
	for i := range m.Sides {
		sd := sideMsg{Name: s.spec.SideNames[i], Letter: s.spec.SideLetters[i], Player: r.Players[i], Connected: s.connected(i), Rating: r.Ratings[i]}
		if r.Users[i] != "" {
			sd.User = r.Players[i]
		}
		if r.Rated && r.Status == store.Finished {
			sd.RatingDiff = intp(r.Diffs[i])
		}
		if i == s.computer {
			sd.Connected = true
		} else if away := s.awaySince[i]; !away.IsZero() && r.Status == store.Playing {
			ms := millis(away)
			sd.AwaySince = &ms
			sd.Claimable = seat == 1-i && s.claimable(i, now)
		}
		if i == seat {
			sd.Player = "you"
		}
		m.Sides[i] = sd
	}
	if s.clocked() {
		rem := s.remaining(now)
		c := &clockMsg{InitialMS: r.ClockInitial.Milliseconds(), IncrementMS: r.ClockIncrement.Milliseconds(), At: millis(now), PerMove: r.PerMove}
		for i := range rem {
			c.RemainingMS[i] = max(rem[i].Milliseconds(), 0)
		}
		if run := s.running(); run >= 0 {
			c.Running = intp(run)
		}
		m.Clock = c
	}
	if r.DrawOffer >= 0 {
		m.DrawOffer = intp(r.DrawOffer)
	}
	if r.RematchBy >= 0 || r.RematchGame != "" {
		m.Rematch = &rematchMsg{OfferedBy: r.RematchBy, Game: r.RematchGame}
	}
	return m
}

// state builds the whole state, with the history, as seen from seat.
func (s *session) state(seat int, now time.Time) *stateMsg {
	m := &stateMsg{liveMsg: s.live(seat, now), Start: s.row.Start, Moves: s.g.Moves(), Positions: s.positions, Chat: s.visibleChat(seat)}
	m.Type = "state"
	if m.Moves == nil {
		m.Moves = []string{}
	}
	if m.Positions == nil {
		m.Positions = []string{}
	}
	return m
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the state messages always marshal
	}
	return b
}

func (s *session) stateJSON(seat int, now time.Time) []byte {
	return mustJSON(s.state(seat, now))
}

// broadcast sends an update to every client, encoding it once per seat.
func (s *session) broadcast() {
	if len(s.clients) == 0 {
		return
	}
	now := time.Now()
	var cache [3][]byte
	for c := range s.clients {
		i := c.seat + 1
		if cache[i] == nil {
			cache[i] = mustJSON(s.live(c.seat, now))
		}
		c.send(cache[i])
	}
}

// summary is a game's line in a list.
type summary struct {
	ID      string    `json:"id"`
	Game    string    `json:"game"`
	Title   string    `json:"title"`
	Rules   string    `json:"rules"`
	Players [2]string `json:"players"`
	Status  string    `json:"status"`
	Result  string    `json:"result"`
	Reason  string    `json:"reason"`
	Moves   int       `json:"moves"`
	Created int64     `json:"created"`
	Updated int64     `json:"updated"`
	// Users holds the account names among Players ("" for a guest, the
	// computer or a free seat).
	Users   [2]string `json:"users"`
	Rated   bool      `json:"rated"`
	Family  string    `json:"family,omitempty"`
	Ratings [2]string `json:"ratings"`
	Clock   string    `json:"clock"`
	// Free is a waiting game's free seat (-1 for none).
	Free      int `json:"free"`
	MinRating int `json:"min_rating"`
	MaxRating int `json:"max_rating"`
	// Spectators: a live game's spectators (in the live list).
	Spectators int `json:"spectators"`
}

func summarize(g *store.Game) summary {
	title := g.Game
	if gm, err := games.Lookup(g.Game); err == nil {
		title = gm.Spec.Title
	}
	free := -1
	if g.Status == store.Waiting {
		for i, seat := range g.Seats {
			if seat == "" {
				free = i
			}
		}
	}
	var users [2]string
	for i, u := range g.Users {
		if u != "" {
			users[i] = g.Players[i]
		}
	}
	return summary{ID: g.ID, Game: g.Game, Title: title, Rules: g.Rules, Players: g.Players, Users: users, Status: g.Status,
		Result: g.Result, Reason: g.Reason, Moves: g.Moves, Created: g.Created, Updated: g.Updated,
		Rated: g.Rated, Family: g.Family, Ratings: g.Ratings, Clock: clockText(g.ClockInitial, g.ClockIncrement, g.PerMove),
		Free: free, MinRating: g.MinRating, MaxRating: g.MaxRating}
}

// clockText writes a clock as the API reads it: "5+3", "3d" for three
// days a move, "" for none.
func clockText(initial, inc time.Duration, perMove bool) string {
	switch {
	case initial == 0:
		return ""
	case perMove:
		return strconv.Itoa(int(initial/(24*time.Hour))) + "d"
	}
	return strconv.FormatFloat(initial.Minutes(), 'f', -1, 64) + "+" + strconv.FormatFloat(inc.Seconds(), 'f', -1, 64)
}

// computerLabel is the display name of a computer player.
func computerLabel(level int) string { return fmt.Sprintf("computer (level %d)", level) }
