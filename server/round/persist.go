package round

import (
	"errors"
	"time"

	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/ratings"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// slowWrite is the time past which a move's database write is logged.
const slowWrite = 200 * time.Millisecond

// errMirror is what a mirror's write gives: it owns nothing to write.
var errMirror = errors.New("a mirror does not write its game")

// persist writes what an event's effects say to save, next being the game
// after it; it returns what was not saved and why (for the log).
func (s *Session) persist(next live.Game, fx live.Effects) (what string, err error) {
	if s.mirror {
		return "game not saved", errMirror
	}
	nr := next.Row()
	nr.Owner = s.rooms.cfg.Instance
	ctx, cancel := s.rooms.dbContext()
	defer cancel()
	st := s.rooms.st
	switch fx.Save {
	case live.SaveRow:
		return "game not saved", st.UpdateGame(ctx, &nr)
	case live.SaveMove:
		t0 := time.Now()
		err := st.AddMove(ctx, &nr, fx.Move)
		if d := time.Since(t0); d > slowWrite {
			s.rooms.log.Warn("slow database write", "game", s.id, "took", d)
		}
		return "move " + fx.Move.Move + " not saved", err
	case live.SaveTakeBack:
		return "takeback not saved", st.TakeBack(ctx, &nr, fx.FromPly)
	case live.SaveRematch:
		if err := s.rateRematch(fx.Rematch); err != nil {
			return "rematch not saved", err
		}
		fx.Rematch.Owner = s.rooms.cfg.Instance
		return "rematch not saved", st.CreateRematch(ctx, &nr, fx.Rematch)
	}
	return "", nil
}

// rateRematch gives a rated rematch the players' ratings as they are now.
func (s *Session) rateRematch(next *store.Game) error {
	if !next.Rated {
		return nil
	}
	ctx, cancel := s.rooms.dbContext()
	defer cancel()
	for i, u := range next.Users {
		r, err := ratings.Of(ctx, s.rooms.st, u, next.Game, next.Family)
		if err != nil {
			return err
		}
		next.Ratings[i] = r.String()
	}
	return nil
}

// saveError turns a store error into what the client hears, logging it
// (as what); lost says that another instance took the game over.
func (s *Session) saveError(what string, err error) (refusal error, lost bool) {
	switch {
	case err == nil:
		return nil, false
	case errors.Is(err, errMirror):
		return wire.ErrMoved, false
	case errors.Is(err, store.ErrNotOwner):
		return wire.ErrMoved, true
	case errors.As(err, new(wire.Refusal)):
		return err, false
	}
	s.rooms.log.Error(what, "game", s.id, "err", err)
	return wire.ErrSave, false
}

// readGame reads the game as the database holds it: its value (the away
// times kept) and its moves.
func (s *Session) readGame() (live.Game, []store.Move, error) {
	ctx, cancel := s.rooms.dbContext()
	defer cancel()
	row, err := s.rooms.st.Game(ctx, s.id)
	if err != nil {
		return live.Game{}, nil, err
	}
	moves, err := s.rooms.st.Moves(ctx, s.id)
	if err != nil {
		return live.Game{}, nil, err
	}
	g, err := live.Load(row, moves, s.rooms.cfg.Play, time.Now())
	if err != nil {
		return live.Game{}, nil, err
	}
	return g.SeenAs(s.g), moves, nil
}

// ensureChat reads the game's chat from the database the first time it is
// needed.
func (s *Session) ensureChat() error {
	if s.chat.Loaded() {
		return nil
	}
	ctx, cancel := s.rooms.dbContext()
	defer cancel()
	lines, err := s.rooms.st.Chat(ctx, s.id, 0)
	if err != nil {
		return err
	}
	s.chat.Load(lines)
	return nil
}

// leaseOwner reads who holds the game's lease ("" if nobody): for a
// mirror, where to forward.
func (s *Session) leaseOwner() string {
	ctx, cancel := s.rooms.dbContext()
	defer cancel()
	owner, _, err := s.rooms.st.LeaseOwner(ctx, s.id)
	if err != nil {
		return ""
	}
	return owner
}

// release gives up the lease of a game leaving memory, so that another
// instance may run it at once, and tells the mirrors.
func (rs *Rooms) release(id string) {
	ctx, cancel := rs.dbContext()
	defer cancel()
	if err := rs.st.ReleaseLease(ctx, id, rs.cfg.Instance); err != nil {
		rs.log.Warn("lease not released", "game", id, "err", err)
		return
	}
	rs.node.Released(ctx, id)
}
