package tournaments

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/lobby"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/tournament"
)

// createRequest is the body of POST /api/tournaments.
type createRequest struct {
	Name   string `json:"name"`
	Game   string `json:"game"`
	Rules  string `json:"rules"`
	Format string `json:"format"`
	Clock  string `json:"clock"`
	Rated  bool   `json:"rated"`
	Bots   bool   `json:"bots"`
	// Minutes is an arena's length, Rounds a Swiss's number of rounds (0:
	// tournament.DefaultSwissRounds of the players at the start).
	Minutes int `json:"minutes"`
	Rounds  int `json:"rounds"`
	// Starts is when it begins, ms since the epoch; 0 for now.
	Starts int64 `json:"starts"`
}

// refusal is a request's mistake, answered with its status.
type refusal struct {
	status int
	err    error
}

func (r refusal) Error() string { return r.err.Error() }

func refuse(status int, code, msg string, vars ...string) error {
	return refusal{status, wire.Refuse(code, msg, vars...)}
}

// answer answers err: a refusal with its status, anything else as a
// failure.
func (t *Tournaments) answer(w http.ResponseWriter, r *http.Request, err error) {
	var rf refusal
	if errors.As(err, &rf) {
		jsonapi.WriteRefusal(w, rf.status, rf.err)
		return
	}
	t.fail(w, r, err)
}

// check reads a request into a tournament's row, as of now; an arena's
// minute lasts minute.
func check(req createRequest, now time.Time, minute time.Duration) (*store.Tournament, error) {
	name := strings.TrimSpace(req.Name)
	if n := utf8.RuneCountInString(name); n < 3 || n > 40 {
		return nil, refuse(http.StatusBadRequest, "tournament_name", "a tournament's name has 3 to 40 characters")
	}
	set, err := lobby.CheckSettings(req.Game, req.Rules, req.Clock, req.Rated)
	if err != nil {
		return nil, refusal{http.StatusBadRequest, err}
	}
	if strings.TrimSpace(req.Clock) == "" {
		return nil, refuse(http.StatusBadRequest, "tournament_clock", "a tournament's games have a clock: minutes+seconds such as 3+2, or days a move such as 3d")
	}
	row := &store.Tournament{ID: ids.New(), Name: name, Game: set.Rules.Spec().Name, Rules: set.Rules.Settings().String(), Format: req.Format,
		Clock: strings.TrimSpace(req.Clock), Rated: req.Rated, Bots: req.Bots, Starts: req.Starts, Created: now.UnixMilli()}
	if row.Starts == 0 {
		row.Starts = now.UnixMilli()
	}
	if row.Starts < now.Add(-time.Minute).UnixMilli() || row.Starts > now.Add(MaxAhead).UnixMilli() {
		return nil, refuse(http.StatusBadRequest, "tournament_start", "a tournament starts between now and 30 days ahead")
	}
	row.Starts = max(row.Starts, now.UnixMilli())
	switch tournament.Format(req.Format) {
	case tournament.Arena:
		if req.Minutes < MinArena || req.Minutes > MaxArena {
			return nil, refuse(http.StatusBadRequest, "tournament_minutes", fmt.Sprintf("an arena lasts %d to %d minutes", MinArena, MaxArena),
				"min", strconv.Itoa(MinArena), "max", strconv.Itoa(MaxArena))
		}
		row.Ends = row.Starts + int64(req.Minutes)*minute.Milliseconds()
	case tournament.Swiss:
		if req.Rounds != 0 && (req.Rounds < MinRounds || req.Rounds > MaxRounds) {
			return nil, refuse(http.StatusBadRequest, "tournament_rounds", fmt.Sprintf("a Swiss has %d to %d rounds", MinRounds, MaxRounds),
				"min", strconv.Itoa(MinRounds), "max", strconv.Itoa(MaxRounds))
		}
		row.Rounds = req.Rounds
	case tournament.RoundRobin:
	default:
		return nil, refuse(http.StatusBadRequest, "tournament_format", fmt.Sprintf("format %q: want arena, swiss or roundrobin", req.Format))
	}
	return row, nil
}

func (t *Tournaments) handleCreate(w http.ResponseWriter, r *http.Request) {
	var req createRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	now := time.Now()
	row, err := check(req, now, t.cfg.ArenaMinute)
	if err == nil {
		row.Creator, err = t.player(r)
	}
	if err != nil {
		t.answer(w, r, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), t.cfg.WriteTimeout)
	defer cancel()
	if err := t.cfg.Store.CreateTournament(ctx, row, MaxOpen); err != nil {
		if errors.Is(err, store.ErrTooManyTournaments) {
			t.answer(w, r, refuse(http.StatusConflict, "tournament_limit", fmt.Sprintf("you have %d tournaments not finished: wait for one to end", MaxOpen),
				"max", strconv.Itoa(MaxOpen)))
			return
		}
		t.fail(w, r, err)
		return
	}
	t.cfg.Logger.Info("tournament created", "tournament", row.ID, "format", row.Format, "rules", row.Game+" "+row.Rules, "clock", row.Clock)
	jsonapi.Write(w, http.StatusCreated, map[string]string{"id": row.ID, "url": "/tournaments/" + row.ID})
}

// player is the logged-in account of a request that may play, or a
// refusal.
func (t *Tournaments) player(r *http.Request) (string, error) {
	userID := t.cfg.Identities.UserID(r)
	if userID == "" {
		return "", refusal{http.StatusForbidden, wire.Forbid("tournament_login", "log in to make or enter a tournament")}
	}
	if t.cfg.Moderation != nil {
		if err := t.cfg.Moderation.CheckPlay(r.Context(), userID); err != nil {
			return "", refusal{http.StatusForbidden, err}
		}
	}
	return userID, nil
}
