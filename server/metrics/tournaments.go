package metrics

import (
	"context"
	"time"

	"github.com/magneton-games/magneton/store"
)

// tournamentOps are the operations of store.Tournaments, in StoreOps.
var tournamentOps = []string{
	"create_tournament",
	"schedule_tournament",
	"tournament",
	"tournament_list",
	"tournament_entries",
	"tournament_pairings",
	"join_tournament",
	"set_entry",
	"acquire_tournament",
	"start_tournament",
	"add_pairings",
	"record_results",
	"finish_tournament",
	"start_soon",
	"release_tournaments",
}

func init() { StoreOps = append(StoreOps, tournamentOps...) }

func (t timed) CreateTournament(ctx context.Context, tr *store.Tournament, maxOpen int) error {
	defer t.since("create_tournament", time.Now())
	return t.st.CreateTournament(ctx, tr, maxOpen)
}

func (t timed) ScheduleTournament(ctx context.Context, tr *store.Tournament) (bool, error) {
	defer t.since("schedule_tournament", time.Now())
	return t.st.ScheduleTournament(ctx, tr)
}

func (t timed) Tournament(ctx context.Context, id string) (*store.Tournament, error) {
	defer t.since("tournament", time.Now())
	return t.st.Tournament(ctx, id)
}

func (t timed) TournamentList(ctx context.Context, q store.TournamentQuery) ([]*store.Tournament, error) {
	defer t.since("tournament_list", time.Now())
	return t.st.TournamentList(ctx, q)
}

func (t timed) TournamentEntries(ctx context.Context, id string) ([]store.TournamentEntry, error) {
	defer t.since("tournament_entries", time.Now())
	return t.st.TournamentEntries(ctx, id)
}

func (t timed) TournamentPairings(ctx context.Context, id string) ([]store.TournamentPairing, error) {
	defer t.since("tournament_pairings", time.Now())
	return t.st.TournamentPairings(ctx, id)
}

func (t timed) JoinTournament(ctx context.Context, id string, e store.TournamentEntry) error {
	defer t.since("join_tournament", time.Now())
	return t.st.JoinTournament(ctx, id, e)
}

func (t timed) SetEntry(ctx context.Context, id, userID string, withdrawn, paused bool) error {
	defer t.since("set_entry", time.Now())
	return t.st.SetEntry(ctx, id, userID, withdrawn, paused)
}

func (t timed) AcquireTournament(ctx context.Context, id, instance string, deadBefore int64) (string, error) {
	defer t.since("acquire_tournament", time.Now())
	return t.st.AcquireTournament(ctx, id, instance, deadBefore)
}

func (t timed) StartTournament(ctx context.Context, id, director string, rounds int, at int64) error {
	defer t.since("start_tournament", time.Now())
	return t.st.StartTournament(ctx, id, director, rounds, at)
}

func (t timed) AddPairings(ctx context.Context, id, director string, round int, ps []store.TournamentPairing, games []*store.Game) error {
	defer t.since("add_pairings", time.Now())
	return t.st.AddPairings(ctx, id, director, round, ps, games)
}

func (t timed) RecordResults(ctx context.Context, id, director string, results map[int]int) error {
	defer t.since("record_results", time.Now())
	return t.st.RecordResults(ctx, id, director, results)
}

func (t timed) FinishTournament(ctx context.Context, id, director, winner string, at int64) error {
	defer t.since("finish_tournament", time.Now())
	return t.st.FinishTournament(ctx, id, director, winner, at)
}

func (t timed) StartSoon(ctx context.Context, id string, at int64) error {
	defer t.since("start_soon", time.Now())
	return t.st.StartSoon(ctx, id, at)
}

func (t timed) ReleaseTournaments(ctx context.Context, instance string) error {
	defer t.since("release_tournaments", time.Now())
	return t.st.ReleaseTournaments(ctx, instance)
}
