// Package archivetest puts finished games into a store for the tests of
// the archive's users (the explorer, the game search, magneton explore,
// the browser tests): played the way the server writes a game (created,
// move by move, then ended), or imported as a record is, so that the store
// archives each as it does in service. The store needs the archive's
// indexer set (server.New sets it; or SetArchiveIndexer(archive.Index)).
package archivetest

import (
	"context"
	"fmt"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/store"
)

// Game is a finished game to put in the archive.
type Game struct {
	// ID is the game's id: 16 characters, as ids.New makes them, for a
	// game whose page is opened (the server answers no other).
	ID          string
	Game, Rules string // the game's name and settings ("" for the defaults)
	Moves       []string
	// Result is the game's result when its moves do not end it ("1-0",
	// "0-1" by resignation, "1/2-1/2" by agreement); moves that end it
	// by the rules give their own, which Result must then match or be "".
	Result  string
	Players [2]string // names; "" for "Anon A" and "Anon B"
	Users   [2]string // account ids, "" for guests
	Ratings [2]string // as shown when the game began ("1500?"), "" for none
	Rated   bool
	// Initial and Increment are the clock (zero for none); PerMove a
	// correspondence clock of Initial a move.
	Initial, Increment time.Duration
	PerMove            bool
	Private            bool
	// Source is "" for a game played here, or the source of an imported
	// record (store.SourceBoardspace, store.SourceImport).
	Source string
	// Ended is when it ended, ms since the epoch (0: 1 January 2026 plus
	// a second a game).
	Ended int64
}

// base is the default end of the first game: 2026-01-01 UTC.
const base = int64(1767225600000)

// Add puts games into st, each played (or imported) to its end, in order.
func Add(ctx context.Context, st store.Store, gs ...Game) error {
	for i, g := range gs {
		if g.Ended == 0 {
			g.Ended = base + int64(i+1)*1000
		}
		var err error
		if g.Source == "" {
			err = play(ctx, st, g)
		} else {
			err = importGame(ctx, st, g)
		}
		if err != nil {
			return fmt.Errorf("game %d %s: %w", i+1, g.ID, err)
		}
	}
	return nil
}

// replay plays a game's moves by its rules: its row before the first move
// and the game after them, with the result it ends with.
func replay(g Game) (*store.Game, *game.Game, error) {
	rules, err := games.Rules(g.Game, g.Rules)
	if err != nil {
		return nil, nil, err
	}
	hist := game.NewGame(rules.Start())
	for i, m := range g.Moves {
		if err := hist.Play(m); err != nil {
			return nil, nil, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	players := g.Players
	for i, name := range []string{"Anon A", "Anon B"} {
		if players[i] == "" {
			players[i] = name
		}
	}
	start := g.Ended - int64(len(g.Moves)+1)*1000
	row := &store.Game{
		ID: g.ID, Game: rules.Spec().Name, Rules: rules.Settings().String(), Start: rules.Start().String(), Opponent: "human",
		Players: players, Users: g.Users, Ratings: g.Ratings, Rated: g.Rated, Public: !g.Private, Source: g.Source,
		Status: store.Playing, Result: "*", Position: rules.Start().String(), DrawOffer: -1, TakebackBy: -1, RematchBy: -1,
		ClockInitial: g.Initial, ClockIncrement: g.Increment, PerMove: g.PerMove, Created: start, Updated: start,
	}
	if g.Rated {
		row.Family = "standard"
	}
	res, _ := hist.Result()
	switch {
	case res.Over() && g.Result != "" && g.Result != res.String():
		return nil, nil, fmt.Errorf("the moves end the game %s, not %s", res, g.Result)
	case res.Over():
	case g.Result == "1/2-1/2":
		hist.End(0, game.Agreement)
	case g.Result == "1-0":
		hist.End(game.Second, game.Resignation)
	case g.Result == "0-1":
		hist.End(game.First, game.Resignation)
	default:
		return nil, nil, fmt.Errorf("the moves do not end the game, and the result %q is not 1-0, 0-1 or 1/2-1/2", g.Result)
	}
	return row, hist, nil
}

// end writes a game's end into its row.
func end(row *store.Game, hist *game.Game, ended int64) {
	res, why := hist.Result()
	row.Status, row.Result, row.Reason = store.Finished, res.String(), why.String()
	row.Moves = len(hist.Moves())
	row.Position = hist.Position().String()
	row.Updated = ended
}

// play writes a game as the server does: created, then move by move, the
// last move or a later write ending it.
func play(ctx context.Context, st store.Store, g Game) error {
	row, hist, err := replay(g)
	if err != nil {
		return err
	}
	if err := st.CreateGame(ctx, row); err != nil {
		return err
	}
	// The game again, move by move: the last move ends it when the rules
	// do.
	again := game.NewGame(hist.Start())
	for i, m := range hist.Moves() {
		if err := again.Play(m); err != nil {
			return err
		}
		row.Moves = i + 1
		row.Position = again.Position().String()
		row.Updated++
		if res, _ := again.Result(); res.Over() {
			end(row, hist, g.Ended)
		}
		if err := st.AddMove(ctx, row, store.Move{Ply: i, Move: m, PlayedAt: row.Updated}); err != nil {
			return err
		}
	}
	if row.Status == store.Finished {
		return nil
	}
	end(row, hist, g.Ended)
	return st.UpdateGame(ctx, row)
}

// importGame imports a game as a record is.
func importGame(ctx context.Context, st store.Store, g Game) error {
	row, hist, err := replay(g)
	if err != nil {
		return err
	}
	end(row, hist, g.Ended)
	row.Ended = g.Ended
	moves := make([]store.Move, len(hist.Moves()))
	for i, m := range hist.Moves() {
		moves[i] = store.Move{Ply: i, Move: m, PlayedAt: g.Ended}
	}
	return st.ImportGames(ctx, []store.ArchiveImport{{Game: row, Moves: moves, RecordKey: g.Source + ":" + g.ID}})
}
