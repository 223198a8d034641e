package tournaments

import (
	"context"
	"errors"
	"time"

	"github.com/magneton-games/magneton/server/cluster"
	"github.com/magneton-games/magneton/server/lobby"
	"github.com/magneton-games/magneton/server/ratings"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/tournament"
)

// direct is the director: every Poll, one round of Direct, and a pass of
// the scheduler at the first and then every SchedulePoll.
func (t *Tournaments) direct() {
	defer t.wg.Done()
	tick := time.NewTicker(t.cfg.Poll)
	defer tick.Stop()
	var scheduled time.Time
	for {
		select {
		case <-t.ctx.Done():
			return
		case <-tick.C:
		}
		now := time.Now()
		if len(t.cfg.Schedule) > 0 && now.Sub(scheduled) >= t.cfg.SchedulePoll {
			t.Schedule(now)
			scheduled = now
		}
		t.Direct(now)
	}
}

// Direct is one round of the director, as of now: for each tournament
// due to start or started whose lease this instance holds or takes (its
// holder dead), it records the results of the games that ended, starts,
// pairs or finishes it.
func (t *Tournaments) Direct(now time.Time) {
	ctx, cancel := t.dbContext()
	defer cancel()
	list, err := t.cfg.Store.TournamentList(ctx, store.TournamentQuery{Limit: 1000})
	if err != nil {
		t.cfg.Logger.Warn("tournaments not listed", "err", err)
		return
	}
	for _, tr := range list {
		if tr.Status == store.TournamentCreated && tr.Starts > now.UnixMilli() {
			continue
		}
		owner, err := t.cfg.Store.AcquireTournament(ctx, tr.ID, t.cfg.Instance, now.Add(-cluster.LeaseTTL).UnixMilli())
		if err != nil {
			t.cfg.Logger.Warn("tournament's lease not taken", "tournament", tr.ID, "err", err)
			continue
		}
		if owner != t.cfg.Instance {
			continue
		}
		if tr.Director != t.cfg.Instance {
			t.cfg.Logger.Info("tournament directed", "tournament", tr.ID, "from", tr.Director)
		}
		if err := t.step(ctx, tr.ID, now); err != nil && !errors.Is(err, store.ErrNotDirector) && ctx.Err() == nil {
			t.cfg.Logger.Warn("tournament not directed", "tournament", tr.ID, "err", err)
		}
	}
}

// step directs one tournament once.
func (t *Tournaments) step(ctx context.Context, id string, now time.Time) error {
	tr, entries, ps, err := t.state(ctx, id)
	if err != nil {
		return err
	}
	if tr.Status == store.TournamentCreated {
		return t.begin(ctx, tr, entries, now)
	}
	if ps, err = t.record(ctx, tr, ps); err != nil {
		return err
	}
	if tournament.Format(tr.Format) == tournament.Arena {
		return t.pairArena(ctx, tr, entries, ps, now)
	}
	return t.pairRound(ctx, tr, entries, ps, now)
}

// active counts the players who have not withdrawn.
func active(entries []store.TournamentEntry) int {
	n := 0
	for _, e := range entries {
		if !e.Withdrawn {
			n++
		}
	}
	return n
}

// begin starts a tournament whose time has come: an arena always, a
// Swiss or round robin with MinPlayers or more (otherwise it ends with no
// winner).
func (t *Tournaments) begin(ctx context.Context, tr *store.Tournament, entries []store.TournamentEntry, now time.Time) error {
	n := active(entries)
	rounds, at := 0, tr.Starts
	switch tournament.Format(tr.Format) {
	case tournament.Arena:
	case tournament.RoundRobin:
		rounds, at = tournament.RoundRobinRounds(n), now.UnixMilli()
	case tournament.Swiss:
		rounds, at = tr.Rounds, now.UnixMilli()
		if rounds == 0 {
			rounds = tournament.DefaultSwissRounds(n)
		}
		rounds = min(rounds, tournament.MaxSwissRounds(n))
	}
	if tournament.Format(tr.Format) != tournament.Arena && n < MinPlayers {
		t.cfg.Logger.Info("tournament ends: too few players", "tournament", tr.ID, "players", n)
		return t.cfg.Store.FinishTournament(ctx, tr.ID, t.cfg.Instance, "", now.UnixMilli())
	}
	t.cfg.Logger.Info("tournament started", "tournament", tr.ID, "players", n, "rounds", rounds)
	return t.cfg.Store.StartTournament(ctx, tr.ID, t.cfg.Instance, rounds, at)
}

// record writes the results of the tournament's games that ended, and
// returns the pairings with them. In an arena, a player who did not make
// a first move (the game aborted) is paused until back.
func (t *Tournaments) record(ctx context.Context, tr *store.Tournament, ps []store.TournamentPairing) ([]store.TournamentPairing, error) {
	results := map[int]int{}
	var absent []string
	for i, p := range ps {
		if p.Second == "" || tournament.Result(p.Result) != tournament.Pending {
			continue
		}
		r, noShow := gameResult(p)
		if r == tournament.Pending {
			continue
		}
		results[p.Seq], ps[i].Result = int(r), int(r)
		if noShow != "" {
			absent = append(absent, noShow)
		}
	}
	if len(results) == 0 {
		return ps, nil
	}
	if err := t.cfg.Store.RecordResults(ctx, tr.ID, t.cfg.Instance, results); err != nil {
		return nil, err
	}
	if tournament.Format(tr.Format) == tournament.Arena {
		for _, u := range absent {
			if err := t.cfg.Store.SetEntry(ctx, tr.ID, u, false, true); err != nil {
				t.cfg.Logger.Warn("absent player not paused", "tournament", tr.ID, "err", err)
			}
		}
	}
	return ps, nil
}

// gameResult is the result of a pairing's game once it has ended
// (Pending before): its result, or, for a game aborted because a side
// did not make its first move, a loss of that side (named noShow); a
// game aborted later is a draw.
func gameResult(p store.TournamentPairing) (r tournament.Result, noShow string) {
	switch p.GameStatus {
	case store.Finished:
		switch p.GameResult {
		case "1-0":
			return tournament.FirstWins, ""
		case "0-1":
			return tournament.SecondWins, ""
		}
		return tournament.Draw, ""
	case store.Aborted:
		switch p.GameMoves {
		case 0:
			return tournament.SecondWins, p.First
		case 1:
			return tournament.FirstWins, p.Second
		}
		return tournament.Draw, ""
	}
	return tournament.Pending, ""
}

// pairArena pairs an arena's waiting players until its end, and finishes
// it once its end has come and its last games have ended.
func (t *Tournaments) pairArena(ctx context.Context, tr *store.Tournament, entries []store.TournamentEntry, ps []store.TournamentPairing, now time.Time) error {
	busy := map[string]bool{}
	for _, p := range ps {
		if p.Second != "" && tournament.Result(p.Result) == tournament.Pending {
			busy[p.First], busy[p.Second] = true, true
		}
	}
	if now.UnixMilli() >= tr.Ends {
		if len(busy) > 0 {
			return nil // games running at the end count when they finish
		}
		return t.finish(ctx, tr, entries, ps, now)
	}
	var waiting []string
	for _, e := range entries {
		if !e.Withdrawn && !e.Paused && !busy[e.User] {
			waiting = append(waiting, e.User)
		}
	}
	if len(waiting) < 2 {
		return nil
	}
	es, lps := logic(entries, ps)
	return t.pair(ctx, tr, entries, 0, tournament.PairArena(waiting, es, lps))
}

// pairRound pairs a Swiss's or round robin's next round once every game
// of the current one has ended, and finishes it after the last.
func (t *Tournaments) pairRound(ctx context.Context, tr *store.Tournament, entries []store.TournamentEntry, ps []store.TournamentPairing, now time.Time) error {
	for _, p := range ps {
		if p.Round == tr.Round && tournament.Result(p.Result) == tournament.Pending {
			return nil
		}
	}
	if tr.Round >= tr.Rounds {
		return t.finish(ctx, tr, entries, ps, now)
	}
	next := tr.Round + 1
	es, lps := logic(entries, ps)
	var pairs []tournament.Pairing
	var err error
	if tournament.Format(tr.Format) == tournament.RoundRobin {
		pairs, err = tournament.PairRoundRobinEntries(es, next)
	} else {
		pairs, err = tournament.PairSwissRounds(es, lps, next, tr.Rounds)
	}
	var te *tournament.Error
	if errors.As(err, &te) && (te.Code == tournament.CodeNoPairing || te.Code == tournament.CodeTooFewPlayers) {
		t.cfg.Logger.Info("tournament ends early: no round to pair", "tournament", tr.ID, "round", next, "why", te.Msg)
		return t.finish(ctx, tr, entries, ps, now)
	}
	if err != nil {
		return err
	}
	return t.pair(ctx, tr, entries, next, pairs)
}

// pair writes the pairings of a round (0 in an arena) and makes their
// games, in one transaction, and starts the games. The games are made as
// of the time they are written (not of the round of the director, which
// read the ends of the games before them).
func (t *Tournaments) pair(ctx context.Context, tr *store.Tournament, entries []store.TournamentEntry, round int, pairs []tournament.Pairing) error {
	set, err := lobby.CheckSettings(tr.Game, tr.Rules, tr.Clock, tr.Rated)
	if err != nil {
		return err
	}
	names := map[string]string{}
	for _, e := range entries {
		names[e.User] = e.Name
	}
	isBot := func(user string) (bool, error) {
		if t.cfg.IsBot == nil {
			return false, nil
		}
		return t.cfg.IsBot(ctx, user)
	}
	seat := func(user string, bot bool, family string) (lobby.Seat, error) {
		s := lobby.Seat{User: user, Name: names[user], Bot: bot}
		if tr.Rated {
			r, err := ratings.Of(ctx, t.cfg.Store, user, tr.Game, family)
			if err != nil {
				return s, err
			}
			s.Rating = r.String()
		}
		return s, nil
	}
	var rows []*store.Game
	ps := make([]store.TournamentPairing, len(pairs))
	for i, p := range pairs {
		ps[i] = store.TournamentPairing{Round: round, First: p.First, Second: p.Second}
		if p.Second == "" {
			ps[i].Result = int(tournament.FirstWins)
			continue
		}
		bot1, err := isBot(p.First)
		if err != nil {
			return err
		}
		bot2, err := isBot(p.Second)
		if err != nil {
			return err
		}
		game := set
		if bot1 && bot2 && tr.Rated {
			// Two bots are rated in the bots' pool, as their challenges are.
			game.Family = store.BotFamilyPrefix + set.Family
		}
		first, err := seat(p.First, bot1, game.Family)
		if err != nil {
			return err
		}
		second, err := seat(p.Second, bot2, game.Family)
		if err != nil {
			return err
		}
		row := game.PairedGame(first, second, time.Now())
		row.Tournament = tr.ID
		ps[i].GameID = row.ID
		rows = append(rows, row)
	}
	return t.cfg.Rooms.CreateGames(ctx, rows, "", func(ctx context.Context) error {
		return t.cfg.Store.AddPairings(ctx, tr.ID, t.cfg.Instance, round, ps, rows)
	})
}

// finish ends a tournament: its winner is the first of the standings, if
// anybody scored.
func (t *Tournaments) finish(ctx context.Context, tr *store.Tournament, entries []store.TournamentEntry, ps []store.TournamentPairing, now time.Time) error {
	es, lps := logic(entries, ps)
	winner := ""
	if st := tournament.Standings(tournament.Format(tr.Format), es, lps); len(st) > 0 && st[0].Points > 0 {
		winner = st[0].Player
	}
	t.cfg.Logger.Info("tournament finished", "tournament", tr.ID, "winner", winner, "pairings", len(ps))
	return t.cfg.Store.FinishTournament(ctx, tr.ID, t.cfg.Instance, winner, now.UnixMilli())
}
