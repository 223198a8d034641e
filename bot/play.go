package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/wire"
)

// message is any message of the game socket as the bot reads it.
type message struct {
	wire.State
	Code    string `json:"code"`
	Message string `json:"message"`
}

// thought is the engine's move for the position after ply moves.
type thought struct {
	ply  int
	move string
	err  error
}

// play plays a game to its end over the game socket, reconnecting with
// backoff when the socket drops.
func (b *Bot) play(ctx context.Context, ev Event) error {
	rules, err := games.Rules(ev.Game, ev.Rules)
	if err != nil {
		return err
	}
	p, err := b.cfg.NewPlayer(rules)
	if err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	if c, ok := p.(io.Closer); ok {
		defer c.Close()
	}
	log := b.cfg.Logger.With("game", ev.ID)
	log.Info("playing", "seat", *ev.Seat, "engine", p.Name())
	wait := b.cfg.Backoff
	for {
		over, err := b.playOnce(ctx, ev.ID, *ev.Seat, rules, p)
		if over || ctx.Err() != nil {
			return nil
		}
		if errors.Is(err, ErrFatal) {
			return err
		}
		log.Warn("game socket lost; reconnecting", "err", err, "in", wait)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(2*wait, 30*time.Second)
	}
}

// playOnce plays over one connection of the game socket; over says the
// game has ended.
func (b *Bot) playOnce(ctx context.Context, id string, seat int, rules game.Rules, p ai.Player) (over bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	url := "ws" + strings.TrimPrefix(b.cfg.Server, "http") + "/api/games/" + id + "/ws"
	conn, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: b.cfg.HTTP,
		HTTPHeader: http.Header{"Authorization": {"Bearer " + b.cfg.Token}}})
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusUnauthorized {
			return false, fmt.Errorf("%w: %w", ErrFatal, err)
		}
		return false, err
	}
	defer conn.CloseNow()
	conn.SetReadLimit(4 << 20)
	msgs := make(chan message)
	readErr := make(chan error, 1)
	go func() {
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				readErr <- err
				return
			}
			var m message
			if json.Unmarshal(data, &m) == nil {
				select {
				case msgs <- m:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	g := &gameView{rules: rules, seat: seat, thought: -1}
	thoughts := make(chan thought, 1)
	thinking := -1 // the ply the engine thinks about, -1 for none
	for {
		select {
		case err := <-readErr:
			return false, err
		case m := <-msgs:
			if g.read(ctx, m, b, conn) {
				return true, nil
			}
		case t := <-thoughts:
			thinking = -1
			if t.err != nil {
				return false, fmt.Errorf("engine: %w", t.err)
			}
			if t.ply == len(g.moves) && g.myTurn() {
				send(ctx, conn, wire.ClientMsg{Type: "move", Move: t.move})
			}
		}
		if thinking < 0 && g.myTurn() && g.thought != len(g.moves) {
			thinking, g.thought = len(g.moves), len(g.moves)
			go b.think(ctx, p, g.position(), g.limits(b.cfg.MoveTime), thinking, thoughts)
		}
	}
}

// think finds the engine's move.
func (b *Bot) think(ctx context.Context, p ai.Player, pos *game.Game, lim ai.Limits, ply int, out chan<- thought) {
	var t thought
	t.ply = ply
	if pos == nil {
		t.err = errors.New("the game's moves do not replay")
	} else {
		t.move, t.err = p.Move(ctx, pos, lim)
	}
	select {
	case out <- t:
	case <-ctx.Done():
	}
}

func send(ctx context.Context, conn *websocket.Conn, m wire.ClientMsg) {
	data, _ := json.Marshal(m)
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn.Write(wctx, websocket.MessageText, data)
}

// gameView is a game as the bot follows it from the socket's messages.
type gameView struct {
	rules   game.Rules
	seat    int
	start   string // the starting position's text
	moves   []string
	last    wire.Update
	synced  bool
	thought int // the ply the engine last thought about, -1 for none
}

// read takes a message in; true when the game is over.
func (g *gameView) read(ctx context.Context, m message, b *Bot, conn *websocket.Conn) bool {
	switch m.Type {
	case "state":
		g.moves, g.last, g.synced, g.start = append([]string(nil), m.Moves...), m.Update, true, m.Start
	case "update":
		switch {
		case !g.synced:
			return false
		case m.Ply == len(g.moves)+1:
			g.moves = append(g.moves, m.Last)
		case m.Ply != len(g.moves):
			g.synced = false
			send(ctx, conn, wire.ClientMsg{Type: "sync"})
			return false
		}
		g.last = m.Update
	case "error":
		b.cfg.Logger.Warn("the server refused", "game", g.last.ID, "code", m.Code, "message", m.Message)
		g.thought = -1 // think again
		send(ctx, conn, wire.ClientMsg{Type: "sync"})
		return false
	default:
		return false
	}
	switch g.last.Status {
	case "finished", "aborted":
		return true
	}
	return false
}

// myTurn says whether the bot is to move.
func (g *gameView) myTurn() bool {
	return g.synced && g.last.Status == "playing" && g.last.Turn == g.seat && len(g.last.Legal) > 0
}

// position replays the moves, nil when they do not replay.
func (g *gameView) position() *game.Game {
	start := g.rules.Start()
	if g.start != "" {
		s, err := g.rules.ParsePosition(g.start)
		if err != nil {
			return nil
		}
		start = s
	}
	pos := game.NewGame(start)
	for _, m := range g.moves {
		if pos.Play(m) != nil {
			return nil
		}
	}
	return pos
}

// limits are the engine's limits for a move: the site's clock, as of
// the last message, or moveTime in a game without a live clock.
func (g *gameView) limits(moveTime time.Duration) ai.Limits {
	c := g.last.Clock
	if c == nil || c.PerMove || c.InitialMS == 0 {
		return ai.Limits{MoveTime: moveTime}
	}
	var lim ai.Limits
	for i := range 2 {
		left := c.RemainingMS[i]
		if c.Running != nil && *c.Running == i {
			left -= max(0, g.last.At-c.At)
		}
		left -= 100 // the way to the server and back
		lim.Time[i] = time.Duration(max(left, 10)) * time.Millisecond
		lim.Increment[i] = time.Duration(c.IncrementMS) * time.Millisecond
	}
	return lim
}
