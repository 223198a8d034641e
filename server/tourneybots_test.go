package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// robot is a scripted tournament player: an account that polls the
// tournament's page for its game in progress and plays it over the
// game's socket, random legal moves with a fixed seed, then resigns, or
// offers or accepts a draw, as the game's id decides.
type robot struct {
	name string
	http *http.Client
	urls func() string // the server to reach now (a killed instance's robot moves on)
	seed uint64
	// played, if set, is called after each game the robot played.
	played func(game string)
	// keepMoving: the robot goes on moving after its resignation or draw
	// offer is due, for an opponent (a bot) that neither resigns nor
	// answers a draw offer.
	keepMoving bool
}

// newRobot signs an account up on the server at url.
func newRobot(t *testing.T, url, name string, seed uint64) *robot {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	b := &robot{name: name, http: &http.Client{Jar: jar, Timeout: 20 * time.Second}, urls: func() string { return url }, seed: seed}
	if code, body := b.post("/api/account/signup", map[string]string{"name": name, "password": "long enough"}); code != http.StatusOK {
		t.Fatalf("sign-up %s: %d %s", name, code, body)
	}
	return b
}

// post sends a JSON body and returns the status and the answer's body.
func (b *robot) post(path string, body any) (int, string) {
	data, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", b.urls()+path, strings.NewReader(string(data)))
	req.Header.Set("Content-Type", "application/json")
	resp, err := b.http.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	data, _ = io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// tourneyView is what a robot and the tests read of GET /api/tournaments/{id}.
type tourneyView struct {
	ID        string `json:"id"`
	Status    string `json:"status"`
	Format    string `json:"format"`
	Round     int    `json:"round"`
	Rounds    int    `json:"rounds"`
	Winner    string `json:"winner"`
	Me        string `json:"me"`
	Standings []struct {
		Name            string  `json:"name"`
		Rank            int     `json:"rank"`
		Points          float64 `json:"points"`
		Games           int     `json:"games"`
		Wins            int     `json:"wins"`
		Buchholz        float64 `json:"buchholz"`
		SonnebornBerger float64 `json:"sonneborn_berger"`
		Playing         string  `json:"playing"`
	} `json:"standings"`
	Pairings []struct {
		Round  int    `json:"round"`
		First  string `json:"first"`
		Second string `json:"second"`
		Game   string `json:"game"`
		Result string `json:"result"`
	} `json:"pairings"`
}

func (b *robot) view(id string) (tourneyView, error) {
	var v tourneyView
	resp, err := b.http.Get(b.urls() + "/api/tournaments/" + id)
	if err != nil {
		return v, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return v, fmt.Errorf("tournament %s: %d", id, resp.StatusCode)
	}
	return v, json.NewDecoder(resp.Body).Decode(&v)
}

// run plays the robot's games until the tournament is over or ctx ends.
// Errors of a server going away are retried: the robot's next look goes
// to whichever server urls names then.
func (b *robot) run(ctx context.Context, id string) error {
	played := map[string]bool{}
	for ctx.Err() == nil {
		v, err := b.view(id)
		if err != nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		if v.Status == "finished" {
			return nil
		}
		game := ""
		for _, s := range v.Standings {
			if s.Name == b.name {
				game = s.Playing
			}
		}
		if game == "" || played[game] {
			time.Sleep(30 * time.Millisecond)
			continue
		}
		if err := b.play(ctx, game); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			time.Sleep(100 * time.Millisecond) // the server went away: look again
			continue
		}
		played[game] = true
		if b.played != nil {
			b.played(game)
		}
	}
	return ctx.Err()
}

// gameMsg is what a robot reads of a game's messages.
type gameMsg struct {
	Type      string   `json:"type"`
	Seat      *int     `json:"seat"`
	Status    string   `json:"status"`
	Ply       int      `json:"ply"`
	Turn      int      `json:"turn"`
	Legal     []string `json:"legal"`
	DrawOffer *int     `json:"draw_offer"`
	Moves     []string `json:"moves"`
}

// play plays one game to its end.
func (b *robot) play(ctx context.Context, id string) error {
	url := "ws" + strings.TrimPrefix(b.urls(), "http") + "/api/games/" + id + "/ws"
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	conn, _, err := websocket.Dial(dctx, url, &websocket.DialOptions{HTTPClient: b.http})
	cancel()
	if err != nil {
		return err
	}
	defer conn.CloseNow()
	conn.SetReadLimit(4 << 20)
	h := fnv.New64a()
	h.Write([]byte(id))
	ending := h.Sum64() % 3 // 0: first resigns, 1: second resigns, 2: a draw
	rng := rand.New(rand.NewPCG(b.seed, h.Sum64()))
	sent, acted := -1, false
	for {
		rctx, cancel := context.WithTimeout(ctx, 3*time.Second) // nothing for long: connect again, for the whole state
		_, data, err := conn.Read(rctx)
		cancel()
		if err != nil {
			return err
		}
		var m gameMsg
		if err := json.Unmarshal(data, &m); err != nil {
			return err
		}
		if m.Type != "state" && m.Type != "update" {
			continue
		}
		if m.Type == "state" {
			m.Ply = len(m.Moves)
		}
		if m.Status == "finished" || m.Status == "aborted" {
			return nil
		}
		if m.Seat == nil {
			return errors.New("no seat in my game " + id)
		}
		seat := *m.Seat
		msg := b.act(m, seat, int(ending), &sent, &acted, rng)
		if msg == nil {
			continue
		}
		out, _ := json.Marshal(msg)
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err = conn.Write(wctx, websocket.MessageText, out)
		cancel()
		if err != nil {
			return err
		}
	}
}

// act is the robot's answer to a game's state, or nil.
func (b *robot) act(m gameMsg, seat, ending int, sent *int, acted *bool, rng *rand.Rand) map[string]string {
	switch {
	case m.Ply >= 4 && ending == 2 && seat == 1 && m.DrawOffer != nil && *m.DrawOffer == 0:
		return map[string]string{"type": "draw", "action": "accept"}
	case m.Ply >= 4 && !*acted && ending == seat:
		*acted = true
		return map[string]string{"type": "resign"}
	case m.Ply >= 4 && !*acted && ending == 2 && seat == 0:
		*acted = true
		return map[string]string{"type": "draw", "action": "offer"}
	case m.Ply < 4 && m.Turn == seat && len(m.Legal) > 0 && *sent < m.Ply:
		*sent = m.Ply
		return map[string]string{"type": "move", "move": m.Legal[rng.IntN(len(m.Legal))]}
	case b.keepMoving && m.Turn == seat && len(m.Legal) > 0 && *sent < m.Ply:
		*sent = m.Ply
		return map[string]string{"type": "move", "move": m.Legal[rng.IntN(len(m.Legal))]}
	}
	return nil
}

// runRobots runs every robot in the tournament until it ends, or fails
// the test after timeout.
func runRobots(t *testing.T, robots []*robot, id string, timeout time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, len(robots))
	for _, b := range robots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := b.run(ctx, id); err != nil {
				errs <- fmt.Errorf("%s: %w", b.name, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
