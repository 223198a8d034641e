// Package ratings is the play server's use of Glicko-2 ratings (package
// rating): rated games are between accounts, with rules that are one of
// the game's named variants; the variant's name is the rating family, so
// that each family of rules has its own ratings (Tumbling Down's standard
// and Boardspace rules play differently enough) and a new game's variants
// are families without any list here. A rated game's result is applied
// when it ends, one rating period a game (as lichess does).
package ratings

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/rating"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// ProvisionalRD is the deviation up to which a rating is established
// (rating.Rating.Provisional): the leaderboards list only those.
const ProvisionalRD = 110

// PairLimit is how many rated games two accounts may play with each other
// within PairWindow: past it their games are casual, so that two accounts
// of one player cannot farm a rating.
const (
	PairLimit  = 3
	PairWindow = 24 * time.Hour
)

// Reader is the part of the store that reads an account's rating.
type Reader interface {
	Rating(ctx context.Context, userID, game, family string) (store.Rating, bool, error)
}

// Store is the part of the store that keeps the ratings of games.
type Store interface {
	Reader
	// RatedBetween counts the finished rated games of two accounts with
	// each other updated at or after since (ms since the epoch).
	RatedBetween(ctx context.Context, a, b string, since int64) (int, error)
	RateGame(ctx context.Context, g *store.Game, fresh store.Rating, update func(a, b store.Rating) (store.Rating, store.Rating, error)) ([2]store.Rating, error)
}

// Family returns the variant whose settings the rules are, or a refusal
// saying that a rated game needs one.
func Family(rules game.Rules) (string, error) {
	sp := rules.Spec()
	want := rules.Settings().String()
	var names []string
	for _, v := range sp.Variants {
		names = append(names, v.Name)
		if r, err := sp.Rules(v.Name); err == nil && r.Settings().String() == want {
			return v.Name, nil
		}
	}
	list := strings.Join(names, ", ")
	return "", wire.Refuse("rated_variant", fmt.Sprintf("a rated game plays one of %s's variants (%s), not %s", sp.Title, list, want), "game", sp.Title, "variants", list)
}

// Value is a stored rating as the rating package computes with it.
func Value(r store.Rating) rating.Rating { return rating.Rating{R: r.R, RD: r.RD, Vol: r.Vol} }

// With is a stored rating with a new value.
func With(r store.Rating, v rating.Rating) store.Rating {
	r.R, r.RD, r.Vol = v.R, v.RD, v.Vol
	return r
}

// Fresh is the rating of a player's first game in a family.
func Fresh() store.Rating {
	n := rating.New()
	return store.Rating{R: n.R, RD: n.RD, Vol: n.Vol}
}

// Of returns an account's rating in a game and family, a new player's
// when it has none.
func Of(ctx context.Context, st Reader, userID, gameName, family string) (rating.Rating, error) {
	r, ok, err := st.Rating(ctx, userID, gameName, family)
	if err != nil || !ok {
		return rating.New(), err
	}
	return Value(r), nil
}

// CheckRange says what is wrong with a seek's rating bounds, or nil.
func CheckRange(lo, hi int) error {
	code, why := "", ""
	switch {
	case lo < 0 || hi < 0:
		code, why = "range_negative", "the bounds are ratings, 0 for none"
	case lo > 0 && hi > 0 && lo > hi:
		code, why = "range_order", "the lower bound is above the upper"
	case lo > 4000 || hi > 4000:
		code, why = "range_max", "ratings go up to 4000"
	default:
		return nil
	}
	return wire.Refuse(code, fmt.Sprintf("rating range %d to %d: %s", lo, hi, why), "lo", fmt.Sprint(lo), "hi", fmt.Sprint(hi))
}

// ErrNotRated says that a game's end changed no rating: it is not rated,
// has no result, or was rated already.
var ErrNotRated = errors.New("the game changes no rating")

// Rate applies a finished rated game's result to its players' ratings, at
// now, and returns the row with each player's change (Diffs).
func Rate(ctx context.Context, st Store, row store.Game, now time.Time) (store.Game, error) {
	if !row.Rated || row.Status != store.Finished || row.Users[0] == "" || row.Users[1] == "" {
		return row, ErrNotRated
	}
	var score float64
	switch row.Result {
	case "1-0":
		score = 1
	case "0-1":
		score = 0
	case "1/2-1/2":
		score = 0.5
	default:
		return row, ErrNotRated
	}
	at := now.UnixMilli()
	update := func(a, b store.Rating) (store.Rating, store.Rating, error) {
		na, err := rating.DefaultParams.Update(Value(a), []rating.Result{{Opponent: Value(b), Score: score}})
		if err != nil {
			return a, b, err
		}
		nb, err := rating.DefaultParams.Update(Value(b), []rating.Result{{Opponent: Value(a), Score: 1 - score}})
		if err != nil {
			return a, b, err
		}
		a, b = With(a, na), With(b, nb)
		a.Games, b.Games = a.Games+1, b.Games+1
		switch score {
		case 1:
			a.Wins, b.Losses = a.Wins+1, b.Losses+1
		case 0:
			a.Losses, b.Wins = a.Losses+1, b.Wins+1
		default:
			a.Draws, b.Draws = a.Draws+1, b.Draws+1
		}
		a.Updated, b.Updated = at, at
		return a, b, nil
	}
	if _, err := st.RateGame(ctx, &row, Fresh(), update); err != nil {
		if errors.Is(err, store.ErrRated) {
			return row, ErrNotRated
		}
		return row, err
	}
	return row, nil
}

// PairAllowed reports whether accounts a and b may play another rated game
// with each other at now, within PairLimit.
func PairAllowed(ctx context.Context, st Store, a, b string, now time.Time) (bool, error) {
	n, err := st.RatedBetween(ctx, a, b, now.Add(-PairWindow).UnixMilli())
	return n < PairLimit, err
}

// ErrPair refuses a rated game between two accounts past PairLimit.
var ErrPair = wire.Forbid("rated_pair", fmt.Sprintf("you have played %d rated games with this player in the last 24 hours: play a casual game", PairLimit), "max", fmt.Sprint(PairLimit))
