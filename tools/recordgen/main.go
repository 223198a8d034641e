// Command recordgen writes random finished games as files of game records,
// deterministic by seed, for the benchmark of the archive's import
// (docs/benchmarks.md, "Game archive: import"): in one file, or a file a
// game, as Boardspace.net's SGF of Tumbling Down (tumbling.FormatBoardspace),
// the site's SGF (tumbling.FormatSGF) or the site's PGN-like records of
// both games (package record).
//
// Each game is played at random from its start to its end by the rules
// (or, after --max-plies plies, resigned by the side to move), between two
// of 200 made-up players, on one of 3,650 days: different games, so that
// the import finds no duplicates.
//
// Run it from the repository's root:
//
//	go run ./tools/recordgen --games 10000 --files 1 --format boardspace --out /tmp/records
//
// --empty-db URL makes (or migrates) a database and exits, for a
// benchmark's fresh start: magneton import wants one that exists.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/record"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/tumbling"
)

func main() {
	var (
		seed     = flag.Uint64("seed", 1, "the random seed: the same seed writes the same files")
		n        = flag.Int("games", 10000, "the number of games")
		files    = flag.Int("files", 1, "the number of files to spread them over, in turn (1: one file; the number of games: a file each)")
		format   = flag.String("format", "boardspace", "boardspace (Boardspace's SGF), sgf (the site's SGF) or pgn (the site's records, both games)")
		out      = flag.String("out", "records", "the folder to write the files in")
		maxPlies = flag.Int("max-plies", 300, "a game still going after this many plies is resigned by the side to move")
		emptyDB  = flag.String("empty-db", "", "make (or migrate) the database at this URL and exit")
	)
	flag.Parse()
	if *emptyDB != "" {
		st, err := store.Open(context.Background(), *emptyDB)
		if err != nil {
			log.Fatal(err)
		}
		st.Close()
		return
	}
	if *n < 1 || *files < 1 || *files > *n {
		log.Fatalf("want 1 <= --files <= --games, not %d files of %d games", *files, *n)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	ext := map[string]string{"boardspace": ".sgf", "sgf": ".sgf", "pgn": ".pgn"}[*format]
	if ext == "" {
		log.Fatalf("--format %q: want boardspace, sgf or pgn", *format)
	}
	w := make([]*os.File, *files)
	for i := range w {
		f, err := os.Create(filepath.Join(*out, fmt.Sprintf("records-%05d%s", i, ext)))
		if err != nil {
			log.Fatal(err)
		}
		w[i] = f
	}
	rng := rand.New(rand.NewPCG(*seed, 0x9e3779b97f4a7c15))
	bs, err := tumbling.Spec.Rules("boardspace")
	if err != nil {
		log.Fatal(err)
	}
	plies := 0
	for i := range *n {
		var rules game.Rules
		switch *format {
		case "boardspace":
			rules = bs
		case "sgf":
			rules = tumbling.Rules{}
		default:
			gm := games.All()[i%len(games.All())]
			rules = gm.Spec.New(gm.Spec.Defaults())
		}
		g := play(rng, rules, *maxPlies)
		plies += len(g.Moves())
		a, b := rng.IntN(200), rng.IntN(199)
		if b >= a {
			b++ // two players, not one twice
		}
		players := [2]string{fmt.Sprintf("player%03d", a), fmt.Sprintf("player%03d", b)}
		day := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, rng.IntN(3650))
		text, err := write(*format, g, players, day)
		if err != nil {
			log.Fatalf("game %d: %v", i+1, err)
		}
		if _, err := w[i%*files].WriteString(text); err != nil {
			log.Fatal(err)
		}
	}
	for _, f := range w {
		if err := f.Close(); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Printf("%d games (%d plies, %.1f a game) in %d files in %s\n", *n, plies, float64(plies)/float64(*n), *files, *out)
}

// play plays a random game to its end, or resigns it after maxPlies.
func play(rng *rand.Rand, rules game.Rules, maxPlies int) *game.Game {
	g := game.NewGame(rules.Start())
	for len(g.Moves()) < maxPlies {
		if res, _ := g.Result(); res.Over() {
			return g
		}
		m, ok := g.Position().RandomMove(rng)
		if !ok {
			break
		}
		if err := g.Play(m); err != nil {
			log.Fatal(err)
		}
	}
	if res, _ := g.Result(); !res.Over() {
		if err := g.End(g.Position().Side(), game.Resignation); err != nil {
			log.Fatal(err)
		}
	}
	return g
}

// write writes a game as a record of format.
func write(format string, g *game.Game, players [2]string, day time.Time) (string, error) {
	if format == "pgn" {
		return record.FromTranscript(game.Transcript{Game: g, Players: players, Date: day}).Format() + "\n", nil
	}
	res, why := g.Result()
	h := tumbling.SGFGame{Rules: g.Rules().(tumbling.Rules), Moves: g.Moves(), Black: players[0], Red: players[1],
		Date: day.Format("2006-01-02"), Result: res.String()}
	if why == game.Resignation {
		h.Ending = "resignation"
	}
	if format == "sgf" {
		return tumbling.FormatSGF(h), nil
	}
	name := "TD-" + strings.Join([]string{players[1], players[0], day.Format("2006-01-02"), "1200"}, "-")
	return tumbling.FormatBoardspace(h, name)
}
