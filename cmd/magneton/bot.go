package main

import (
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/bot"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
)

func init() {
	commands = append(commands, botCommand)
}

// botOptions are the flags of magneton bot.
type botOptions struct {
	server, token, engine    string
	games                    []string
	rated, casual, corr      bool
	minClock, maxClock       time.Duration
	maxGames, quitAfter      int
	movetime                 time.Duration
	challenge                string
	chGame, chRules, chClock string
	chColor                  string
	chRated                  bool
	threads, hash            int
}

func botCommand(g *globalOptions) *cobra.Command {
	o := &botOptions{}
	c := &cobra.Command{
		Use:   "bot",
		Short: "Connect an engine to a play server as a bot account",
		Long: `Connect an engine to a play server (magneton serve) as a bot account,
through the server's Bot API (docs/protocol.md, "Bots"): read the bot's event
stream, accept the challenges that match the settings below and decline the
others, and play each game over the game socket with the engine on the
site's clock (the engine's go command gets both sides' remaining time and
increment). The bot never resigns. After a dropped connection it reconnects
with backoff and resumes the games in progress.

The account must be a bot (its owner's "Make this account a bot", POST
/api/account/bot) and the token one of its API tokens, made on its page;
--token may be left out when MAGNETON_TOKEN holds it.

--engine is any player of the match command: level:N (1 to 8), or
ugi:PATH, an engine program speaking UGI that PATH names, started once a
game (as "PATH ugi"; ugi:/usr/local/bin/magneton plays magneton ugi).

--challenge NAME challenges the account NAME once connected (a person or
another bot: two bots so play each other), with the --challenge-* settings.`,
		Example: `  magneton bot --server http://127.0.0.1:8080 --token mgt_... --engine level:6
  magneton bot --server https://play.example.org --engine "ugi:./my-engine" --games magneton --rated=false --max-clock 10m
  magneton bot --server http://127.0.0.1:8080 --engine level:3 --challenge robo2 --challenge-clock 1+0 --challenge-rated --quit-after 1`,
		Args: exactArgs(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			cfg, err := o.config(g)
			if err != nil {
				return err
			}
			cfg.Logger = slog.New(slog.NewTextHandler(c.ErrOrStderr(), nil))
			return bot.Run(c.Context(), cfg)
		},
	}
	f := c.Flags()
	f.StringVar(&o.server, "server", "", "the play server's address, such as http://127.0.0.1:8080")
	f.StringVar(&o.token, "token", "", "the bot account's API token (default $MAGNETON_TOKEN)")
	f.StringVar(&o.engine, "engine", "level:4", "the engine: level:N or ugi:PATH")
	f.StringSliceVar(&o.games, "games", nil, "the games whose challenges it accepts, such as magneton,tumbling (default all)")
	f.BoolVar(&o.rated, "rated", true, "accept rated challenges")
	f.BoolVar(&o.casual, "casual", true, "accept casual challenges")
	f.BoolVar(&o.corr, "correspondence", false, "accept correspondence clocks (days a move)")
	f.DurationVar(&o.minClock, "min-clock", 0, "the shortest live clock accepted (its initial time; 0 for no bound)")
	f.DurationVar(&o.maxClock, "max-clock", 0, "the longest live clock accepted (0 for no bound)")
	f.IntVar(&o.maxGames, "max-games", 1, "the games played at once (1 to 16)")
	f.DurationVar(&o.movetime, "movetime", time.Second, "the time of a move in games without a live clock")
	f.IntVar(&o.quitAfter, "quit-after", 0, "quit after this many games (0 for never)")
	f.StringVar(&o.challenge, "challenge", "", "challenge the account of this name once connected")
	f.StringVar(&o.chGame, "challenge-game", "magneton", "the challenge's game")
	f.StringVar(&o.chRules, "challenge-rules", "", "the challenge's rules: a variant's name or options (default the game's)")
	f.StringVar(&o.chClock, "challenge-clock", "5+3", `the challenge's clock: "5+3" (minutes + seconds), "3d" (days a move) or "" for none`)
	f.StringVar(&o.chColor, "challenge-color", "random", "the bot's side in the challenge: first, second or random")
	f.BoolVar(&o.chRated, "challenge-rated", false, "make the challenge rated")
	f.IntVar(&o.threads, "threads", 1, "the search threads of a level:N engine")
	f.IntVar(&o.hash, "hash", 0, "the transposition table of a level:N engine, MB (0: its default)")
	return c
}

// config checks the flags and makes the bot's configuration. Its errors
// are usage errors.
func (o *botOptions) config(g *globalOptions) (bot.Config, error) {
	var cfg bot.Config
	if o.token == "" {
		o.token = os.Getenv("MAGNETON_TOKEN")
	}
	switch {
	case !strings.HasPrefix(o.server, "http://") && !strings.HasPrefix(o.server, "https://"):
		return cfg, usagef("bot: --server %q: want the server's address, such as http://127.0.0.1:8080", o.server)
	case o.token == "":
		return cfg, usagef("bot: no token: give --token or set MAGNETON_TOKEN")
	case o.maxGames < 1 || o.maxGames > 16:
		return cfg, usagef("bot: --max-games %d: want 1 to 16", o.maxGames)
	case o.quitAfter < 0 || o.movetime <= 0 || o.minClock < 0 || o.maxClock < 0:
		return cfg, usagef("bot: --quit-after, --movetime and the clock bounds must not be negative")
	case o.maxClock > 0 && o.minClock > o.maxClock:
		return cfg, usagef("bot: --min-clock %s is above --max-clock %s", o.minClock, o.maxClock)
	}
	var names []string
	for _, name := range o.games {
		gm, err := games.Lookup(strings.TrimSpace(name))
		if err != nil {
			return cfg, usagef("bot: --games: %v", err)
		}
		names = append(names, gm.Spec.Name)
	}
	engine := strings.TrimSuffix(o.engine, " ugi") // "ugi:PATH ugi" says what ugi:PATH runs
	if !strings.HasPrefix(engine, "ugi:") {
		_, rules, err := g.setup()
		if err != nil {
			return cfg, err
		}
		if _, err := games.NewPlayer(engine, rules, ai.Config{HashMB: ai.MinHashMB}); err != nil {
			return cfg, usageError{fmt.Errorf("bot: --engine: %w", err)}
		}
	}
	cfg = bot.Config{Server: o.server, Token: o.token, Games: names, Rated: o.rated, Casual: o.casual, Correspondence: o.corr,
		MinClock: o.minClock, MaxClock: o.maxClock, MaxGames: o.maxGames, MoveTime: o.movetime, QuitAfter: o.quitAfter,
		NewPlayer: func(rules game.Rules) (ai.Player, error) {
			return games.NewPlayer(engine, rules, ai.Config{Threads: o.threads, HashMB: o.hash})
		}}
	if o.challenge != "" {
		cfg.Challenge = &bot.Challenge{To: o.challenge, Game: o.chGame, Rules: o.chRules, Clock: o.chClock, Color: o.chColor, Rated: o.chRated}
	}
	return cfg, nil
}
