package magneton

import (
	"strings"
	"testing"

	"github.com/magneton-games/magneton/game"
)

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"8/8/8/8/8/8/8/8 w 12", "want 4 fields"},
		{"8/8/8/8/8/8/8 w 12 12", "has 7 ranks"},
		{"8/8/8/8/8/9/8/8 w 12 12", "rank 3: '9' is not W, B or a digit"},
		{"8/8/8/8/8/WWW6/8/8 w 12 12", "rank 3 has 9 squares"},
		{"8/8/8/8/8/8/8/7 w 12 12", "rank 1 has 7 squares"},
		{"8/8/8/8/8/8/8/8 x 12 12", "side to move \"x\" is not w or b"},
		{"8/8/8/8/8/8/8/8 w 13 12", "White's stones in hand \"13\""},
		{"8/8/8/8/8/8/8/8 w 12 -1", "Black's stones in hand \"-1\""},
		{"WWWWWWWW/WWWWW3/8/8/8/8/8/8 w 0 0", "White has 13 stones on the board"},
		{"W7/8/8/8/8/8/8/8 w 12 12", "White has 1 stones on the board and 12 in hand"},
	} {
		_, err := Rules{}.Parse(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q): error %v, want one containing %q", tc.text, err, tc.want)
		}
	}
}

func TestParseMoveErrors(t *testing.T) {
	const dropPhase = "8/8/8/8/3B4/8/8/8 w 12 11"
	const movePhase = "8/W1BB2W1/3W4/8/1B1W4/4B1B1/2W5/6B1 w 0 0"
	for _, tc := range []struct{ pos, move, want string }{
		{dropPhase, "i9", "not a square"},
		{dropPhase, "d", "not a drop like d4"},
		{dropPhase, "d4", "d4: d4 is not empty"},
		{dropPhase, "d4-a1", "still has 12 stones in hand and must drop"},
		{movePhase, "a1", "has no stones in hand and must move"},
		{movePhase, "c7-c6", "c7 is not your stone"},
		{movePhase, "d4-a4", "no magnet sends d4 to a4"},
		{movePhase, "e5-e6", "e5 is not your stone"},
		{movePhase, "d4-z1", "not a move like d4-a1"},
	} {
		_, err := mustParse(t, tc.pos).ParseMove(tc.move)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: ParseMove(%q): error %v, want one containing %q", tc.pos, tc.move, err, tc.want)
		}
	}
	// Both spellings of a move are accepted.
	p := mustParse(t, movePhase)
	a, err1 := p.ParseMove("d4-a1")
	b, err2 := p.ParseMove("d4a1")
	if err1 != nil || err2 != nil || a != b {
		t.Errorf("d4-a1 and d4a1: %v %v %v %v", a, b, err1, err2)
	}
}

func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{
		"8/8/8/8/8/8/8/8 w 12 12",
		"8/3B2W1/1W3B2/3W4/8/6B1/2W2B2/6B1 w 8 7",
		"2W1B2B/W6W/BB1W4/W3B3/B6B/WW5W/1BWBB3/BWW1BW2 b 0 0",
		"8/8/8/8/8/8/8/8 w 12",
		"WWWWWWWWW/8/8/8/8/8/8/8 b 0 0",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p, err := Rules{}.Parse(text)
		if err != nil {
			return
		}
		// Whatever parses must print back to text that parses to the same.
		q, err := Rules{}.Parse(p.String())
		if err != nil || q != p {
			t.Fatalf("%q parsed as %s, which reads back as %v (%v)", text, p, q, err)
		}
		for _, m := range p.AppendMoves(nil) {
			_ = p.Play(m)
		}
		// The specialised perft agrees with the generic one.
		if n, ok := p.FastPerft(2); ok && n != game.PerftByPlay(p, 2) {
			t.Fatalf("%s: FastPerft(2) %d, by play %d", p, n, game.PerftByPlay(p, 2))
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"d4", "d4-a1", "d4a1", "a9", "h8-h1", "-", "d4-d4", "e5e6"} {
		f.Add("8/W1BB2W1/3W4/8/1B1W4/4B1B1/2W5/6B1 w 0 0", s)
		f.Add("8/8/8/8/3B4/8/8/8 w 12 11", s)
	}
	f.Fuzz(func(t *testing.T, pos, move string) {
		p, err := Rules{}.Parse(pos)
		if err != nil {
			return
		}
		m, err := p.ParseMove(move)
		if err != nil {
			return
		}
		// An accepted move is one of the legal moves.
		for _, legal := range p.AppendMoves(nil) {
			if legal == m {
				_ = p.Play(m)
				return
			}
		}
		t.Fatalf("%s: ParseMove(%q) accepted %s, which is not legal", p, move, m)
	})
}
