package round

import (
	"context"
	"fmt"
	"time"

	"github.com/magneton-games/magneton/server/cluster"
	"github.com/magneton-games/magneton/server/computer"
)

// New makes the rooms of an instance and resumes every unfinished game
// stored that needs it (see resume): the moves are replayed, the running
// clock restarts from its stored value, and a computer to move starts
// thinking. Close them when done.
func New(ctx context.Context, cfg Config) (*Rooms, error) {
	rs := &Rooms{cfg: cfg, st: cfg.Store, log: cfg.Logger, pool: cfg.Pool, metrics: cfg.Metrics, sessions: map[string]*Session{}}
	if rs.pool == nil {
		rs.pool = computer.NewPool(computer.Config{})
	}
	if rs.metrics == nil {
		rs.metrics = noMetrics{}
	}
	rs.node = cluster.NewNode(cfg.Store, cfg.Instance, cfg.WriteTimeout, cfg.Logger)
	rs.ctx, rs.cancel = context.WithCancel(context.Background())
	prev, err := rs.st.LastBeat(ctx, cfg.Instance)
	if err != nil {
		rs.cancel()
		return nil, err
	}
	rs.started, rs.prevBeat = time.Now(), prev
	rs.beat() // alive before taking any lease
	if err := rs.node.Listen(rs.ctx, rs, &rs.bgWG); err != nil {
		rs.cancel()
		return nil, err
	}
	if err := rs.resume(ctx); err != nil {
		rs.cancel()
		return nil, err
	}
	rs.bgWG.Add(2)
	go rs.heartbeat(cluster.LeaseEvery)
	go rs.leases()
	return rs, nil
}

// GameEvent follows another instance's announcement of a game (the
// cluster.Handler of the rooms).
func (rs *Rooms) GameEvent(ev cluster.Event) {
	s := rs.lookup(ev.ID)
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.follow(ev)
}

// Reconnected reads every mirror again: notifications may have been lost.
func (rs *Rooms) Reconnected() {
	for _, s := range rs.all() {
		s.mu.Lock()
		if s.mirror {
			s.refresh()
		}
		s.mu.Unlock()
	}
}

// Presence records another instance's report for the games this one runs;
// the players see a change at once.
func (rs *Rooms) Presence(r cluster.PresenceReport) {
	now := time.Now()
	for id, v := range r.Games {
		s := rs.lookup(id)
		if s == nil {
			continue
		}
		s.mu.Lock()
		if !s.mirror && !s.closed && !s.evicted &&
			s.notePresence(r.By, presence{conns: [2]int{v[0], v[1]}, watchers: v[2], at: now, sent: r.Sent}) {
			s.announce()
			s.broadcast()
		}
		s.mu.Unlock()
	}
}

// Request carries out a mirror's request as the game's owner; the seat is
// a join's.
func (rs *Rooms) Request(rq cluster.Request) (seat int, err error) {
	arrived := time.Now()
	ctx, cancel := context.WithTimeout(rs.ctx, rs.cfg.WriteTimeout)
	defer cancel()
	s, err := rs.Session(ctx, rq.Game, true)
	if err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.recoverError(&err, "request "+rq.Op)
	if s.mirror {
		// Asked as the owner: the lease may say so already, before this
		// instance's round of leases has caught up.
		s.tryOwn(ctx, time.Now())
	}
	if s.mirror {
		return 0, cluster.ErrNotOwner
	}
	switch rq.Op {
	case "msg":
		return 0, s.act(rq.Seat, rq.Msg, arrived)
	case "join":
		return s.join(rq.Token, rq.Invite, rq.Who)
	case "presence":
		// Announced even when nothing changed: a new mirror learns who is
		// connected so.
		changed := s.notePresence(rq.From, presence{conns: rq.Conns, watchers: rq.Watchers, at: time.Now(), sent: rq.Sent})
		s.announce()
		if changed {
			s.broadcast()
		}
		return 0, nil
	}
	return 0, fmt.Errorf("unknown request %q", rq.Op)
}

// leases renews this instance's leases, takes over the games whose owner
// is gone, and lets go of what it lost, every cluster.LeaseEvery.
func (rs *Rooms) leases() {
	defer rs.bgWG.Done()
	t := time.NewTicker(cluster.LeaseEvery)
	defer t.Stop()
	round := 0
	for {
		select {
		case <-rs.ctx.Done():
			return
		case <-t.C:
		}
		round++
		rs.leaseRound(round%int(cluster.PresenceEvery/cluster.LeaseEvery) == 0)
	}
}

// leaseRound is one round of leases.
func (rs *Rooms) leaseRound(reportPresence bool) {
	ctx, cancel := context.WithTimeout(rs.ctx, 10*time.Second)
	defer cancel()
	now := time.Now()
	// The sessions first: a game made here is in the database, lease and
	// all, before its session is listed, so every session of the list
	// whose lease is this instance's is among those held.
	sessions := rs.all()
	held, err := rs.st.HeldLeases(ctx, rs.cfg.Instance)
	if err != nil {
		rs.log.Warn("leases not read", "err", err)
		return
	}
	rs.metrics.LeasesHeld(len(held))
	mine := idSet(held)
	// One question for all the games followed here, rather than one per
	// game: with a thousand games mirrored, those reads were most of what
	// an instance asked of the database.
	unowned, err := rs.st.Ownerless(ctx, now.Add(-cluster.LeaseTTL).UnixMilli())
	if err != nil {
		rs.log.Warn("games without an owner not listed", "err", err)
		return
	}
	free := idSet(unowned)
	report, taken := map[string][3]int{}, time.Now().UnixNano() // before any snapshot: a report taken meanwhile wins
	for _, s := range sessions {
		s.mu.Lock()
		switch {
		case s.closed || s.evicted:
		case !s.mirror && !mine[s.id] && s.leaseOwner() != rs.cfg.Instance:
			// Another instance took it over. (The second look catches a
			// game taken over here since the list was read.)
			s.becomeMirror()
		case s.mirror && (free[s.id] || mine[s.id]):
			s.tryOwn(ctx, now)
		}
		if !s.mirror {
			s.expirePresence(now)
		} else if reportPresence && len(s.clients) > 0 {
			report[s.id] = [3]int{s.conns[0], s.conns[1], s.localWatchers()}
		}
		s.mu.Unlock()
	}
	rs.node.SendPresence(ctx, report, taken)
	orphans, err := rs.st.Orphans(ctx, now.Add(-cluster.LeaseTTL).UnixMilli())
	if err != nil {
		rs.log.Warn("games without an instance not listed", "err", err)
		return
	}
	for _, id := range orphans {
		if _, err := rs.Session(ctx, id, true); err != nil {
			rs.log.Warn("game not taken over", "game", id, "err", err)
		}
	}
}

// idSet returns the set of the ids.
func idSet(ids []string) map[string]bool {
	set := make(map[string]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	return set
}
