package tournaments

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/lobby"
	"github.com/magneton-games/magneton/server/ratings"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/tournament"
)

// entryAnswer is the answer of join, withdraw, pause and start.
type entryAnswer struct {
	ID string `json:"id"`
	Me string `json:"me,omitempty"`
}

// entered reads the path's tournament and the caller's account, which
// must be logged in; it answers the client itself when it returns false.
func (t *Tournaments) entered(w http.ResponseWriter, r *http.Request) (*store.Tournament, string, bool) {
	id, ok := pathID(w, r)
	if !ok {
		return nil, "", false
	}
	userID, err := t.player(r)
	if err != nil {
		t.answer(w, r, err)
		return nil, "", false
	}
	tr, err := t.cfg.Store.Tournament(r.Context(), id)
	if errors.Is(err, store.ErrNoTournament) {
		jsonapi.WriteCoded(w, http.StatusNotFound, "no_tournament", "no such tournament")
		return nil, "", false
	}
	if err != nil {
		t.fail(w, r, err)
		return nil, "", false
	}
	if tr.Status == store.TournamentFinished {
		t.answer(w, r, refuse(http.StatusConflict, "tournament_over", "the tournament is over"))
		return nil, "", false
	}
	return tr, userID, true
}

func (t *Tournaments) handleJoin(w http.ResponseWriter, r *http.Request) {
	tr, userID, ok := t.entered(w, r)
	if !ok {
		return
	}
	e, err := t.mayJoin(r.Context(), tr, userID)
	if err == nil {
		ctx, cancel := context.WithTimeout(r.Context(), t.cfg.WriteTimeout)
		defer cancel()
		err = t.cfg.Store.JoinTournament(ctx, tr.ID, e)
		if errors.Is(err, store.ErrEntered) {
			err = refuse(http.StatusConflict, "tournament_entered", "you are in this tournament already")
		}
	}
	if err != nil {
		t.answer(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, entryAnswer{ID: tr.ID, Me: "entered"})
}

// mayJoin is the entry of userID in tr, or a refusal.
func (t *Tournaments) mayJoin(ctx context.Context, tr *store.Tournament, userID string) (store.TournamentEntry, error) {
	e := store.TournamentEntry{User: userID, JoinedRound: 1, Joined: time.Now().UnixMilli()}
	if t.cfg.IsBot != nil {
		bot, err := t.cfg.IsBot(ctx, userID)
		if err != nil {
			return e, err
		}
		if bot && !tr.Bots {
			return e, refusal{http.StatusForbidden, wire.Forbid("tournament_no_bots", "this tournament is for people: bots may not enter")}
		}
	}
	switch tournament.Format(tr.Format) {
	case tournament.RoundRobin:
		if tr.Status != store.TournamentCreated {
			return e, refuse(http.StatusConflict, "tournament_started", "a round robin's players are fixed once it has started")
		}
		if tr.Players >= MaxRRPlayers {
			return e, refuse(http.StatusConflict, "tournament_full", fmt.Sprintf("a round robin has at most %d players", MaxRRPlayers),
				"max", strconv.Itoa(MaxRRPlayers))
		}
	case tournament.Swiss:
		if tr.Status == store.TournamentStarted {
			e.JoinedRound = tr.Round + 1
		}
	}
	e.Rating = 1500
	if set, err := lobby.CheckSettings(tr.Game, tr.Rules, tr.Clock, false); err == nil {
		if family, err := ratings.Family(set.Rules); err == nil {
			r, err := ratings.Of(ctx, t.cfg.Store, userID, tr.Game, family)
			if err != nil {
				return e, err
			}
			e.Rating = int(r.R + 0.5)
		}
	}
	return e, nil
}

func (t *Tournaments) handleWithdraw(w http.ResponseWriter, r *http.Request) {
	t.setEntry(w, r, false, func(e *store.TournamentEntry) (string, error) {
		e.Withdrawn, e.Paused = true, false
		return "withdrawn", nil
	})
}

// pauseRequest is the body of POST .../pause.
type pauseRequest struct {
	Paused bool `json:"paused"`
}

func (t *Tournaments) handlePause(w http.ResponseWriter, r *http.Request) {
	var req pauseRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	t.setEntry(w, r, true, func(e *store.TournamentEntry) (string, error) {
		if e.Withdrawn {
			return "", refuse(http.StatusConflict, "tournament_not_entered", "you are not in this tournament")
		}
		e.Paused = req.Paused
		if e.Paused {
			return "paused", nil
		}
		return "entered", nil
	})
}

// setEntry changes the caller's entry with change, which returns the
// entry's new state in a word, or a refusal; arenaOnly refuses it in the
// other formats.
func (t *Tournaments) setEntry(w http.ResponseWriter, r *http.Request, arenaOnly bool, change func(*store.TournamentEntry) (string, error)) {
	tr, userID, ok := t.entered(w, r)
	if !ok {
		return
	}
	var err error
	if arenaOnly && tournament.Format(tr.Format) != tournament.Arena {
		err = refuse(http.StatusConflict, "tournament_not_arena", "only an arena's players pause")
	} else {
		err = t.changeEntry(r.Context(), tr, userID, change)
	}
	if err != nil {
		t.answer(w, r, err)
		return
	}
	entries, err := t.cfg.Store.TournamentEntries(r.Context(), tr.ID)
	if err != nil {
		t.fail(w, r, err)
		return
	}
	d := detail(tr, entries, nil, userID)
	jsonapi.Write(w, http.StatusOK, entryAnswer{ID: tr.ID, Me: d.Me})
}

// changeEntry changes userID's entry in tr with change.
func (t *Tournaments) changeEntry(ctx context.Context, tr *store.Tournament, userID string, change func(*store.TournamentEntry) (string, error)) error {
	entries, err := t.cfg.Store.TournamentEntries(ctx, tr.ID)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.User != userID {
			continue
		}
		if _, err := change(&e); err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(ctx, t.cfg.WriteTimeout)
		defer cancel()
		return t.cfg.Store.SetEntry(ctx, tr.ID, userID, e.Withdrawn, e.Paused)
	}
	return refuse(http.StatusConflict, "tournament_not_entered", "you are not in this tournament")
}

func (t *Tournaments) handleStart(w http.ResponseWriter, r *http.Request) {
	tr, userID, ok := t.entered(w, r)
	if !ok {
		return
	}
	var err error
	switch {
	case tr.Creator != userID:
		err = refusal{http.StatusForbidden, wire.Forbid("tournament_not_creator", "only the tournament's creator starts it early")}
	case tournament.Format(tr.Format) == tournament.Arena:
		err = refuse(http.StatusConflict, "tournament_arena_start", "an arena starts at its time")
	case tr.Status != store.TournamentCreated:
		err = refuse(http.StatusConflict, "tournament_started", "the tournament has started")
	case tr.Players < MinPlayers:
		err = refuse(http.StatusConflict, "tournament_too_few", fmt.Sprintf("a tournament starts with %d players or more", MinPlayers),
			"min", strconv.Itoa(MinPlayers))
	}
	if err == nil {
		ctx, cancel := context.WithTimeout(r.Context(), t.cfg.WriteTimeout)
		defer cancel()
		err = t.cfg.Store.StartSoon(ctx, tr.ID, time.Now().UnixMilli())
	}
	if err != nil {
		t.answer(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, entryAnswer{ID: tr.ID})
}
