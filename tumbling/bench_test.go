package tumbling

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/internal/rulestest"
)

// midgame is a position from the reference data with tall mixed stacks.
const midgame = "1,bb,bb,b,4/1,b,b,bbb,brb,b,1,r/8/b,bbb,b,b,4/b,b,2,b,2,r/2,b,1,r,2,rrrrr/b,b,2,rr,r,r,rrr/rbbbr,r,rbr,1,r,rr,1,rrrrr b"

func BenchmarkMoves(b *testing.B) {
	p := Rules{}.StartPosition()
	buf := make([]Move, 0, maxMoves)
	b.ReportAllocs()
	for b.Loop() {
		buf = p.AppendMoves(buf[:0])
	}
}

func BenchmarkPlay(b *testing.B) {
	p, err := Rules{}.Parse(midgame)
	if err != nil {
		b.Fatal(err)
	}
	rulestest.BenchPlay(b, p)
}

func BenchmarkPerft(b *testing.B) {
	p := Rules{}.StartPosition()
	b.ReportAllocs()
	var n uint64
	for b.Loop() {
		n = game.Perft(p, 3)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
}

func BenchmarkPlayout(b *testing.B) {
	p := Rules{}.StartPosition()
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]Move, 0, maxMoves)
	b.ReportAllocs()
	plies := 0
	for b.Loop() {
		_, n := game.Playout(p, rng, 400, buf)
		plies += n
	}
	b.ReportMetric(float64(plies)/float64(b.N), "plies/game")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

func moveList(p Position) string {
	var out []string
	for _, m := range p.AppendMoves(nil) {
		out = append(out, m.String())
	}
	return strings.Join(out, " ")
}

// TestAppendMovesBuffers checks that moves come out the same whatever room
// the buffer has, including none and a buffer that fills up part way.
func TestAppendMovesBuffers(t *testing.T) {
	for _, text := range []string{OriginalStart, midgame, BoardspaceStart} {
		p := mustParse(t, Rules{}, text)
		want := moveList(p)
		for _, room := range []int{0, 1, 15, 16, 17, 40, 100, 147, 148, 200, 600} {
			prefix := []Move{Step(3, North)}
			buf := append(make([]Move, 0, room+1), prefix...)
			got := p.AppendMoves(buf)
			if got[0] != prefix[0] {
				t.Fatalf("room %d: the buffer's own moves were overwritten", room)
			}
			var out []string
			for _, m := range got[1:] {
				out = append(out, m.String())
			}
			if s := strings.Join(out, " "); s != want {
				t.Errorf("%s, room %d:\n got %s\nwant %s", text, room, s, want)
			}
		}
	}
}
