package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"mime"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/record"
	"github.com/magneton-games/magneton/store"
)

const (
	opponentComputer = "computer"
	opponentHuman    = "human"
	// maxBody bounds every request body.
	maxBody = 16 << 10
)

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.handleHealth)
	mux.HandleFunc("GET /readyz", s.handleReady)
	mux.HandleFunc("GET /api/meta", s.handleMeta)
	mux.HandleFunc("POST /api/games", s.handleCreate)
	mux.HandleFunc("GET /api/games", s.handleList)
	mux.HandleFunc("GET /api/games/{id}", s.handleState)
	mux.HandleFunc("POST /api/games/{id}/join", s.handleJoin)
	mux.HandleFunc("POST /api/games/{id}/cancel", s.handleCancel)
	mux.HandleFunc("GET /api/games/{id}/record", s.handleRecord)
	mux.HandleFunc("GET /api/games/{id}/ws", s.handleWS)
	mux.HandleFunc("GET /api/games/{id}/review", s.handleReview)
	mux.HandleFunc("POST /api/games/{id}/review", s.handleStartReview)
	mux.HandleFunc("POST /api/analyze", s.handleAnalyze)
	mux.HandleFunc("POST /api/play", s.handlePlay)
	mux.HandleFunc("GET /api/account", s.handleAccount)
	mux.HandleFunc("POST /api/account/signup", s.handleSignup)
	mux.HandleFunc("POST /api/account/login", s.handleLogin)
	mux.HandleFunc("POST /api/account/logout", s.handleLogout)
	mux.HandleFunc("POST /api/account/password", s.handlePassword)
	mux.HandleFunc("GET /api/users/{name}", s.handleUser)
	mux.HandleFunc("GET /api/users/{name}/games", s.handleUserGames)
	mux.HandleFunc("GET /api/users/{name}/games.pgn", s.handleUserPGN)
	mux.HandleFunc("GET /api/leaderboard", s.handleLeaderboard)
	mux.HandleFunc("GET /api/my-games", s.handleMyGames)
	mux.HandleFunc("GET /api/account/learn", s.handleLearnProgress)
	mux.HandleFunc("POST /api/account/learn/{game}", s.handleAddLearnProgress)
	mux.HandleFunc("GET /api/puzzles", s.handlePuzzles)
	mux.HandleFunc("GET /api/puzzles/{id}", s.handlePuzzle)
	mux.HandleFunc("POST /api/puzzles/{id}/result", s.handlePuzzleResult)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such API: "+r.Method+" "+r.URL.Path)
	})
	mux.HandleFunc("/", s.handleStatic)
	return mux
}

// writeJSON answers with a JSON value.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, `{"error":"internal error"}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// writeError answers with {"error": msg}.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// writeRefusal answers err with status: a userError with its code and
// values (refusalJSON), anything else as its text.
func writeRefusal(w http.ResponseWriter, status int, err error) {
	var ue userError
	if errors.As(err, &ue) {
		writeJSON(w, status, refusalJSON(ue, "error"))
		return
	}
	writeError(w, status, err.Error())
}

// writeCoded answers a refusal that the front end words itself (see coded).
func writeCoded(w http.ResponseWriter, status int, code, msg string, vars ...string) {
	writeRefusal(w, status, coded(code, msg, vars...))
}

// refusalJSON is a refusal as the protocol answers it: the English text
// under key, and its code and values for a front end that words it in
// the player's language.
func refusalJSON(ue userError, key string) map[string]any {
	out := map[string]any{key: ue.msg}
	if ue.code != "" {
		out["code"] = ue.code
		if len(ue.vars) > 0 {
			out["vars"] = ue.vars
		}
	}
	return out
}

// readJSON reads a request body of at most maxBody bytes into v, refusing
// fields of the wrong type and trailing data. It first refuses what a web
// page of another site could send: a body that is not declared JSON (a
// plain HTML form cannot declare it without the browser asking this
// server first, which it never allows) and a request whose Origin is
// another site.
func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	if !sameOrigin(r) {
		writeError(w, http.StatusForbidden, "cross-site request refused: this API takes requests from its own pages only")
		return false
	}
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, fmt.Sprintf("the body must be JSON with Content-Type: application/json, not %q", r.Header.Get("Content-Type")))
		return false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("the body is over %d bytes", maxBody))
		} else {
			writeError(w, http.StatusBadRequest, "reading the body: "+err.Error())
		}
		return false
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		body = []byte("{}")
	}
	if err := json.Unmarshal(body, v); err != nil {
		writeError(w, http.StatusBadRequest, "bad JSON body: "+jsonError(err))
		return false
	}
	return true
}

// sameOrigin reports whether a request comes from this server's own pages
// or from a program that is no browser: an Origin header, when there is
// one, must name the host the request was sent to, and a browser's
// Sec-Fetch-Site must not say cross-site.
func sameOrigin(r *http.Request) bool {
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, r.Host)
}

// gameError answers an error from a session or the store.
func (s *Server) gameError(w http.ResponseWriter, r *http.Request, err error) {
	var ue userError
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeCoded(w, http.StatusNotFound, "no_game", "no such game")
	case errors.As(err, &ue):
		status := http.StatusConflict
		if ue.msg == errSave.msg {
			status = http.StatusServiceUnavailable
		}
		writeRefusal(w, status, ue)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		writeCoded(w, http.StatusServiceUnavailable, "too_slow", "the request took too long")
	default:
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		writeCoded(w, http.StatusInternalServerError, "internal", "internal error")
	}
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.st.Ping(ctx); err != nil {
		s.log.Error("health check", "err", err)
		http.Error(w, "database not answering", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, "ok\n")
}

// handleReady answers whether the instance takes new clients: not while
// it drains for a shutdown (a load balancer then sends them elsewhere).
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if s.closing.Load() || s.draining.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, "draining\n")
		return
	}
	io.WriteString(w, "ready "+s.cfg.Instance+"\n")
}

type (
	metaSide struct {
		Name   string `json:"name"`
		Letter string `json:"letter"`
	}
	metaOption struct {
		Name    string   `json:"name"`
		Values  []string `json:"values"`
		Summary string   `json:"summary"`
	}
	metaVariant struct {
		Name    string `json:"name"`
		Summary string `json:"summary"`
	}
	metaEnding struct {
		Word string `json:"word"`
		Text string `json:"text"`
	}
	metaFormat struct {
		Name  string `json:"name"`
		Title string `json:"title"`
	}
	metaBoard struct {
		Files int `json:"files"`
		Ranks int `json:"ranks"`
	}
	metaGame struct {
		Name    string      `json:"name"`
		Aliases []string    `json:"aliases"`
		Title   string      `json:"title"`
		Sides   [2]metaSide `json:"sides"`
		// Board is the board's size; squares are numbered file-major
		// (a1 = 0, a2 = 1, ..., b1 = ranks), as game.Board says.
		Board    metaBoard     `json:"board"`
		Options  []metaOption  `json:"options"`
		Variants []metaVariant `json:"variants"`
		Endings  []metaEnding  `json:"endings"`
		Formats  []metaFormat  `json:"formats"`
		Start    string        `json:"start"`
		// LevelRatings: the computer levels' approximate ratings, level 1
		// first.
		LevelRatings [8]int `json:"level_ratings"`
	}
	metaLevel struct {
		Level int    `json:"level"`
		Name  string `json:"name"`
	}
)

func (s *Server) handleMeta(w http.ResponseWriter, r *http.Request) {
	var out struct {
		Games  []metaGame  `json:"games"`
		Levels []metaLevel `json:"levels"`
	}
	for _, gm := range games.All() {
		sp := gm.Spec
		mg := metaGame{Name: sp.Name, Aliases: append([]string{}, sp.Aliases...), Title: sp.Title, Options: []metaOption{}, Variants: []metaVariant{},
			Board: metaBoard{sp.Board.Files, sp.Board.Ranks},
			Start: sp.New(sp.Defaults()).Start().String(), LevelRatings: gm.AI.LevelRatings()}
		for _, e := range sp.AllEndings() {
			mg.Endings = append(mg.Endings, metaEnding{e.Word, e.Text})
		}
		for _, f := range record.Formats(sp) {
			mg.Formats = append(mg.Formats, metaFormat{f.Name, f.Title})
		}
		for i := range mg.Sides {
			mg.Sides[i] = metaSide{sp.SideNames[i], sp.SideLetters[i]}
		}
		for _, o := range sp.Options {
			mg.Options = append(mg.Options, metaOption{o.Name, o.Values, o.Summary})
		}
		for _, v := range sp.Variants {
			mg.Variants = append(mg.Variants, metaVariant{v.Name, v.Summary})
		}
		out.Games = append(out.Games, mg)
	}
	for i, n := range ai.LevelNames {
		out.Levels = append(out.Levels, metaLevel{i + 1, n})
	}
	writeJSON(w, http.StatusOK, out)
}

// createRequest is the body of POST /api/games.
type createRequest struct {
	Game     string `json:"game"`
	Rules    string `json:"rules"`
	Opponent string `json:"opponent"`
	Level    int    `json:"level"`
	Color    string `json:"color"`
	Clock    string `json:"clock"`
	Public   bool   `json:"public"`
	// Rated games: between accounts, with a variant's rules; the bounds
	// (0 for none) on the joiner's rating.
	Rated     bool `json:"rated"`
	MinRating int  `json:"min_rating"`
	MaxRating int  `json:"max_rating"`
}

// parseClock reads "5+3": minutes (a decimal) and seconds of increment,
// or "3d", a correspondence clock of three days a move (perMove).
func parseClock(text string) (initial, inc time.Duration, perMove bool, err error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return 0, 0, false, nil
	}
	if n, ok := strings.CutSuffix(text, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || !slices.Contains(correspondenceDays, days) {
			return 0, 0, false, fmt.Errorf("clock %q: a correspondence clock is %s days a move, such as 3d", text, joinInts(correspondenceDays))
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

// requestRules finds a request's game (Magneton when none is named) and
// builds its rules from the request's settings.
func requestRules(name, settings string) (game.Rules, error) {
	return games.Rules(name, settings)
}

// requestPosition reads a request's game, rules and position ("" or
// "start" for the start), answering 400 with what is wrong when it
// cannot.
func requestPosition(w http.ResponseWriter, name, settings, position string) (game.Rules, game.State, bool) {
	rules, err := requestRules(name, settings)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return nil, nil, false
	}
	st := rules.Start()
	if p := strings.TrimSpace(position); p != "" && p != "start" {
		if st, err = rules.ParsePosition(p); err != nil {
			writeCoded(w, http.StatusBadRequest, "bad_position", "position: "+err.Error(), "why", err.Error())
			return nil, nil, false
		}
	}
	return rules, st, true
}

// idAndEmptyBody reads the {id} of a POST path and its body, which must
// be an empty JSON object; false when it has answered an error.
func idAndEmptyBody(w http.ResponseWriter, r *http.Request) (string, bool) {
	id, ok := pathID(w, r)
	if !ok {
		return "", false
	}
	var req struct{}
	return id, readJSON(w, r, &req)
}

func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request) {
	var req createRequest
	if !readJSON(w, r, &req) {
		return
	}
	ip := s.clientIP(r)
	if !s.clients.allowGame(ip) {
		max := fmt.Sprintf("%g", s.cfg.Limits.GamesPerMinute)
		writeCoded(w, http.StatusTooManyRequests, "games_fast", "too many new games from your address: at most "+max+" a minute; try again in a moment", "max", max)
		return
	}
	rules, err := requestRules(req.Game, req.Rules)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if req.Opponent != opponentComputer && req.Opponent != opponentHuman {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("opponent %q: want computer or human", req.Opponent))
		return
	}
	if req.Opponent == opponentComputer {
		if req.Level == 0 {
			req.Level = 3
		}
		if req.Level < 1 || req.Level > 8 {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("level %d: want 1 to 8", req.Level))
			return
		}
	} else {
		req.Level = 0
	}
	seat := 0
	switch req.Color {
	case "first":
	case "second":
		seat = 1
	case "random", "":
		seat = rand.IntN(2)
	default:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("color %q: want first, second or random", req.Color))
		return
	}
	initial, inc, perMove, err := parseClock(req.Clock)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if perMove && req.Opponent == opponentComputer {
		writeCoded(w, http.StatusBadRequest, "correspondence_computer", "a correspondence clock (days a move) is for games against a person")
		return
	}
	who, err := s.who(w, r)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	var family, shown string
	if req.Rated {
		switch {
		case req.Opponent != opponentHuman:
			writeCoded(w, http.StatusBadRequest, "rated_computer", "games against the computer are never rated")
			return
		case who.User == "":
			writeCoded(w, http.StatusForbidden, "rated_login", "log in to play a rated game")
			return
		}
		if family, err = ratingFamily(rules); err != nil {
			writeRefusal(w, http.StatusBadRequest, err)
			return
		}
		if err := checkRange(req.MinRating, req.MaxRating); err != nil {
			writeRefusal(w, http.StatusBadRequest, err)
			return
		}
		mine, err := s.ratingOf(r.Context(), who.User, rules.Spec().Name, family)
		if err != nil {
			s.gameError(w, r, err)
			return
		}
		shown = mine.String()
	} else if req.MinRating != 0 || req.MaxRating != 0 {
		writeCoded(w, http.StatusBadRequest, "range_unrated", "a rating range is for rated games")
		return
	}
	now := time.Now()
	token := newToken()
	start := rules.Start().String()
	row := &store.Game{
		ID: newID(), Game: rules.Spec().Name, Rules: rules.Settings().String(), Start: start, Opponent: req.Opponent, Level: req.Level,
		Public: req.Public, Status: store.Playing, Result: game.Ongoing.String(), Position: start,
		ClockInitial: initial, ClockIncrement: inc, PerMove: perMove, Remaining: [2]time.Duration{initial, initial}, ClockAt: millis(now),
		DrawOffer: -1, RematchBy: -1, TakebackBy: -1, Created: millis(now), Updated: millis(now),
		Owner: s.cfg.Instance,
	}
	row.Seats[seat] = hashToken(token)
	row.Players[seat], row.Users[seat], row.Guests[seat] = who.Name, who.User, who.Guest
	row.Rated, row.Family, row.Ratings[seat], row.MinRating, row.MaxRating = req.Rated, family, shown, req.MinRating, req.MaxRating
	var invite string
	if req.Opponent == opponentComputer {
		row.Players[1-seat] = computerLabel(req.Level)
	} else {
		invite = newToken()
		row.Invite = hashToken(invite)
		row.Status = store.Waiting
	}
	sess, err := newSession(s, row, nil)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	sess.owner = ip
	if s.closing.Load() {
		writeCoded(w, http.StatusServiceUnavailable, "shutting_down", "the server is shutting down")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.WriteTimeout)
	defer cancel()
	if err := s.st.CreateGame(ctx, row); err != nil {
		s.gameError(w, r, err)
		return
	}
	s.register(sess)
	sess.start()
	s.log.Info("game created", "game", row.ID, "rules", row.Game+" "+row.Rules, "opponent", row.Opponent, "level", row.Level, "clock", req.Clock)
	s.setSeatCookie(w, r, row.ID, token)
	out := map[string]string{"id": row.ID, "url": "/g/" + row.ID}
	if invite != "" {
		out["invite"] = "/g/" + row.ID + "?invite=" + invite
	}
	writeJSON(w, http.StatusCreated, out)
}

// setSeatCookie gives the client the token of its seat in a game.
func (s *Server) setSeatCookie(w http.ResponseWriter, r *http.Request, id, token string) {
	http.SetCookie(w, &http.Cookie{
		Name: "seat_" + id, Value: token, Path: "/", MaxAge: 365 * 24 * 3600,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.overTLS(r),
	})
}

// seatOf returns the seat whose token the request's cookie holds for a
// game, else the seat of the account userID ("" for none) so that a
// logged-in player has their seat on every device, else -1.
func seatOf(r *http.Request, g *store.Game, userID string) int {
	if c, err := r.Cookie("seat_" + g.ID); err == nil && c.Value != "" {
		h := hashToken(c.Value)
		for i, seat := range g.Seats {
			if seat != "" && seat == h {
				return i
			}
		}
	}
	if userID != "" {
		for i, u := range g.Users {
			if u == userID {
				return i
			}
		}
	}
	return -1
}

// requestIdentity returns the id of the account a request is logged in
// as ("" for none) and the name it goes by: the account's, the guest's
// of its guest cookie, or "" when it has neither. Unlike who, it sets no
// cookie.
func (s *Server) requestIdentity(r *http.Request) (userID, name string) {
	u, err := s.sessionUser(r)
	if err != nil {
		s.log.Warn("session not read", "err", err)
	}
	if u != nil {
		return u.ID, u.Name
	}
	if c, err := r.Cookie(guestCookie); err == nil && len(c.Value) >= 16 {
		return "", guestName(hashToken(c.Value))
	}
	return "", ""
}

// requestUser returns the id of the account a request is logged in as, ""
// for none. An error of the database counts as none: the seat cookies
// still prove the seats.
func (s *Server) requestUser(r *http.Request) string {
	userID, _ := s.requestIdentity(r)
	return userID
}

// pathID reads and checks the {id} of a path.
func pathID(w http.ResponseWriter, r *http.Request) (string, bool) {
	id := r.PathValue("id")
	if !validID(id) {
		writeError(w, http.StatusNotFound, "no such game")
		return "", false
	}
	return id, true
}

func (s *Server) handleState(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	sess, seat, ok := s.sessionAndSeat(w, r, id)
	if !ok {
		return
	}
	sess.mu.Lock()
	st := sess.state(seat, time.Now())
	sess.mu.Unlock()
	writeJSON(w, http.StatusOK, st)
}

// joinRequest is the body of POST /api/games/<id>/join.
type joinRequest struct {
	Invite    string `json:"invite"`
	RematchOf string `json:"rematch_of"`
}

func (s *Server) handleJoin(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	var req joinRequest
	if !readJSON(w, r, &req) {
		return
	}
	sess, err := s.session(r.Context(), id, false)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	if req.RematchOf != "" {
		s.joinRematch(w, r, sess, req.RematchOf)
		return
	}
	who, err := s.who(w, r)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	sess.mu.Lock()
	if seat := seatOf(r, sess.row, who.User); seat >= 0 {
		sess.mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "seat": seat}) // already seated
		return
	}
	sess.mu.Unlock()
	inviteHash := ""
	if req.Invite != "" {
		inviteHash = hashToken(req.Invite)
	}
	token := newToken()
	seat, err := s.joinAnywhere(sess, hashToken(token), inviteHash, who)
	if err != nil {
		var ue userError
		if errors.As(err, &ue) && ue.forbidden {
			writeRefusal(w, http.StatusForbidden, ue)
			return
		}
		s.gameError(w, r, err)
		return
	}
	s.log.Info("player joined", "game", id, "seat", seat)
	s.setSeatCookie(w, r, id, token)
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "seat": seat})
}

// spectators is how many watch a game this instance has in memory (0 for
// one it has not).
func (s *Server) spectators(id string) int {
	s.mu.Lock()
	sess := s.sessions[id]
	s.mu.Unlock()
	if sess == nil {
		return 0
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.watchers()
}

// sessionAndSeat finds a game and the request's seat in it (-1 for a
// spectator), answering the client itself when there is no such game.
func (s *Server) sessionAndSeat(w http.ResponseWriter, r *http.Request, id string) (*session, int, bool) {
	sess, err := s.session(r.Context(), id, false)
	if err != nil {
		s.gameError(w, r, err)
		return nil, -1, false
	}
	user := s.requestUser(r)
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess, seatOf(r, sess.row, user), true
}

// handleCancel takes back the caller's seek.
func (s *Server) handleCancel(w http.ResponseWriter, r *http.Request) {
	id, ok := idAndEmptyBody(w, r)
	if !ok {
		return
	}
	sess, seat, ok := s.sessionAndSeat(w, r, id)
	if !ok {
		return
	}
	if seat < 0 {
		writeError(w, http.StatusForbidden, "only the player waiting in this game can cancel it")
		return
	}
	if err := s.actAnywhere(sess, seat, clientMsg{Type: "cancel"}); err != nil {
		s.gameError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "status": store.Aborted})
}

// joinAnywhere gives the free seat to a token's holder, on this instance
// if it owns the game, else on its owner.
func (s *Server) joinAnywhere(sess *session, tokenHash, inviteHash string, who identity) (int, error) {
	for range 3 {
		sess.mu.Lock()
		mirror := sess.mirror
		var seat int
		var err error
		if !mirror {
			seat, err = sess.joinHashed(tokenHash, inviteHash, who)
		}
		sess.mu.Unlock()
		if !mirror {
			return seat, err
		}
		sess.mu.Lock()
		owner := sess.leaseOwner()
		sess.mu.Unlock()
		ctx, cancel := context.WithTimeout(s.ctx, forwardTimeout+time.Second)
		rp, ferr := s.forward(ctx, owner, request{Game: sess.id, Op: "join", Token: tokenHash, Invite: inviteHash, Who: who})
		cancel()
		switch {
		case ferr != nil || rp.NotOwner:
			s.takeOver(sess)
			continue
		case rp.Error != "" && rp.User:
			return 0, userError{msg: rp.Error, forbidden: rp.Forbidden, code: rp.Code, vars: rp.Vars}
		case rp.Error != "":
			return 0, errors.New(rp.Error)
		}
		return rp.Seat, nil
	}
	return 0, refuse("the server instances could not agree who runs this game; please try again")
}

// joinRematch gives the caller its seat in a rematch: the seat cookie of
// the old game proves it, and the token carries over.
func (s *Server) joinRematch(w http.ResponseWriter, r *http.Request, sess *session, oldID string) {
	c, err := r.Cookie("seat_" + oldID)
	if err != nil || c.Value == "" || !validID(oldID) {
		writeError(w, http.StatusForbidden, "no seat in game "+oldID)
		return
	}
	sess.mu.Lock()
	row := *sess.row
	sess.mu.Unlock()
	if row.RematchOf != oldID {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("game %s is not the rematch of %s", row.ID, oldID))
		return
	}
	h := hashToken(c.Value)
	for i, seat := range row.Seats {
		if seat != "" && seat == h {
			s.setSeatCookie(w, r, row.ID, c.Value)
			writeJSON(w, http.StatusOK, map[string]any{"id": row.ID, "seat": i})
			return
		}
	}
	writeError(w, http.StatusForbidden, "no seat in game "+oldID)
}

func (s *Server) handleList(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var sq store.Query
	switch q.Get("status") {
	case "open":
		sq.Status = store.Waiting
	case "live", "":
		sq.Status = store.Playing
	case "finished":
		sq.Status = store.Finished
	default:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("status %q: want open, live or finished", q.Get("status")))
		return
	}
	sq.PublicOnly = true
	sq.Limit = 50
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 200 {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("limit %q: want 1 to 200", l))
			return
		}
		sq.Limit = n
	}
	if b := q.Get("before"); b != "" {
		if !validID(b) {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("before %q: not a game id", b))
			return
		}
		sq.Before = b
	}
	// The first pages of the open and live lists are what every home page
	// reads every few seconds: one answer a second serves them all.
	cacheable := sq.Before == "" && sq.Limit == 50 && sq.Status != store.Finished
	if cacheable {
		if b, ok := s.lists.get(sq.Status, time.Now()); ok {
			writeRaw(w, b)
			return
		}
	}
	rows, err := s.st.List(r.Context(), sq)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			writeError(w, http.StatusBadRequest, "before: no such game")
			return
		}
		s.gameError(w, r, err)
		return
	}
	out := []summary{}
	for _, g := range rows {
		sm := summarize(g)
		if g.Status == store.Playing {
			sm.Spectators = s.spectators(g.ID)
		}
		out = append(out, sm)
	}
	b := mustJSON(map[string]any{"games": out})
	if cacheable {
		s.lists.put(sq.Status, b, time.Now())
	}
	writeRaw(w, b)
}

// writeRaw answers 200 with a JSON body made already.
func writeRaw(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(b)
}

// listCache keeps the first page of each list for listTTL.
type listCache struct {
	mu sync.Mutex
	m  map[string]cachedList
}

type cachedList struct {
	body []byte
	at   time.Time
}

// listTTL is how old a list may be: a new game shows in the lobby within
// it (the home page polls every 2 s).
const listTTL = time.Second

func (c *listCache) get(status string, now time.Time) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[status]
	return e.body, ok && now.Sub(e.at) < listTTL
}

// clear drops the lists, when a game joins or leaves one.
func (c *listCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.m)
}

func (c *listCache) put(status string, body []byte, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]cachedList{}
	}
	c.m[status] = cachedList{body, now}
}

func (s *Server) handleRecord(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	name := r.URL.Query().Get("format")
	if name == "" {
		name = record.PGN.Name
	}
	sess, err := s.session(r.Context(), id, false)
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	format, err := record.FormatOf(sess.spec, name)
	if err != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("format: %v", err))
		return
	}
	sess.mu.Lock()
	row := *sess.row
	text, err := format.Write(game.Transcript{Game: sess.g, Players: row.Players, Date: time.UnixMilli(row.Created).UTC()})
	sess.mu.Unlock()
	if err != nil {
		s.gameError(w, r, fmt.Errorf("record: %w", err))
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.%s"`, row.Game, id, format.Name))
	io.WriteString(w, text)
}

// analyzeRequest is the body of POST /api/analyze.
type analyzeRequest struct {
	Game       string `json:"game"`
	Rules      string `json:"rules"`
	Position   string `json:"position"`
	MoveTimeMS int    `json:"movetime_ms"`
	// MultiPV asks for this many lines, 1 to 3 (0: 1).
	MultiPV int `json:"multipv"`
}

func (s *Server) handleAnalyze(w http.ResponseWriter, r *http.Request) {
	var req analyzeRequest
	if !readJSON(w, r, &req) {
		return
	}
	rules, st, ok := requestPosition(w, req.Game, req.Rules, req.Position)
	if !ok {
		return
	}
	if req.MoveTimeMS == 0 {
		req.MoveTimeMS = 1000
	}
	if req.MoveTimeMS < 100 || req.MoveTimeMS > 5000 {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("movetime_ms %d: want 100 to 5000", req.MoveTimeMS))
		return
	}
	if req.MultiPV == 0 {
		req.MultiPV = 1
	}
	if req.MultiPV < 1 || req.MultiPV > 3 {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("multipv %d: want 1 to 3", req.MultiPV))
		return
	}
	g := game.NewGame(st)
	if res, why := g.Result(); res.Over() {
		writeCoded(w, http.StatusBadRequest, "position_over", fmt.Sprintf("the game is over in this position (%s, %s)", res, why), "result", res.String(), "reason", fmt.Sprint(why))
		return
	}
	// Fair play: no engine for a player's own game against a person.
	if userID, guest := s.requestPlayer(r); userID != "" || guest != "" {
		playing, err := s.st.PlaysPosition(r.Context(), st.String(), userID, guest)
		if err != nil {
			s.gameError(w, r, err)
			return
		}
		if playing {
			writeCoded(w, http.StatusForbidden, "fair_play", "this is the position of a game you are playing against a person: the engine's analysis opens once it is over")
			return
		}
	}
	done, refusal := s.clients.startAnalysis(s.clientIP(r))
	if refusal != nil {
		writeRefusal(w, http.StatusTooManyRequests, refusal)
		return
	}
	defer done()
	// Wait a little for a free slot, then give up.
	wait, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	select {
	case s.analyses <- struct{}{}:
	case <-wait.Done():
		writeCoded(w, http.StatusTooManyRequests, "analysis_busy", "the server is busy with other analyses; try again in a moment")
		return
	}
	defer func() { <-s.analyses }()
	p, err := games.NewPlayer("level:8", rules, ai.Config{HashMB: s.tableMB(8)})
	if err != nil {
		s.gameError(w, r, err)
		return
	}
	t, ok := p.(ai.Thinker)
	if !ok {
		s.gameError(w, r, fmt.Errorf("analyze: the level 8 player of %s does not search", rules.Spec().Title))
		return
	}
	ctx, cancel2 := context.WithTimeout(r.Context(), time.Duration(req.MoveTimeMS)*time.Millisecond+2*time.Second)
	defer cancel2()
	// The lines share the time: the best first, then each without the
	// moves of the lines before (multi-PV).
	each := time.Duration(req.MoveTimeMS) * time.Millisecond / time.Duration(req.MultiPV)
	var lines []analysisLine
	var exclude []string
	var proof *ai.Proof // the best line's, when the player's endgame proof settled it
	for len(lines) < req.MultiPV {
		in, err := t.Think(ctx, g, ai.Limits{MoveTime: each, Exclude: exclude}, nil)
		if err != nil && len(lines) == 0 {
			s.gameError(w, r, fmt.Errorf("analyze: %w", err))
			return
		}
		if err != nil || in.BestMove == "" || slices.Contains(exclude, in.BestMove) {
			break // no other move, or a player that cannot exclude
		}
		if len(lines) == 0 {
			proof = in.Proven
		}
		lines = append(lines, lineOf(in))
		exclude = append(exclude, in.BestMove)
	}
	best := lines[0]
	out := map[string]any{"score": best.Score, "best": best.PV[0], "pv": best.PV, "depth": best.Depth, "turn": int(st.Side()), "proven": nil, "lines": lines}
	// The proof searches' verdict, the only "proven" claim: no
	// evaluation enters them. The search's own, when its endgame proof
	// settled the position, or else the server's, within small budgets.
	if proof != nil {
		out["proven"] = provenOf(*proof, st.Side())
	} else if gm, err := games.Lookup(rules.Spec().Name); err == nil {
		var pv ai.Prover
		if gm.Solver != nil {
			pv = gm.Solver.Prover(solverHash)
		}
		if pr := s.prove(ctx, gm, pv, st, nil); pr != nil {
			out["proven"] = pr
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// analysisLine is one line of an analysis: its score from the side to
// move's point of view, its moves and the depth searched.
type analysisLine struct {
	Score string   `json:"score"`
	PV    []string `json:"pv"`
	Depth int      `json:"depth"`
}

func lineOf(in ai.Info) analysisLine {
	l := analysisLine{Score: fmt.Sprintf("%+.2f", float64(in.Score)/100), PV: in.PV, Depth: in.Depth}
	if in.Mate != 0 {
		l.Score = fmt.Sprintf("mate %d", in.Mate)
	}
	if len(l.PV) == 0 {
		l.PV = []string{in.BestMove}
	}
	return l
}

// The proof searches' budgets in an analysis and a review, beside the
// alpha-beta search's time: the proof-number solver's positions and time
// (half a second at most, much less when a position settles), then the
// threat-only proof search's horizon and nodes (ai.Profile.ForcedResult),
// which reaches deeper along threats.
const (
	solverNodes = 5_000
	solverTime  = 500 * time.Millisecond
	solverHash  = 2 // MiB
	provenPlies = 9
	provenNodes = 300_000
)

// prove is the proof searches' verdict on st (a position of a game whose
// earlier positions are hist, nil for none): the proof-number solver's
// with pv (none when nil), and the threat-only search's; when both prove
// the win, the shorter bound. nil when neither proves a win or a loss.
func (s *Server) prove(ctx context.Context, gm *games.Game, pv ai.Prover, st game.State, hist []uint64) *provenResult {
	var best *provenResult
	if pv != nil {
		pctx, cancel := context.WithTimeout(ctx, solverTime)
		pf, err := pv.Settle(pctx, st, hist, solverNodes)
		cancel()
		if err == nil && pf.Proven() {
			best = provenOf(pf, st.Side())
		}
	}
	if n, err := gm.AI.ForcedResult(ctx, st, provenPlies, provenNodes); err == nil && n != 0 {
		winner, moves := int(st.Side()), n
		if n < 0 {
			winner, moves = 1-winner, -n
		}
		// A win or loss in one is the shortest (it tries every move
		// there); longer, it is the shortest made of threats only.
		if best == nil || moves < best.Moves {
			best = &provenResult{Winner: winner, Moves: moves, Exact: moves == 1}
		}
	}
	return best
}

// provenOf is a prover's proof of a win or loss as the API says it, the
// winner a side's index.
func provenOf(pf ai.Proof, side game.Side) *provenResult {
	w, _ := pf.Result.Winner()
	return &provenResult{Winner: int(w), Moves: pf.Moves, Exact: pf.Exact}
}

// handleStatic serves the front end: a file of the tree if the path names
// one, else index.html (the single-page app reads /g/<id> itself).
func (s *Server) handleStatic(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		writeError(w, http.StatusMethodNotAllowed, "method not allowed")
		return
	}
	static := s.cfg.Static
	if static == nil {
		writeError(w, http.StatusNotFound, "this server has no front end")
		return
	}
	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
	if name == "" || name == "." || isPage(name) {
		s.serveIndex(w, r)
		return
	}
	if st, err := fs.Stat(static, name); err == nil && !st.IsDir() {
		http.ServeFileFS(w, r, static, name)
		return
	}
	writeError(w, http.StatusNotFound, "not found: "+r.URL.Path)
}

// isPage reports whether a path (without its leading /) is one of the
// front end's views rather than a file: a game (g/<id>), a profile
// (@/<name>), the analysis board (analysis, analysis/...), a game's
// rules and lessons (learn, learn/<game>) and the puzzles.
func isPage(name string) bool {
	first, rest, below := strings.Cut(name, "/")
	switch first {
	case "g", "@":
		return below && rest != ""
	case "analysis", "learn", "puzzles":
		return true
	}
	return false
}

func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	b, err := fs.ReadFile(s.cfg.Static, "index.html")
	if err != nil {
		writeError(w, http.StatusNotFound, "this server has no front end")
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(b)
}
