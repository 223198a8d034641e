// Package archiveseed plays the games that seed the game archive's
// benchmarks (tools/seedarchive, tools/archivebench): games of the engine
// against itself between a few hundred accounts, guests and the computer,
// rated and casual, at every speed, as the server would have stored them
// once over. Game i of a World is a function of the seed and i alone.
package archiveseed

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/server/live"
	"github.com/magneton-games/magneton/server/ratings"
	"github.com/magneton-games/magneton/store"
)

// A World is everything a seed decides before the games: the games
// played, the accounts and the guests who play them. Game i of a world
// is a function of the seed and i alone (play), so that the games can be
// played in any order, on any number of cores, and come out the same.
type World struct {
	seed     int64
	regs     []*games.Game // the games played, in turn (game i plays regs[i % len])
	rules    []game.Rules  // their default rules
	families []string      // their rated families
	Accounts []Account
	guests   []guest
	nodes    int64 // the search's budget a move
}

// Account is a seeded account and the rating it plays at.
type Account struct {
	ID, Name    string
	Rating      int
	Provisional bool // its rating shows a "?"
}

// guest is a seeded guest: its name and the hash of its guest token.
type guest struct{ name, hash string }

// Epoch is the day the seeded games begin (2025-01-01, UTC), and spacing
// the time between the starts of two games: 100,000 games fill a year.
var (
	Epoch   = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	spacing = (5 * time.Minute).Milliseconds()
)

// NewWorld makes the world of a seed: nAccounts accounts with ratings
// around 1500, 200 guests, the games named in which.
func NewWorld(seed int64, which []string, nAccounts int, nodes int64) (*World, error) {
	w := &World{seed: seed, nodes: nodes}
	for _, name := range which {
		reg, err := games.Lookup(name)
		if err != nil {
			return nil, err
		}
		rules := reg.Spec.New(reg.Spec.Defaults())
		family, err := ratings.Family(rules)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		w.regs, w.rules, w.families = append(w.regs, reg), append(w.rules, rules), append(w.families, family)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0xacc0))
	taken := map[string]bool{}
	for len(w.Accounts) < nAccounts {
		name := playerName(rng)
		if k := store.LookKey(name); taken[k] {
			continue
		} else {
			taken[k] = true
		}
		r := int(math.Round(1500 + 350*rng.NormFloat64()))
		w.Accounts = append(w.Accounts, Account{ID: randomID(rng), Name: name, Rating: min(max(r, 600), 2700), Provisional: rng.IntN(7) == 0})
	}
	for range 200 {
		w.guests = append(w.guests, guest{name: fmt.Sprintf("Guest-%04d", rng.IntN(10000)), hash: tokenHash(rng)})
	}
	return w, nil
}

// syllables make up the accounts' names.
var syllables = strings.Fields("ka ro mi ta ne so vu da le ki po ra zu me fa go ni be tu sa ma jo ve lu")

// playerName makes a name as people choose them: two or three syllables
// with a capital, and digits after some.
func playerName(rng *rand.Rand) string {
	var b strings.Builder
	for range 2 + rng.IntN(2) {
		b.WriteString(syllables[rng.IntN(len(syllables))])
	}
	name := strings.ToUpper(b.String()[:1]) + b.String()[1:]
	if rng.IntN(2) == 0 {
		name += fmt.Sprint(rng.IntN(100))
	}
	return name
}

// randomID is an id as ids.New makes them (96 bits, base64url), drawn
// from rng.
func randomID(rng *rand.Rand) string {
	b := make([]byte, 12)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// tokenHash is the hash of a token drawn from rng, as ids.Hash keeps it.
func tokenHash(rng *rand.Rand) string {
	sum := sha256.Sum256([]byte(randomID(rng)))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// gameRand is the random source of game i: its id is the first thing
// drawn from it (gameID).
func (w *World) gameRand(i int) *rand.Rand { return rand.New(rand.NewPCG(uint64(w.seed), uint64(i)+1)) }

// GameID is the id of game i.
func (w *World) GameID(i int) string { return randomID(w.gameRand(i)) }

// clock is a time control the seeded games use, and how often.
type clock struct {
	initial, increment time.Duration
	perMove            bool
	weight             int
}

// clocks are the time controls of the seeded games: every speed class of
// archive.Speed, blitz the most common.
var clocks = []clock{
	{initial: time.Minute, weight: 10},                             // bullet
	{initial: 2 * time.Minute, increment: time.Second, weight: 10}, // bullet
	{initial: 3 * time.Minute, increment: 2 * time.Second, weight: 20},
	{initial: 5 * time.Minute, increment: 3 * time.Second, weight: 15},
	{initial: 10 * time.Minute, increment: 5 * time.Second, weight: 15}, // rapid
	{initial: 15 * time.Minute, increment: 10 * time.Second, weight: 10},
	{initial: 30 * time.Minute, increment: 20 * time.Second, weight: 5}, // classical
	{initial: 24 * time.Hour, perMove: true, weight: 7},                 // correspondence
	{weight: 8}, // untimed
}

// pickClock draws a time control; a game against the computer has no
// correspondence clock (the server refuses one).
func pickClock(rng *rand.Rand, computer bool) clock {
	total := 0
	for _, c := range clocks {
		if !(computer && c.perMove) {
			total += c.weight
		}
	}
	k := rng.IntN(total)
	for _, c := range clocks {
		if computer && c.perMove {
			continue
		}
		if k < c.weight {
			return c
		}
		k -= c.weight
	}
	panic("unreachable")
}

// levelOf is the level an account of a rating plays at: level 1 at 700,
// a level each 250 points, at most 6 (the seed's budget a move makes
// the levels above it play alike).
func levelOf(rating int) int { return min(max((rating-700)/250+1, 1), 6) }

// seatPlayer is who holds a seat, and the level the engine plays it at.
type seatPlayer struct {
	name, user, guest, rating string
	level                     int
	computer                  bool
}

func (w *World) accountSeat(rng *rand.Rand, a Account, rated bool) seatPlayer {
	p := seatPlayer{name: a.Name, user: a.ID, level: levelOf(a.Rating)}
	if rated {
		// The rating moves a little from game to game.
		r := a.Rating + int(math.Round(40*rng.NormFloat64()))
		p.rating = fmt.Sprint(r)
		if a.Provisional {
			p.rating += "?"
		}
	}
	return p
}

func (w *World) guestSeat(rng *rand.Rand) seatPlayer {
	gu := w.guests[rng.IntN(len(w.guests))]
	return seatPlayer{name: gu.name, guest: gu.hash, level: 1 + rng.IntN(4)}
}

// twoAccounts draws two different accounts.
func (w *World) twoAccounts(rng *rand.Rand) (Account, Account) {
	a := rng.IntN(len(w.Accounts))
	b := (a + 1 + rng.IntN(len(w.Accounts)-1)) % len(w.Accounts)
	return w.Accounts[a], w.Accounts[b]
}

// Play plays game i of the world: who plays it (rated between two
// accounts, casual between accounts, an account and a guest or two
// guests, or against the computer), its clock, a few random opening
// moves, then the engine for both sides, each at its player's level,
// until the rules end it or the players stop: a resignation, a draw by
// agreement, a loss on time. One game in fifty is aborted after a move
// at most, as players abandon them. The clocks and the moves' times are
// made up to match the time control.
func (w *World) Play(ctx context.Context, i int) (store.SeededGame, error) {
	rng := w.gameRand(i)
	k := i % len(w.regs)
	reg, rules := w.regs[k], w.rules[k]
	start := rules.Start()
	g := &store.Game{
		ID: randomID(rng), Game: reg.Spec.Name, Rules: rules.Settings().String(), Start: start.String(), Opponent: live.OpponentHuman,
		Public: rng.IntN(20) != 0, Status: store.Finished, DrawOffer: -1, RematchBy: -1, TakebackBy: -1,
	}
	var seats [2]seatPlayer
	switch kind := rng.IntN(100); {
	case kind < 65: // two accounts: rated or casual
		g.Rated = kind < 45
		a, b := w.twoAccounts(rng)
		seats = [2]seatPlayer{w.accountSeat(rng, a, g.Rated), w.accountSeat(rng, b, g.Rated)}
	case kind < 75:
		seats = [2]seatPlayer{w.accountSeat(rng, w.Accounts[rng.IntN(len(w.Accounts))], false), w.guestSeat(rng)}
	case kind < 80:
		seats = [2]seatPlayer{w.guestSeat(rng), w.guestSeat(rng)}
	default:
		human := w.guestSeat(rng)
		if rng.IntN(5) < 3 {
			human = w.accountSeat(rng, w.Accounts[rng.IntN(len(w.Accounts))], false)
		}
		lv := 1 + rng.IntN(8)
		g.Opponent, g.Level, g.ComputerPlace = live.OpponentComputer, lv, live.ComputerServer
		if rng.IntN(4) == 0 {
			g.ComputerPlace = live.ComputerBrowser
		}
		seats = [2]seatPlayer{human, {name: live.ComputerLabel(lv), level: min(lv, 6), computer: true}}
	}
	if rng.IntN(2) == 0 {
		seats[0], seats[1] = seats[1], seats[0]
	}
	if g.Rated {
		g.Family = w.families[k]
	}
	for s, p := range seats {
		g.Players[s], g.Users[s], g.Guests[s], g.Ratings[s] = p.name, p.user, p.guest, p.rating
		if !p.computer {
			g.Seats[s] = tokenHash(rng)
		}
	}
	c := pickClock(rng, g.Opponent == live.OpponentComputer)
	g.ClockInitial, g.ClockIncrement, g.PerMove = c.initial, c.increment, c.perMove
	g.Remaining = [2]time.Duration{c.initial, c.initial}
	g.Created = Epoch + int64(i)*spacing + rng.Int64N(spacing)
	now := g.Created

	hist := game.NewGame(start)
	var moves []store.Move
	// move plays m at the clock: the mover thinks, its clock runs (not
	// for the first move of each side, as on the server) and gains its
	// increment.
	move := func(m string) error {
		side := hist.Position().Side()
		if err := hist.Play(m); err != nil {
			return fmt.Errorf("game %d (%s): move %d %s: %w", i, g.ID, len(moves)+1, m, err)
		}
		think := thinkTime(rng, c, g.Remaining[side])
		now += think.Milliseconds()
		switch {
		case c.perMove:
			g.Remaining[side] = c.initial
		case c.initial > 0 && len(moves) >= 2:
			g.Remaining[side] = max(g.Remaining[side]-think, time.Second) + c.increment
		}
		var left time.Duration
		if c.initial > 0 {
			left = g.Remaining[side]
		}
		moves = append(moves, store.Move{Ply: len(moves), Move: m, PlayedAt: now, Clock: left})
		return nil
	}

	if rng.IntN(50) == 0 {
		// Aborted: nobody moved, or the second player never answered.
		g.Status, g.Result, g.Reason = store.Aborted, game.Ongoing.String(), live.ReasonNoFirstMove
		if rng.IntN(2) == 0 {
			if m, ok := openingMove(rng, hist.Position()); ok {
				if err := move(m); err != nil {
					return store.SeededGame{}, err
				}
				g.Reason = live.ReasonAborted
			}
		}
		return w.finish(g, hist, moves, now+60_000), nil
	}

	for range rng.IntN(4) {
		m, ok := openingMove(rng, hist.Position())
		if !ok {
			break
		}
		if err := move(m); err != nil {
			return store.SeededGame{}, err
		}
	}
	var players [2]ai.Player
	for s, p := range seats {
		pl, err := games.NewPlayer(fmt.Sprintf("level:%d", p.level), rules, ai.Config{HashMB: ai.MinHashMB, Seed: rng.Int64N(math.MaxInt64-1) + 1})
		if err != nil {
			return store.SeededGame{}, err
		}
		players[s] = pl
	}
	// The players stop after this many plies if the rules have not
	// ended the game: Magneton's engines, left alone, play hundreds.
	stop := 20 + rng.IntN(60)
	if reg.Spec.Name == "magneton" {
		stop = 40 + rng.IntN(160)
	}
	for len(moves) < stop {
		if r, _ := hist.Result(); r.Over() {
			break
		}
		side := hist.Position().Side()
		m, err := players[side].Move(ctx, hist, ai.Limits{Nodes: w.nodes})
		if err != nil {
			return store.SeededGame{}, fmt.Errorf("game %d (%s): %s: %w", i, g.ID, players[side].Name(), err)
		}
		if err := move(m); err != nil {
			return store.SeededGame{}, err
		}
	}
	end := now
	if r, _ := hist.Result(); !r.Over() {
		side := hist.Position().Side()
		switch x := rng.IntN(100); {
		case c.initial > 0 && !c.perMove && x < 15:
			hist.End(side, game.Timeout)
			end += g.Remaining[side].Milliseconds()
			g.Remaining[side] = 0
		case x < 60:
			hist.End(side, game.Resignation)
			end += 1000 + rng.Int64N(20_000)
		default:
			hist.End(side, game.Agreement)
			end += 1000 + rng.Int64N(20_000)
		}
	}
	r, why := hist.Result()
	g.Result, g.Reason = r.String(), why.String()
	return w.finish(g, hist, moves, end), nil
}

// finish fills in the row of a game that ended at end.
func (w *World) finish(g *store.Game, hist *game.Game, moves []store.Move, end int64) store.SeededGame {
	g.Moves, g.Position = len(moves), hist.Position().String()
	g.ClockAt, g.Updated = end, end
	if g.Status == store.Finished {
		g.Ended = end
	}
	return store.SeededGame{Game: g, Moves: moves}
}

// openingMove draws a random move of s that does not end the game.
func openingMove(rng *rand.Rand, s game.State) (string, bool) {
	cand := s.Moves()
	rng.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
	for _, m := range cand {
		next, err := s.Play(m)
		if err != nil {
			continue
		}
		if r, _ := next.Outcome(); !r.Over() {
			return m, true
		}
	}
	return "", false
}

// thinkTime is how long a player thinks on a move: a sixtieth of its
// initial time and most of its increment on average, less when its time
// runs short; a few hours a move by correspondence, seconds without a
// clock.
func thinkTime(rng *rand.Rand, c clock, left time.Duration) time.Duration {
	return thinkNs(rng, c, left).Truncate(time.Millisecond)
}

// thinkNs is thinkTime to the nanosecond (the database keeps times to
// the millisecond).
func thinkNs(rng *rand.Rand, c clock, left time.Duration) time.Duration {
	e := rng.ExpFloat64()
	switch {
	case c.perMove:
		return min(time.Duration(e*float64(3*time.Hour)), c.initial*5/6)
	case c.initial == 0:
		return 2*time.Second + time.Duration(e*float64(8*time.Second))
	}
	mean := c.initial/60 + c.increment*4/5
	t := time.Duration((0.1 + 0.9*e) * float64(mean))
	return max(min(t, left/8), 200*time.Millisecond)
}
