package lobby

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/ratings"
	"github.com/magneton-games/magneton/server/round"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// CorrespondenceDays are the correspondence clocks offered: days a move.
var CorrespondenceDays = []int{1, 2, 3, 5, 7, 14}

// createRequest is the body of POST /api/games.
type createRequest struct {
	Game     string `json:"game"`
	Rules    string `json:"rules"`
	Opponent string `json:"opponent"`
	Level    int    `json:"level"`
	// Computer is where the computer thinks: "server" (or "") for the
	// server's search, "browser" for the player's page, which plays its
	// moves with the browser's engine (casual games only, as every game
	// against the computer).
	Computer string `json:"computer"`
	Color    string `json:"color"`
	Clock    string `json:"clock"`
	Public   bool   `json:"public"`
	// Rated games: between accounts, with a variant's rules; the bounds (0
	// for none) on the joiner's rating.
	Rated     bool `json:"rated"`
	MinRating int  `json:"min_rating"`
	MaxRating int  `json:"max_rating"`
}

// newGame is a checked request: what the game's row is made of.
type newGame struct {
	rules            game.Rules
	seat             int // the creator's
	initial, inc     time.Duration
	perMove          bool
	family, rating   string // a rated game's, and the creator's rating as shown
	opponent, clock  string
	place            string // where the computer thinks (live.ComputerServer, ComputerBrowser), "" against a person
	level, min, max  int
	public, rated    bool
	creator          live.Player
	invite, seatCode string // the tokens of the invitation and the creator's seat
}

// ParseClock reads "5+3": minutes (a decimal) and seconds of increment, or
// "3d", a correspondence clock of three days a move (perMove).
func ParseClock(text string) (initial, inc time.Duration, perMove bool, err error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return 0, 0, false, nil
	}
	if n, ok := strings.CutSuffix(text, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || !slices.Contains(CorrespondenceDays, days) {
			return 0, 0, false, fmt.Errorf("clock %q: a correspondence clock is %s days a move, such as 3d", text, joinInts(CorrespondenceDays))
		}
		return time.Duration(days) * 24 * time.Hour, 0, true, nil
	}
	m, sec, ok := strings.Cut(text, "+")
	if !ok {
		sec = "0"
	}
	mins, err1 := strconv.ParseFloat(strings.TrimSpace(m), 64)
	secs, err2 := strconv.ParseFloat(strings.TrimSpace(sec), 64)
	if err1 != nil || err2 != nil || !(mins > 0 && mins <= 180) || !(secs >= 0 && secs <= 60) {
		return 0, 0, false, fmt.Errorf("clock %q: want minutes+seconds such as 5+3 (minutes above 0 up to 180, increment 0 to 60 s), or days a move such as 3d", text)
	}
	return time.Duration(mins * float64(time.Minute)), time.Duration(secs * float64(time.Second)), false, nil
}

// joinInts writes 1, 2 or 3.
func joinInts(ns []int) string {
	var b strings.Builder
	for i, n := range ns {
		switch {
		case i == len(ns)-1 && i > 0:
			b.WriteString(" or ")
		case i > 0:
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}

// badRequest is a request's mistake: answered 400, or with its own status.
type badRequest struct {
	status int
	err    error
}

func (b badRequest) Error() string { return b.err.Error() }

func bad(format string, args ...any) error {
	return badRequest{http.StatusBadRequest, fmt.Errorf(format, args...)}
}

// check reads a request's game, opponent, colour and clock; noServer says
// that the server's computer is off.
func check(req createRequest, noServer bool) (newGame, error) {
	ng := newGame{opponent: req.Opponent, level: req.Level, public: req.Public, clock: req.Clock}
	var err error
	if ng.rules, err = games.Rules(req.Game, req.Rules); err != nil {
		return ng, bad("%s", err)
	}
	switch req.Opponent {
	case live.OpponentComputer:
		if ng.level == 0 {
			ng.level = 3
		}
		if ng.level < 1 || ng.level > 8 {
			return ng, bad("level %d: want 1 to 8", ng.level)
		}
		if err := ng.checkPlace(req.Computer, noServer); err != nil {
			return ng, err
		}
	case live.OpponentHuman:
		ng.level = 0
		if req.Computer != "" {
			return ng, bad("computer %q: a game against a person has no computer", req.Computer)
		}
	default:
		return ng, bad("opponent %q: want computer or human", req.Opponent)
	}
	switch req.Color {
	case "first":
	case "second":
		ng.seat = 1
	case "random", "":
		ng.seat = rand.IntN(2)
	default:
		return ng, bad("color %q: want first, second or random", req.Color)
	}
	if ng.initial, ng.inc, ng.perMove, err = ParseClock(req.Clock); err != nil {
		return ng, bad("%s", err)
	}
	if ng.perMove && req.Opponent == live.OpponentComputer {
		return ng, badRequest{http.StatusBadRequest, wire.Refuse("correspondence_computer", "a correspondence clock (days a move) is for games against a person")}
	}
	return ng, nil
}

// checkPlace reads where the computer thinks: the server's computer
// (refused when it is off, noServer) or the player's browser.
func (ng *newGame) checkPlace(place string, noServer bool) error {
	switch place {
	case live.ComputerServer, "":
		if noServer {
			return badRequest{http.StatusConflict, live.ErrServerComputerOff}
		}
		ng.place = live.ComputerServer
	case live.ComputerBrowser:
		ng.place = live.ComputerBrowser
	default:
		return bad("computer %q: want server or browser", place)
	}
	return nil
}

// checkRated reads a rated request's family and rating bounds, and the
// creator's rating.
func (l *Lobby) checkRated(ctx context.Context, ng *newGame, req createRequest) error {
	if !req.Rated {
		if req.MinRating != 0 || req.MaxRating != 0 {
			return badRequest{http.StatusBadRequest, wire.Refuse("range_unrated", "a rating range is for rated games")}
		}
		return nil
	}
	switch {
	case req.Opponent != live.OpponentHuman:
		return badRequest{http.StatusBadRequest, wire.Refuse("rated_computer", "games against the computer are never rated")}
	case ng.creator.User == "":
		return badRequest{http.StatusForbidden, wire.Forbid("rated_login", "log in to play a rated game")}
	}
	var err error
	if ng.family, err = ratings.Family(ng.rules); err != nil {
		return badRequest{http.StatusBadRequest, err}
	}
	if err := ratings.CheckRange(req.MinRating, req.MaxRating); err != nil {
		return badRequest{http.StatusBadRequest, err}
	}
	mine, err := ratings.Of(ctx, l.cfg.Store, ng.creator.User, ng.rules.Spec().Name, ng.family)
	if err != nil {
		return err
	}
	ng.rated, ng.rating, ng.min, ng.max = true, mine.String(), req.MinRating, req.MaxRating
	return nil
}

// row is the new game's row.
func (ng *newGame) row(now time.Time) *store.Game {
	start := ng.rules.Start().String()
	row := &store.Game{
		ID: ids.New(), Game: ng.rules.Spec().Name, Rules: ng.rules.Settings().String(), Start: start, Opponent: ng.opponent, Level: ng.level, ComputerPlace: ng.place,
		Public: ng.public, Status: store.Playing, Result: game.Ongoing.String(), Position: start,
		ClockInitial: ng.initial, ClockIncrement: ng.inc, PerMove: ng.perMove, Remaining: [2]time.Duration{ng.initial, ng.initial}, ClockAt: now.UnixMilli(),
		DrawOffer: -1, RematchBy: -1, TakebackBy: -1, Created: now.UnixMilli(), Updated: now.UnixMilli(),
	}
	seat, who := ng.seat, ng.creator
	ng.seatCode = ids.Token()
	row.Seats[seat] = ids.Hash(ng.seatCode)
	row.Players[seat], row.Users[seat], row.Guests[seat], row.Bots[seat] = who.Name, who.User, who.Guest, who.Bot
	row.Rated, row.Family, row.Ratings[seat], row.MinRating, row.MaxRating = ng.rated, ng.family, ng.rating, ng.min, ng.max
	if ng.opponent == live.OpponentComputer {
		row.Players[1-seat] = live.ComputerLabel(ng.level)
	} else {
		ng.invite = ids.Token()
		row.Invite = ids.Hash(ng.invite)
		row.Status = store.Waiting
	}
	return row
}

func (l *Lobby) handleCreate(w http.ResponseWriter, r *http.Request) {
	var req createRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	ip := l.cfg.Proxies.ClientIP(r)
	if !l.cfg.Clients.AllowGame(ip) {
		max := fmt.Sprintf("%g", l.cfg.Clients.Limits().GamesPerMinute)
		jsonapi.WriteCoded(w, http.StatusTooManyRequests, "games_fast", "too many new games from your address: at most "+max+" a minute; try again in a moment", "max", max)
		return
	}
	ng, err := check(req, l.cfg.Play.NoServerComputer)
	if err == nil && l.isBot(r) {
		err = errBotOnly
	}
	if err == nil {
		if ng.creator, err = l.cfg.Identities.Who(w, r); err == nil {
			err = l.mayPlay(r, ng.creator.User)
		}
	}
	if err == nil {
		err = l.checkRated(r.Context(), &ng, req)
	}
	if err != nil {
		l.refuse(w, r, err)
		return
	}
	row := ng.row(time.Now())
	if !l.createGame(w, r, row, ip) {
		return
	}
	l.cfg.Logger.Info("game created", "game", row.ID, "rules", row.Game+" "+row.Rules, "opponent", row.Opponent, "level", row.Level, "computer", row.ComputerPlace, "clock", ng.clock)
	l.cfg.Identities.SetSeatCookie(w, r, row.ID, ng.seatCode)
	out := wire.Created{ID: row.ID, URL: "/g/" + row.ID}
	if ng.invite != "" {
		out.Invite = "/g/" + row.ID + "?invite=" + ng.invite
	}
	jsonapi.Write(w, http.StatusCreated, out)
}

// createGame stores a new game and takes it in memory (Rooms.Create), for the
// client ip; false when it has answered an error.
func (l *Lobby) createGame(w http.ResponseWriter, r *http.Request, row *store.Game, ip string) bool {
	ctx, cancel := context.WithTimeout(r.Context(), l.cfg.WriteTimeout)
	defer cancel()
	if err := l.cfg.Rooms.Create(ctx, row, ip); err != nil {
		if errors.Is(err, round.ErrClosing) {
			jsonapi.WriteCoded(w, http.StatusServiceUnavailable, "shutting_down", "the server is shutting down")
			return false
		}
		l.fail(w, r, err)
		return false
	}
	return true
}

// mayPlay refuses a banned or closed account; for one in good standing it
// notes where it is seen, for the flags of rated games.
func (l *Lobby) mayPlay(r *http.Request, userID string) error {
	mod := l.cfg.Moderation
	if mod == nil || userID == "" {
		return nil
	}
	if err := mod.CheckPlay(r.Context(), userID); err != nil {
		return badRequest{http.StatusForbidden, err}
	}
	mod.Seen(r.Context(), userID, l.cfg.Proxies.ClientIP(r), identity.Browser(r))
	return nil
}

// refuse answers a request's mistake, or fails with another error.
func (l *Lobby) refuse(w http.ResponseWriter, r *http.Request, err error) {
	var b badRequest
	if errors.As(err, &b) {
		jsonapi.WriteRefusal(w, b.status, b.err)
		return
	}
	l.fail(w, r, err)
}
