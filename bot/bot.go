// Package bot is a client of the play server's Bot API
// (docs/protocol.md, "Bots"): it reads a bot account's event stream,
// accepts the challenges that match its settings and declines the
// others, plays each game over the game socket with an engine (any
// ai.Player: a UGI engine of another program, or level:N) on the site's
// clock, and reconnects after a dropped connection, with backoff,
// resuming the games in progress. `magneton bot` runs it.
package bot

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/server/bots"
	"github.com/magneton-games/magneton/server/lobby"
)

// Event is one line of the bot's event stream.
type Event = bots.Event

// Challenge is a challenge the bot makes to another account once it is
// connected (POST /api/challenges).
type Challenge struct {
	To    string `json:"to"`
	Game  string `json:"game"`
	Rules string `json:"rules,omitempty"`
	Clock string `json:"clock,omitempty"`
	Color string `json:"color,omitempty"`
	Rated bool   `json:"rated"`
}

// Config is what a bot runs with.
type Config struct {
	// Server is the site's address (http://127.0.0.1:8080); Token the
	// bot account's API token.
	Server, Token string
	// NewPlayer makes the engine of one game.
	NewPlayer func(rules game.Rules) (ai.Player, error)
	// Games are the games whose challenges it accepts (nil: all); Rated
	// and Casual whether it accepts rated and casual ones; MinClock and
	// MaxClock bound a live clock's initial time (0: no bound);
	// Correspondence accepts clocks of days a move; MaxGames is how many
	// games it plays at once (0: 1).
	Games                  []string
	Rated, Casual          bool
	MinClock, MaxClock     time.Duration
	Correspondence         bool
	MaxGames               int
	MoveTime               time.Duration // a move's time in a game without a clock (0: 1 s)
	Challenge              *Challenge    // made once connected, nil for none
	QuitAfter              int           // return after this many games ended (0: never)
	Logger                 *slog.Logger
	HTTP                   *http.Client  // nil: a client without a timeout, for the stream
	StreamSilence, Backoff time.Duration // 0: 30 s without a line means a dead stream; 1 s, doubled to 30 s
}

// ErrFatal marks an error after which reconnecting is no use: a token
// refused, an account that is no bot.
var ErrFatal = errors.New("the server refuses this bot")

// Bot is one running bot.
type Bot struct {
	cfg        Config
	mu         sync.Mutex
	playing    map[string]bool
	finished   int
	done       chan string // a game's id as its play ends
	challenged bool
	wg         sync.WaitGroup
	ctx        context.Context // the bot's run, which its games live as long as (not one stream's)
}

// Run runs a bot until ctx ends, QuitAfter games have ended, or the
// server refuses it for good (an error wrapping ErrFatal).
func Run(ctx context.Context, cfg Config) error {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{}
	}
	if cfg.MaxGames <= 0 {
		cfg.MaxGames = 1
	}
	if cfg.MoveTime <= 0 {
		cfg.MoveTime = time.Second
	}
	if cfg.StreamSilence <= 0 {
		cfg.StreamSilence = 30 * time.Second
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = time.Second
	}
	cfg.Server = strings.TrimSuffix(cfg.Server, "/")
	b := &Bot{cfg: cfg, playing: map[string]bool{}, done: make(chan string, 16)}
	ctx, cancel := context.WithCancel(ctx)
	b.ctx = ctx
	defer b.wg.Wait()
	defer cancel()
	go b.count(ctx, cancel)
	wait := cfg.Backoff
	for {
		began := time.Now()
		err := b.stream(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if errors.Is(err, ErrFatal) {
			return err
		}
		if time.Since(began) > 30*time.Second {
			wait = cfg.Backoff
		}
		cfg.Logger.Warn("event stream lost; reconnecting", "err", err, "in", wait)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(2*wait, 30*time.Second)
	}
}

// count counts the games whose play ended, and ends the bot after
// QuitAfter.
func (b *Bot) count(ctx context.Context, stop context.CancelFunc) {
	for {
		select {
		case <-ctx.Done():
			return
		case id := <-b.done:
			b.mu.Lock()
			delete(b.playing, id)
			b.finished++
			n := b.finished
			b.mu.Unlock()
			if b.cfg.QuitAfter > 0 && n >= b.cfg.QuitAfter {
				b.cfg.Logger.Info("games played; quitting", "games", n)
				stop()
				return
			}
		}
	}
}

// request sends an API request with the token; out, if not nil, takes
// the JSON answer. An answer that is not 2xx is an error with the
// server's message.
func (b *Bot) request(ctx context.Context, method, path string, body, out any) error {
	if body == nil {
		body = struct{}{}
	}
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, b.cfg.Server+path, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+b.cfg.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := b.cfg.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		return answerError(resp.StatusCode, answer)
	}
	if out != nil {
		return json.Unmarshal(answer, out)
	}
	return nil
}

// answerError is a refused request's error: the server's code and text,
// fatal for a token refused.
func answerError(status int, data []byte) error {
	var e struct {
		Error string `json:"error"`
		Code  string `json:"code"`
	}
	json.Unmarshal(data, &e)
	if e.Error == "" {
		e.Error = strings.TrimSpace(string(data))
	}
	err := fmt.Errorf("%d %s: %s", status, e.Code, e.Error)
	if status == http.StatusUnauthorized || e.Code == "stream_bot" {
		return fmt.Errorf("%w: %w", ErrFatal, err)
	}
	return err
}

// stream reads one connection of the event stream until it ends.
func (b *Bot) stream(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.cfg.Server+"/api/bot/stream", nil)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrFatal, err)
	}
	req.Header.Set("Authorization", "Bearer "+b.cfg.Token)
	resp, err := b.cfg.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return answerError(resp.StatusCode, data)
	}
	b.cfg.Logger.Info("connected", "server", b.cfg.Server)
	b.challengeOnce(ctx)
	// A stream silent for StreamSilence (no event, no keep-alive) is dead.
	alive := time.AfterFunc(b.cfg.StreamSilence, cancel)
	defer alive.Stop()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		alive.Reset(b.cfg.StreamSilence)
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue // keep-alive
		}
		var ev Event
		if err := json.Unmarshal(line, &ev); err != nil {
			b.cfg.Logger.Warn("event not read", "line", string(line), "err", err)
			continue
		}
		if err := b.handle(ctx, ev); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return io.ErrUnexpectedEOF
}

// challengeOnce makes the configured challenge, the first time the bot
// connects.
func (b *Bot) challengeOnce(ctx context.Context) {
	b.mu.Lock()
	c := b.cfg.Challenge
	if c == nil || b.challenged {
		b.mu.Unlock()
		return
	}
	b.challenged = true
	b.mu.Unlock()
	var out lobby.Challenged
	if err := b.request(ctx, http.MethodPost, "/api/challenges", c, &out); err != nil {
		b.cfg.Logger.Error("challenge not made", "to", c.To, "err", err)
		return
	}
	b.cfg.Logger.Info("challenge made", "to", c.To, "game", out.ID)
}

// handle acts on one event.
func (b *Bot) handle(ctx context.Context, ev Event) error {
	log := b.cfg.Logger.With("game", ev.ID)
	switch ev.Type {
	case "challenge":
		if why := b.refusal(ev); why != "" {
			log.Info("challenge declined", "from", ev.From, "why", why)
			if err := b.request(ctx, http.MethodPost, "/api/challenges/"+ev.ID+"/decline", nil, nil); err != nil {
				log.Warn("decline refused", "err", err)
			}
			return nil
		}
		log.Info("challenge accepted", "from", ev.From, "game", ev.Game, "rules", ev.Rules, "clock", ev.Clock, "rated", ev.Rated)
		if err := b.request(ctx, http.MethodPost, "/api/challenges/"+ev.ID+"/accept", nil, nil); err != nil {
			log.Warn("accept refused", "err", err)
		}
	case "gameStart":
		b.start(ev)
	case "gameFinish":
		log.Info("game over", "status", ev.Status, "result", ev.Result, "reason", ev.Reason)
	case "challengeCanceled":
		log.Info("challenge withdrawn")
	case "error":
		if ev.Code == "token_revoked" {
			return fmt.Errorf("%w: %s", ErrFatal, ev.Error)
		}
		return fmt.Errorf("%s: %s", ev.Code, ev.Error)
	}
	return nil
}

// refusal says why the bot declines a challenge, "" to accept it.
func (b *Bot) refusal(ev Event) string {
	c := b.cfg
	b.mu.Lock()
	busy := len(b.playing) >= c.MaxGames
	b.mu.Unlock()
	switch {
	case len(c.Games) > 0 && !slices.Contains(c.Games, ev.Game):
		return "game " + ev.Game
	case ev.Rated && !c.Rated:
		return "rated"
	case !ev.Rated && !c.Casual:
		return "casual"
	case busy:
		return "busy"
	}
	initial, _, perMove, err := lobby.ParseClock(ev.Clock)
	switch {
	case err != nil:
		return "clock " + ev.Clock
	case perMove && !c.Correspondence:
		return "correspondence"
	case !perMove && initial > 0 && (c.MinClock > 0 && initial < c.MinClock || c.MaxClock > 0 && initial > c.MaxClock):
		return "clock " + ev.Clock
	}
	return ""
}

// start plays a game the bot is seated in, unless it plays it already;
// the game goes on when the stream drops.
func (b *Bot) start(ev Event) {
	ctx := b.ctx
	if ev.Seat == nil {
		return
	}
	b.mu.Lock()
	if b.playing[ev.ID] {
		b.mu.Unlock()
		return
	}
	b.playing[ev.ID] = true
	b.mu.Unlock()
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		err := b.play(ctx, ev)
		if ctx.Err() != nil {
			return // the bot stops
		}
		if err != nil {
			b.cfg.Logger.Error("game not played", "game", ev.ID, "err", err)
		}
		select {
		case b.done <- ev.ID:
		case <-ctx.Done():
		}
	}()
}
