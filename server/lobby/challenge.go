package lobby

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/ratings"
	"github.com/magneton-games/magneton/server/round"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// challengeRequest is the body of POST /api/challenges: a game offered
// to one named account.
type challengeRequest struct {
	To    string `json:"to"`
	Game  string `json:"game"`
	Rules string `json:"rules"`
	Clock string `json:"clock"`
	Color string `json:"color"`
	Rated bool   `json:"rated"`
}

// Challenged is the answer to a challenge: the game reserved for the
// account challenged, which it accepts or declines.
type Challenged struct {
	wire.Created
	To string `json:"to"`
}

// errBotOnly refuses a bot the seeks and open games: it plays the
// challenges to it, and those it makes, through the API.
var errBotOnly = badRequest{http.StatusForbidden, wire.Forbid("bot_api_only", "a bot account plays only challenges, through the API (POST /api/challenges)")}

// isBot reports whether a request comes from a bot account.
func (l *Lobby) isBot(r *http.Request) bool {
	u, err := l.cfg.Identities.User(r)
	return err == nil && u != nil && u.Bot
}

// account returns the logged-in account of a challenge's request, or a
// refusal.
func (l *Lobby) account(r *http.Request) (*store.User, error) {
	u, err := l.cfg.Identities.User(r)
	if err == nil && u == nil {
		err = badRequest{http.StatusUnauthorized, wire.Forbid("challenge_login", "log in to challenge a player or to answer a challenge")}
	}
	return u, err
}

// checkBotGames refuses a bot another game past BotGames at once.
func (l *Lobby) checkBotGames(ctx context.Context, u *store.User) error {
	if !u.Bot || l.cfg.BotGames <= 0 {
		return nil
	}
	games, err := l.cfg.Store.PlayerGames(ctx, u.ID, "")
	if err != nil {
		return err
	}
	if len(games) >= l.cfg.BotGames {
		max := fmt.Sprint(l.cfg.BotGames)
		return badRequest{http.StatusTooManyRequests, wire.Refuse("bot_games", "a bot plays at most "+max+" games at once (its challenges waiting count)", "max", max)}
	}
	return nil
}

func (l *Lobby) handleChallenge(w http.ResponseWriter, r *http.Request) {
	var req challengeRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	ng, target, err := l.checkChallenge(w, r, req)
	if err != nil {
		l.refuse(w, r, err)
		return
	}
	row := ng.row(time.Now())
	if !l.createGame(w, r, row, l.cfg.Proxies.ClientIP(r)) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), l.cfg.WriteTimeout)
	defer cancel()
	if err := l.cfg.Store.CreateChallenge(ctx, store.Challenge{GameID: row.ID, From: ng.creator.User, To: target.ID, Created: row.Created}); err != nil {
		l.fail(w, r, err)
		return
	}
	l.cfg.Logger.Info("challenge made", "game", row.ID, "from", ng.creator.User, "to", target.ID, "rules", row.Game+" "+row.Rules, "family", row.Family)
	l.cfg.Identities.SetSeatCookie(w, r, row.ID, ng.seatCode)
	jsonapi.Write(w, http.StatusCreated, Challenged{Created: wire.Created{ID: row.ID, URL: "/g/" + row.ID}, To: target.Name})
}

// checkChallenge reads a challenge: its game as POST /api/games reads
// one against a person, its challenger (logged in) and the account
// challenged (neither blocking the other). A rated challenge between two
// bots is in the bots' pool (store.BotFamilyPrefix).
func (l *Lobby) checkChallenge(w http.ResponseWriter, r *http.Request, req challengeRequest) (newGame, *store.User, error) {
	ng, err := check(createRequest{Game: req.Game, Rules: req.Rules, Opponent: live.OpponentHuman, Color: req.Color, Clock: req.Clock}, l.cfg.Play.NoServerComputer)
	if err != nil {
		return ng, nil, err
	}
	me, err := l.account(r)
	if err != nil {
		return ng, nil, err
	}
	target, err := l.cfg.Store.UserByName(r.Context(), req.To)
	if errors.Is(err, store.ErrNoUser) {
		return ng, nil, badRequest{http.StatusNotFound, wire.Refuse("challenge_nobody", fmt.Sprintf("no player is called %q", req.To), "name", req.To)}
	}
	if err != nil {
		return ng, nil, err
	}
	if target.ID == me.ID {
		return ng, nil, badRequest{http.StatusBadRequest, wire.Refuse("challenge_self", "you cannot challenge yourself")}
	}
	if ng.creator, err = l.cfg.Identities.Who(w, r); err != nil {
		return ng, nil, err
	}
	if err := l.mayPlay(r, me.ID); err != nil {
		return ng, nil, err
	}
	if l.cfg.Moderation != nil {
		if err := l.cfg.Moderation.CheckPlay(r.Context(), target.ID); err != nil {
			return ng, nil, badRequest{http.StatusForbidden, wire.Forbid("challenge_unavailable", fmt.Sprintf("%s cannot play now", target.Name), "name", target.Name)}
		}
		if err := l.cfg.Moderation.CheckPair(r.Context(), me.ID, target.ID); err != nil {
			return ng, nil, badRequest{http.StatusForbidden, err}
		}
	}
	if err := l.checkBotGames(r.Context(), me); err != nil {
		return ng, nil, err
	}
	if err := l.checkRated(r.Context(), &ng, createRequest{Opponent: live.OpponentHuman, Rated: req.Rated}); err != nil {
		return ng, nil, err
	}
	if ng.rated && me.Bot && target.Bot {
		ng.family = store.BotFamilyPrefix + ng.family
		mine, err := ratings.Of(r.Context(), l.cfg.Store, me.ID, ng.rules.Spec().Name, ng.family)
		if err != nil {
			return ng, nil, err
		}
		ng.rating = mine.String()
	}
	return ng, target, nil
}

// challengeOf finds a challenge to (or, with byEither, from) the
// request's account.
func (l *Lobby) challengeOf(r *http.Request, id string, byEither bool) (*store.User, store.Challenge, error) {
	u, err := l.account(r)
	if err != nil {
		return nil, store.Challenge{}, err
	}
	c, err := l.cfg.Store.Challenge(r.Context(), id)
	if errors.Is(err, store.ErrNoChallenge) {
		return u, c, badRequest{http.StatusNotFound, wire.Refuse("challenge_none", "no such challenge", "id", id)}
	}
	if err != nil {
		return u, c, err
	}
	if c.To != u.ID && !(byEither && c.From == u.ID) {
		return u, c, badRequest{http.StatusForbidden, wire.Forbid("challenge_not_yours", "this challenge is not to you")}
	}
	if c.Declined != 0 {
		return u, c, errGone
	}
	return u, c, nil
}

// challengeGame finds the challenge of a request's path and its game,
// answering the client itself when it cannot: the challenge must be to
// the request's account (or, with byEither, from it).
func (l *Lobby) challengeGame(w http.ResponseWriter, r *http.Request, byEither bool) (*store.User, store.Challenge, *round.Session, bool) {
	id, ok := jsonapi.PathIDAndEmptyBody(w, r)
	if !ok {
		return nil, store.Challenge{}, nil, false
	}
	u, c, err := l.challengeOf(r, id, byEither)
	if err != nil {
		l.refuse(w, r, err)
		return nil, c, nil, false
	}
	s, err := l.cfg.Rooms.Session(r.Context(), id, false)
	if err != nil {
		l.fail(w, r, err)
		return nil, c, nil, false
	}
	return u, c, s, true
}

// errGone refuses a challenge whose game is no longer waiting.
var errGone = badRequest{http.StatusConflict, wire.Refuse("challenge_gone", "this challenge was declined or withdrawn")}

func (l *Lobby) handleAccept(w http.ResponseWriter, r *http.Request) {
	u, _, s, ok := l.challengeGame(w, r, false)
	if !ok {
		return
	}
	row := s.Row()
	if seat := identity.SeatOf(r, &row, u.ID); seat >= 0 {
		jsonapi.Write(w, http.StatusOK, wire.Joined{ID: row.ID, Seat: seat}) // accepted already
		return
	}
	err := l.checkBotGames(r.Context(), u)
	if err == nil && row.Status != store.Waiting {
		err = errGone
	}
	if err == nil {
		err = l.mayJoin(r, row, u.ID)
	}
	if err != nil {
		l.refuse(w, r, err)
		return
	}
	who, err := l.cfg.Identities.Who(w, r)
	if err != nil {
		l.fail(w, r, err)
		return
	}
	l.seatJoiner(w, r, s, row.Invite, who)
}

// handleDecline declines a challenge (its challenger withdraws it so
// too): the game is aborted.
func (l *Lobby) handleDecline(w http.ResponseWriter, r *http.Request) {
	_, c, s, ok := l.challengeGame(w, r, true)
	if !ok {
		return
	}
	row := s.Row()
	id := row.ID
	if row.Status != store.Waiting {
		l.refuse(w, r, errGone)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), l.cfg.WriteTimeout)
	defer cancel()
	if err := l.cfg.Store.DeclineChallenge(ctx, id, time.Now().UnixMilli()); err != nil {
		l.fail(w, r, err)
		return
	}
	seat := 0
	if row.Users[1] == c.From {
		seat = 1
	}
	if err := l.cfg.Rooms.ActAnywhere(s, seat, wire.ClientMsg{Type: "cancel"}); err != nil {
		l.fail(w, r, err)
		return
	}
	l.cfg.Logger.Info("challenge declined", "game", id)
	jsonapi.Write(w, http.StatusOK, map[string]any{"id": id, "status": store.Aborted})
}
