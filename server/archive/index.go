// Package archive is the site's game archive and opening explorer: what a
// finished game adds to the archive (Index, which the store calls in the
// transaction that ends the game), the explorer's answer for a position,
// the import of game records, and their HTTP API.
//
// Positions are counted up to the symmetries of the game's board
// (game.Spec.Symmetries): a game and its mirror image count in one row.
// A position's key hashes the game, its rules and the least hash among
// the position's images (Frame); a move is kept in the
// frame of that canonical image, as the least of its images under the
// symmetries that map the position there, so that the moves a symmetric
// position cannot tell apart (the first drops on an empty Magneton board)
// count as one. Results are kept from the view of the side that made the
// move, which no symmetry changes, not even one that swaps the colours.
package archive

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/store"
)

// Frame is a position seen up to its game's symmetries: its key, and the
// symmetries that map it to its canonical image, the image with the least
// hash (game.State.Hash, which the repetition rule relies on to tell
// positions apart).
type Frame struct {
	Key int64
	// maps are the symmetries that map the position to its canonical
	// image; nil stands for the identity.
	maps []*game.Symmetry
}

// FrameOf returns the frame of a position.
func FrameOf(s game.State) Frame { return frameOf(s, rulesHash(s.Rules())) }

// frameOf is FrameOf with the rules' hash (rulesHash) given.
func frameOf(s game.State, rh uint64) Frame {
	sp := s.Rules().Spec()
	best := s.Hash()
	f := Frame{maps: []*game.Symmetry{nil}}
	for i := range sp.Symmetries {
		y := &sp.Symmetries[i]
		img := y.ImageOf(s)
		if img == nil {
			continue
		}
		switch h := img.Hash(); {
		case h < best:
			best, f.maps = h, append(f.maps[:0], y)
		case h == best:
			f.maps = append(f.maps, y)
		}
	}
	f.Key = key(rh, best)
	return f
}

// Move returns a move of the position in the frame of its canonical
// image: the least of its images under the symmetries that map the
// position there.
func (f Frame) Move(move string) string {
	best := ""
	for i, y := range f.maps {
		m := move
		if y != nil {
			m = y.Move(move)
		}
		if i == 0 || m < best {
			best = m
		}
	}
	return best
}

// Key returns the archive's key of a position under rules from the hash
// of its canonical image: the hash mixed with an FNV-1a hash of the
// game's name and its settings.
func Key(rules game.Rules, hash uint64) int64 { return key(rulesHash(rules), hash) }

func key(rulesHash, hash uint64) int64 {
	mix := game.SplitMix64(rulesHash ^ hash)
	return int64(mix.Uint64())
}

// rulesHash is the FNV-1a hash of the game's name and its settings.
func rulesHash(rules game.Rules) uint64 {
	h := fnv.New64a()
	h.Write([]byte(rules.Spec().Name))
	h.Write([]byte{0})
	h.Write([]byte(rules.Settings().String()))
	return h.Sum64()
}

// Speed returns the time control class of a clock, as lichess sorts
// them by the time a game of 40 moves a side may take: "correspondence"
// for a clock of so much a move, "untimed" without a clock, then
// "bullet" (under 3 minutes), "blitz" (under 8), "rapid" (under 25) and
// "classical".
func Speed(initial, increment time.Duration, perMove bool) string {
	switch {
	case perMove:
		return "correspondence"
	case initial == 0 && increment == 0:
		return "untimed"
	}
	switch t := initial + 40*increment; {
	case t < 3*time.Minute:
		return "bullet"
	case t < 8*time.Minute:
		return "blitz"
	case t < 25*time.Minute:
		return "rapid"
	}
	return "classical"
}

// Speeds lists the time control classes of Speed, fastest first.
var Speeds = []string{"bullet", "blitz", "rapid", "classical", "correspondence", "untimed"}

// BandWidth is the width of a rating band: band b holds the average
// ratings from b to b+BandWidth-1.
const BandWidth = 200

// rating reads a rating as a game row shows it ("1500?", "1723"): its
// leading digits, 0 for none.
func rating(s string) int {
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	r, _ := strconv.Atoi(s[:end])
	return r
}

// Index computes what a finished game adds to the archive, replaying its
// moves by its rules: the store's ArchiveIndexer.
func Index(g *store.Game, moves []string) (*store.ArchiveEntry, error) {
	rules, err := games.Rules(g.Game, g.Rules)
	if err != nil {
		return nil, fmt.Errorf("index game %s: %w", g.ID, err)
	}
	s, err := rules.ParsePosition(g.Start)
	if err != nil {
		return nil, fmt.Errorf("index game %s: its start: %w", g.ID, err)
	}
	e := &store.ArchiveEntry{
		Speed: Speed(g.ClockInitial, g.ClockIncrement, g.PerMove),
		Plies: len(moves),
	}
	sum, n := 0, 0
	for _, r := range g.Ratings {
		if v := rating(r); v > 0 {
			sum, n = sum+v, n+1
		}
	}
	if n > 0 {
		e.Rating = sum / n
		e.Band = e.Rating / BandWidth * BandWidth
	}
	type moveKey struct {
		pos  int64
		move string
	}
	seenMove := make(map[moveKey]bool, len(moves))
	seenPos := make(map[int64]bool, len(moves)+1)
	rh := rulesHash(rules)
	for ply := 0; ; ply++ {
		f := frameOf(s, rh)
		if !seenPos[f.Key] {
			seenPos[f.Key] = true
			e.Positions = append(e.Positions, store.ArchivePosition{Pos: f.Key, Ply: ply})
		}
		if ply == len(moves) {
			break
		}
		mv := moves[ply]
		next, err := s.Play(mv)
		if err != nil {
			return nil, fmt.Errorf("index game %s: move %d %s: %w", g.ID, ply+1, mv, err)
		}
		k := moveKey{f.Key, f.Move(mv)}
		if !seenMove[k] {
			seenMove[k] = true
			e.Moves = append(e.Moves, store.ArchiveMove{Pos: k.pos, Move: k.move, Seat: int(s.Side()), Ply: ply})
		}
		s = next
	}
	return e, nil
}

// PositionKey returns the archive's key of a position of a game under
// rules settings (as a game row writes them), with the position read by
// the rules: the key the search by position takes.
func PositionKey(gameName, settings, position string) (int64, error) {
	rules, err := games.Rules(gameName, settings)
	if err != nil {
		return 0, err
	}
	s, err := rules.ParsePosition(strings.TrimSpace(position))
	if err != nil {
		return 0, err
	}
	return FrameOf(s).Key, nil
}
