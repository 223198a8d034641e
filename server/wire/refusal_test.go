package wire

import (
	"errors"
	"slices"
	"testing"

	"github.com/magneton-games/magneton/game"
)

// TestBecause checks the values of a refusal made of a rules engine's
// error: the sentence without the move or position it repeats, in either
// spelling, and the mistake's code and values, or the fallback code.
func TestBecause(t *testing.T) {
	for _, c := range []struct {
		name     string
		err      error
		prefixes []string
		want     []string
	}{
		{"a quoted move", game.Mistaken("mg_not_drop_or_move", `"zz9": not a drop like d4`), []string{"zz9"},
			[]string{"why", "not a drop like d4", "why_code", "mg_not_drop_or_move"}},
		{"a plain move, with values", game.Mistaken("not_empty", "d4: d4 is not empty", "square", "d4"), []string{"d4"},
			[]string{"why", "d4 is not empty", "why_code", "not_empty", "square", "d4"}},
		{"a position", game.Mistaken("mg_rank_char", `position "9/8": rank 1: '9' is not W`, "rank", "1", "char", "9"), []string{`position "9/8"`},
			[]string{"why", "rank 1: '9' is not W", "why_code", "mg_rank_char", "char", "9", "rank", "1"}},
		{"an error without a code", errors.New("d4: the game is over"), []string{"d4"},
			[]string{"why", "the game is over", "why_code", "illegal"}},
		{"a wrapped mistake", errors.Join(game.Mistaken("td_empty", "a1: a1 is empty", "square", "a1")), []string{"a1"},
			[]string{"why", "a1 is empty", "why_code", "td_empty", "square", "a1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Because(c.err, "illegal", c.prefixes...); !slices.Equal(got, c.want) {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}
