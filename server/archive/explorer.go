package archive

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/magneton-games/magneton/book"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// MaxExplorerMoves bounds the moves of an explorer question (as POST
// /api/play bounds its own).
const MaxExplorerMoves = 1000

// Question is what the explorer is asked: a position of a game, reached
// from Start by Moves (which give the repetition history the proof book
// needs), and which games to count.
type Question struct {
	Start game.State
	Moves []string
	// Filter selects the games of the site's explorer; with Mine, the
	// account User's repertoire is read instead, which takes no filter.
	Filter store.ExplorerFilter
	Mine   bool
	User   string
}

// Answer is the explorer's answer for a position (GET /api/explorer).
type Answer struct {
	Game     string `json:"game"`
	Rules    string `json:"rules"`
	Position string `json:"position"`
	// Turn is the side to move (0 for the first); Result the game's
	// result when it is over in the position, which then lists no move.
	Turn   int    `json:"turn"`
	Result string `json:"result,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Games, White, Draws and Black sum the moves' lines.
	Games int  `json:"games"`
	White int  `json:"white"`
	Draws int  `json:"draws"`
	Black int  `json:"black"`
	Mine  bool `json:"mine"`
	// Moves are the moves played from the position, the most played
	// first, each in the asker's frame.
	Moves []MoveLine `json:"moves"`
}

// MoveLine is one move of the explorer: how often it was played, how
// those games ended for each side, and what the proof book knows of the
// position after it.
type MoveLine struct {
	Move  string `json:"move"`
	Games int    `json:"games"`
	White int    `json:"white"`
	Draws int    `json:"draws"`
	Black int    `json:"black"`
	// Rating is the average rating of the games that had one, nil for
	// none (and in a repertoire, which keeps no ratings).
	Rating     *int  `json:"rating"`
	LastPlayed int64 `json:"last_played"`
	// Mine and Yours are a repertoire's: whether the account made the
	// move, and the results from the account's view.
	Mine  *bool  `json:"mine,omitempty"`
	Yours *Score `json:"yours,omitempty"`
	// Proven is the book of proven positions' value of the position
	// after the move, nil where it knows none; Result the game's result
	// when the move ends it.
	Proven *wire.Proven `json:"proven"`
	Result string       `json:"result,omitempty"`
}

// Score is a record from one player's view.
type Score struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

// Explorer answers the opening explorer from the archive's counts and the
// book of proven positions.
type Explorer struct {
	Store store.Archive
	// Book returns the book of proven positions (games.ProvenBook, read
	// at its first use); nil for none.
	Book func() (*book.Book, error)
}

// ReadRules finds a game by name ("" for the default game) and reads its
// rules' settings, refusing with a code what it cannot read.
func ReadRules(name, settings string) (game.Rules, error) {
	g := games.Default()
	if name != "" {
		var err error
		if g, err = games.Lookup(name); err != nil {
			var known []string
			for _, g := range games.All() {
				known = append(known, g.Spec.Name)
			}
			list := strings.Join(known, ", ")
			return nil, wire.Refuse("archive_game", fmt.Sprintf("game %q: no such game (games: %s)", name, list), "game", name, "games", list)
		}
	}
	rules, err := g.Spec.Rules(settings)
	if err != nil {
		return nil, wire.Refuse("archive_rules", fmt.Sprintf("rules %q: %v", settings, err), "rules", settings, "why", err.Error())
	}
	return rules, nil
}

// ReadPosition reads a position of rules: "" or "start" for the start.
func ReadPosition(rules game.Rules, text string) (game.State, error) {
	p := strings.TrimSpace(text)
	if p == "" || p == "start" {
		return rules.Start(), nil
	}
	s, err := rules.ParsePosition(p)
	if err != nil {
		return nil, wire.Refuse("bad_position", "position: "+err.Error(), wire.Because(err, "invalid", "position "+strconv.Quote(p))...)
	}
	return s, nil
}

// Replay plays moves from start as a game (the repetition rule judging),
// refusing with the move's number what cannot be played.
func Replay(start game.State, moves []string) (*game.Game, error) {
	if len(moves) > MaxExplorerMoves {
		n := strconv.Itoa(len(moves))
		return nil, wire.Refuse("archive_param", fmt.Sprintf("moves: at most %d, not %s", MaxExplorerMoves, n),
			"name", "moves", "value", n, "want", "at most "+strconv.Itoa(MaxExplorerMoves))
	}
	g := game.NewGame(start)
	for i, mv := range moves {
		if res, why := g.Result(); res.Over() {
			return nil, wire.Refuse("play_over", fmt.Sprintf("move %d %s: the game is over (%s, %s)", i+1, mv, res, why), "move", mv, "result", res.String(), "reason", fmt.Sprint(why))
		}
		if err := g.Play(mv); err != nil {
			return nil, wire.Refuse("illegal_move", fmt.Sprintf("move %d: %v", i+1, err), append([]string{"move", mv}, wire.Because(err, "illegal", mv)...)...)
		}
	}
	return g, nil
}

// Explore answers a question: one query of the archive's counts (or of
// the account's repertoire), translated into the asker's frame, and the
// book's value of each move's position, from memory.
func (e *Explorer) Explore(ctx context.Context, q Question) (*Answer, error) {
	g, err := Replay(q.Start, q.Moves)
	if err != nil {
		return nil, err
	}
	s := g.Position()
	rules := s.Rules()
	a := &Answer{Game: rules.Spec().Name, Rules: rules.Settings().String(), Position: s.String(), Turn: int(s.Side()),
		Mine: q.Mine, Moves: []MoveLine{}}
	if res, why := g.Result(); res.Over() {
		a.Result, a.Reason = res.String(), why.String()
		return a, nil
	}
	f := FrameOf(s)
	var rows []store.ExplorerMove
	if q.Mine {
		rows, err = e.Store.RepertoireMoves(ctx, q.User, f.Key)
	} else {
		rows, err = e.Store.ExplorerMoves(ctx, f.Key, q.Filter)
	}
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return a, nil
	}
	// The stored moves are in the canonical image's frame: each is the
	// image of the first legal move (in sorted order) that maps to it.
	legal := s.Moves()
	asker := make(map[string]string, len(legal))
	for _, m := range legal {
		c := f.Move(m)
		if _, ok := asker[c]; !ok {
			asker[c] = m
		}
	}
	after := newAfter(e, g)
	mover := s.Side()
	for _, r := range rows {
		m, ok := asker[r.Move]
		if !ok {
			continue // not a move of this position: a key shared by chance
		}
		line := MoveLine{Move: m, Games: r.Games, Draws: r.Draws, LastPlayed: r.LastPlayed}
		// The results of the side that made the move (its own, or in a
		// repertoire the account's), as White's and Black's.
		wins, losses, side := r.Wins, r.Losses, mover
		if q.Mine {
			mine := r.Mine
			line.Mine = &mine
			line.Yours = &Score{Wins: r.Wins, Draws: r.Draws, Losses: r.Losses}
			if !mine {
				side = mover.Other()
			}
		}
		if side == game.First {
			line.White, line.Black = wins, losses
		} else {
			line.White, line.Black = losses, wins
		}
		if r.RatingN > 0 {
			avg := int((r.RatingSum + r.RatingN/2) / r.RatingN)
			line.Rating = &avg
		}
		line.Proven, line.Result = after.value(m)
		a.Games += line.Games
		a.White += line.White
		a.Draws += line.Draws
		a.Black += line.Black
		a.Moves = append(a.Moves, line)
	}
	slices.SortStableFunc(a.Moves, func(x, y MoveLine) int {
		if x.Mine != nil && *x.Mine != *y.Mine {
			if *x.Mine {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(y.Games, x.Games), cmp.Compare(x.Move, y.Move))
	})
	return a, nil
}

// afterMoves knows what follows a move of a game's position: the game's
// end, or the book's proof, computed once a move.
type afterMoves struct {
	s    game.State
	hist []uint64
	bk   *book.Book
	memo map[string]afterValue
}

type afterValue struct {
	proven *wire.Proven
	result string
}

func newAfter(e *Explorer, g *game.Game) *afterMoves {
	am := &afterMoves{s: g.Position(), memo: map[string]afterValue{}}
	if e.Book != nil {
		am.bk, _ = e.Book() // without the book, no proven values
	}
	// The positions before the one after a move: every position of the
	// game so far, the current one included.
	for _, st := range g.States() {
		am.hist = append(am.hist, st.Hash())
	}
	return am
}

// value is what follows move m: the proof book's value of the position
// after it, or the result when it ends the game.
func (am *afterMoves) value(m string) (*wire.Proven, string) {
	if v, ok := am.memo[m]; ok {
		return v.proven, v.result
	}
	var v afterValue
	next, err := am.s.Play(m)
	if err == nil {
		if res, _ := next.Outcome(); res.Over() {
			v.result = res.String()
		} else if am.repeats(next.Hash()) {
			v.result = game.Draw.String()
		} else if am.bk != nil {
			if pf, ok := am.bk.Lookup(next, am.hist); ok {
				if w, ok := pf.Result.Winner(); ok {
					v.proven = &wire.Proven{Winner: int(w), Moves: pf.Moves, Exact: pf.Exact}
				}
			}
		}
	}
	am.memo[m] = v
	return v.proven, v.result
}

// repeats reports whether a position of hash h, played now, draws by the
// repetition rule, as game.Game judges it.
func (am *afterMoves) repeats(h uint64) bool {
	limit := am.s.Rules().RepetitionLimit()
	if limit <= 0 {
		return false
	}
	n := 1
	for _, x := range am.hist {
		if x == h {
			n++
		}
	}
	return n >= limit
}
