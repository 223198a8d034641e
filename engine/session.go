package engine

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/wire"
)

// A Session answers one browser worker's requests, each an operation's
// name and its JSON (docs/engine-worker.md). It keeps an analyst per
// game's rules and a computer player per level and rules between
// requests, so that their tables persist: an analysis asked again with
// more time deepens, and a game's computer keeps what it learned.
// A Session is not safe for concurrent use; a worker runs one request at
// a time.
type Session struct {
	// HashMB is the table of each analyst and of the level 8 player (the
	// levels below take at most 2 MB, as on the server).
	HashMB   int
	analysts map[string]*Analyst
	players  map[string]ai.Player
	// bookRead names the certificate files the page gave (AddBook).
	bookRead map[string]bool
}

// NewSession is a session whose tables take hashMB megabytes each.
func NewSession(hashMB int) *Session {
	return &Session{HashMB: hashMB, analysts: map[string]*Analyst{}, players: map[string]ai.Player{}, bookRead: map[string]bool{}}
}

// Progress hears what a long request reports before its answer: the kind
// ("line" for the best line of each completed depth) and its value.
type Progress func(kind string, v any)

// Handle answers the operation op with the request req: the answer's
// JSON, or an error, a wire.Refusal when the request is wrong.
func (s *Session) Handle(ctx context.Context, op string, req []byte, progress Progress) (any, error) {
	if progress == nil {
		progress = func(string, any) {}
	}
	switch op {
	case "play":
		var r PlayRequest
		if err := decode(op, req, &r); err != nil {
			return nil, err
		}
		return Play(r)
	case "analyze":
		var r AnalyzeRequest
		if err := decode(op, req, &r); err != nil {
			return nil, err
		}
		return s.analyze(ctx, r, progress)
	case "move":
		var r MoveRequest
		if err := decode(op, req, &r); err != nil {
			return nil, err
		}
		return s.move(ctx, r)
	case "bench":
		var r BenchRequest
		if err := decode(op, req, &r); err != nil {
			return nil, err
		}
		rules, err := games.Rules(r.Game, r.Rules)
		if err != nil {
			return nil, err
		}
		return Bench(ctx, rules, r.limits())
	case "games":
		return Catalogue(), nil
	case "book_wanted":
		var r BookWanted
		if err := decode(op, req, &r); err != nil {
			return nil, err
		}
		return s.bookWanted(r)
	}
	return nil, wire.Refusef("unknown operation %q: want play, analyze, move, bench, games or book_wanted", op)
}

func decode(op string, req []byte, v any) error {
	if err := json.Unmarshal(req, v); err != nil {
		return wire.Refusef("%s: the request is not valid JSON for it: %v", op, err)
	}
	return nil
}

// maxBrowserAnalysis is the longest time one analysis request may take
// in the browser: an analysis that goes on asks again (the page stops it
// by not asking).
const maxBrowserAnalysis = time.Minute

// analyze is an analysis request with the session's analyst of its rules.
func (s *Session) analyze(ctx context.Context, r AnalyzeRequest, progress Progress) (wire.Analysis, error) {
	rules, st, err := Position(r.Game, r.Rules, r.Position)
	if err != nil {
		return wire.Analysis{}, err
	}
	if why := CheckAnalyze(&r, maxBrowserAnalysis); why != "" {
		return wire.Analysis{}, wire.Refusef("%s", why)
	}
	g := game.NewGame(st)
	if res, why := g.Result(); res.Over() {
		return wire.Analysis{}, wire.Refuse("position_over", fmt.Sprintf("the game is over in this position (%s, %s)", res, why), "result", res.String(), "reason", fmt.Sprint(why))
	}
	key := rules.Spec().Name + "/" + rules.Settings().String()
	an := s.analysts[key]
	if an == nil {
		if an, err = NewAnalyst(rules, s.HashMB, nil); err != nil {
			return wire.Analysis{}, err
		}
		s.analysts[key] = an
	}
	return an.Analyze(ctx, g, time.Duration(r.MoveTimeMS)*time.Millisecond, r.MultiPV, func(l wire.AnalysisLine) { progress("line", l) })
}

// MoveRequest asks for a computer player's move in a game: its rules,
// start and moves so far (the history counts for repetitions), the level,
// and either its time for the move or the clock.
type MoveRequest struct {
	Game  string   `json:"game"`
	Rules string   `json:"rules"`
	Start string   `json:"start"` // "" or "start" for the rules' start
	Moves []string `json:"moves"`
	Level int      `json:"level"`
	// MoveTimeMS is the time for the move, when the game has no clock;
	// else TimeMS and IncMS are each side's remaining time and
	// increment, and the player budgets its time from them.
	MoveTimeMS int      `json:"movetime_ms"`
	TimeMS     [2]int64 `json:"time_ms"`
	IncMS      [2]int64 `json:"inc_ms"`
	// NewGame: the game is another than the last one asked about at this
	// level, and the player forgets what it learned.
	NewGame bool `json:"new_game"`
}

// MoveAnswer is a computer player's move.
type MoveAnswer struct {
	Move string `json:"move"`
	// Ply is the number of moves of the game before it.
	Ply int `json:"ply"`
}

// move is a computer player's move for a move request.
func (s *Session) move(ctx context.Context, r MoveRequest) (MoveAnswer, error) {
	if r.Level < 1 || r.Level > 8 {
		return MoveAnswer{}, wire.Refusef("level %d: want 1 to 8", r.Level)
	}
	rules, st, err := Position(r.Game, r.Rules, r.Start)
	if err != nil {
		return MoveAnswer{}, err
	}
	g := game.NewGame(st)
	for i, mv := range r.Moves {
		if err := g.Play(mv); err != nil {
			return MoveAnswer{}, wire.Refuse("illegal_move", fmt.Sprintf("move %d: %v", i+1, err), append([]string{"move", mv}, wire.Because(err, "illegal", mv)...)...)
		}
	}
	if res, why := g.Result(); res.Over() {
		return MoveAnswer{}, wire.Refuse("position_over", fmt.Sprintf("the game is over in this position (%s, %s)", res, why), "result", res.String(), "reason", fmt.Sprint(why))
	}
	key := fmt.Sprintf("%d/%s/%s", r.Level, rules.Spec().Name, rules.Settings())
	p := s.players[key]
	if p == nil {
		mb := 2
		if r.Level >= 8 {
			mb = s.HashMB
		}
		if p, err = games.NewPlayer(fmt.Sprintf("level:%d", r.Level), rules, ai.Config{HashMB: mb}); err != nil {
			return MoveAnswer{}, err
		}
		s.players[key] = p
	} else if t, ok := p.(ai.Thinker); ok && r.NewGame {
		t.NewGame()
	}
	lim := ai.Limits{MoveTime: time.Duration(r.MoveTimeMS) * time.Millisecond}
	if r.MoveTimeMS <= 0 {
		for i := range 2 {
			lim.Time[i] = time.Duration(r.TimeMS[i]) * time.Millisecond
			lim.Increment[i] = time.Duration(r.IncMS[i]) * time.Millisecond
		}
		if lim.Time == [2]time.Duration{} {
			lim.MoveTime = ai.DefaultMoveTime
		}
	}
	mv, err := p.Move(ctx, g, lim)
	if err != nil {
		return MoveAnswer{}, fmt.Errorf("level %d found no move: %w", r.Level, err)
	}
	return MoveAnswer{Move: mv, Ply: len(r.Moves)}, nil
}

// GameInfo is a game's entry in the catalogue: its name and title, its
// rules' default settings and its start position.
type GameInfo struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	Rules string `json:"rules"`
	Start string `json:"start"`
}

// Catalogue lists the registered games, so that a page can check that the
// engine it loaded knows them.
func Catalogue() []GameInfo {
	var out []GameInfo
	for _, g := range games.All() {
		rules, err := games.Rules(g.Spec.Name, "")
		if err != nil {
			continue
		}
		out = append(out, GameInfo{Name: g.Spec.Name, Title: g.Spec.Title, Rules: rules.Settings().String(), Start: rules.Start().String()})
	}
	return out
}

// BookFile is a certificate file the server offers the browser's engine
// (GET /engine/book.json): its URL, the game and rules it proves
// positions of, and its size.
type BookFile struct {
	Name  string `json:"name"`
	URL   string `json:"url"`
	Game  string `json:"game"`
	Rules string `json:"rules"`
	Bytes int    `json:"bytes"`
}

// BookWanted are the certificate files of a game's rules that the session
// has not read yet, among those offered.
type BookWanted struct {
	Game  string     `json:"game"`
	Rules string     `json:"rules"`
	Files []BookFile `json:"files"`
}

// bookWanted names the files of req's game and rules (compared as the
// rules read them, so that "" is the defaults) not read yet.
func (s *Session) bookWanted(req BookWanted) ([]string, error) {
	rules, err := games.Rules(req.Game, req.Rules)
	if err != nil {
		return nil, err
	}
	want := rules.Spec().Name + "/" + rules.Settings().String()
	out := []string{}
	for _, f := range req.Files {
		fr, err := games.Rules(f.Game, f.Rules)
		if err != nil || s.bookRead[f.Name] || fr.Spec().Name+"/"+fr.Settings().String() != want {
			continue
		}
		out = append(out, f.Name)
	}
	return out, nil
}

// AddBook reads a gzipped certificate file of the server's book into the
// program's book of proven positions (games.ProvenBook), which every
// level 8 player and analyst plays by and reports from then on: the
// browser's engine has no certificates of its own (book/embed_js.go).
func (s *Session) AddBook(name string, gz []byte) error {
	if s.bookRead[name] {
		return nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return fmt.Errorf("the book's %s: %w", name, err)
	}
	b, err := games.ProvenBook()
	if err != nil {
		return err
	}
	rulesFor := func(name, settings string) (game.Rules, error) { return games.Rules(name, settings) }
	if err := b.ReadCommitted(zr, rulesFor); err != nil {
		return fmt.Errorf("the book's %s: %w", name, err)
	}
	s.bookRead[name] = true
	return nil
}
