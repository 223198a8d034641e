package tumbling

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/game"
)

// FuzzParsePosition feeds arbitrary text to the position parser: it must
// never panic, and a text it accepts must give a position whose text reads
// back the same and whose moves all play, each judged as the rules worked
// out from the stacks alone judge it (see judge); and that FastPerft and
// FastPlayout count and play as the generic perft and playout do.
func FuzzParsePosition(f *testing.F) {
	f.Add(OriginalStart)
	f.Add(BoardspaceStart)
	f.Add(midgame)
	f.Add("8/8/8/8/8/8/8/8 b")
	f.Add("b" + strings.Repeat("r", 29) + strings.Repeat("b", 28) + ",7/8/8/8/8/8/8/8 r")
	f.Add("1,2,3,2/8/8/8/8/8/8/8 b")
	f.Add("bbbb,bbb,bb,bb,b,3/bbb,bb,bb,b,4 b")
	f.Add("x")
	f.Add("")
	f.Add(",,,/ b")
	f.Add("08/8/8/8/8/8/8/8 r")
	f.Add("7,bb/8/8/8/rr,7/8/rr,7/rrb,7 b") // the capture=boardspace example
	f.Fuzz(func(t *testing.T, text string) {
		for _, r := range []Rules{{}, {TumbleOnly: true, Capture: CapturePBEM, NoKingIgnored: true}, {Capture: CaptureBoardspace}} {
			p, err := r.Parse(text)
			if err != nil {
				continue
			}
			checkInvariants(t, p)
			q, err := r.Parse(p.String())
			if err != nil || q.String() != p.String() || q.Hash() != p.Hash() {
				t.Fatalf("%q parses as %s, which reads back as %v, %v", text, p, q, err)
			}
			// The specialised perft and playout agree with the generic ones.
			if n, ok := p.FastPerft(2); ok && n != game.PerftByPlay(p, 2) {
				t.Fatalf("%+v: %s: FastPerft(2) %d, by play %d", r, p, n, game.PerftByPlay(p, 2))
			}
			res, plies, _ := p.FastPlayout(rand.New(rand.NewPCG(1, 2)), 100, game.NewRepetitions(3, 100))
			if wantRes, wantPlies := game.PlayoutRepeating(p, rand.New(rand.NewPCG(1, 2)), 100, 3, nil, nil); res != wantRes || plies != wantPlies {
				t.Fatalf("%+v: %s: FastPlayout %v in %d plies, Playout %v in %d", r, p, res, plies, wantRes, wantPlies)
			}
			over, _ := p.Outcome()
			for _, m := range p.AppendMoves(nil) {
				q := p.Play(m)
				checkInvariants(t, q)
				if over.Over() {
					continue
				}
				res, why := q.Outcome()
				if wantRes, wantWhy := judge(r, p, m, q); res != wantRes || why != wantWhy {
					t.Fatalf("%+v: %s then %s: %v (%v), want %v (%v)", r, p, m, res, why, wantRes, wantWhy)
				}
			}
		}
	})
}

// FuzzParseMove feeds arbitrary text to the move parser in a few
// positions: it must never panic, and a move it accepts must be legal and
// read back from its own text.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"a8-a7", "a8>a7", "e8>f8", "e8-f8", "h1-h2", "a8-a9", "a8-a6", "d4-d5", "", "a8", "a8xa7", " a8-b7 ", "é8-a7", "a8-\x00\x00", "i9-j9", "a0-a1"} {
		f.Add(s)
	}
	rules := []Rules{{}, {TumbleOnly: true}}
	texts := []string{OriginalStart, midgame, "1,bbb,b,bbbbbb,bb,3/bbbb,bb,b,b,4/bb,b,b,2,r,2/bb,b,3,r,1,r/bb,2,r,1,r,rr,rr/4,r,rr,r,rr/4,rrr,r,rrr,1/3,r,rr,2,rrrr r"}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range rules {
			for _, text := range texts {
				p, err := r.Parse(text)
				if err != nil {
					t.Fatal(err)
				}
				m, err := p.ParseMove(s)
				if err != nil {
					continue
				}
				legal := false
				for _, l := range p.AppendMoves(nil) {
					legal = legal || l == m
				}
				if !legal {
					t.Fatalf("%s: %q reads as %s, which is not legal", text, s, m)
				}
				if back, err := p.ParseMove(p.FormatMove(m)); err != nil || back != m {
					t.Fatalf("%s: %s reads back as %v, %v", text, m, back, err)
				}
				checkInvariants(t, p.Play(m))
			}
		}
	})
}
