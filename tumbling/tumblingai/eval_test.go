package tumblingai

import (
	"testing"

	"github.com/magneton-games/magneton/tumbling"
)

// TestTumblingAttackers checks the King-danger features on a crafted
// position: Black's King a8 is in reach of the Red disk on b7 (a step) and
// one disk short of the reach of the Red pair on d5 (a tumble along the
// diagonal covers c6 and b7; three disks would cover a8). Red's King h1
// is out of Black's reach. The features are the side to move's count
// minus the opponent's, so they change sign with the side to move.
func TestTumblingAttackers(t *testing.T) {
	for _, tc := range []struct {
		pos                         string
		attacked, attackers, latent int
	}{
		{"bbb,7/1,r,6/8/3,rr,4/8/8/8/7,rrrr b", 1, 1, 1},
		{"bbb,7/1,r,6/8/3,rr,4/8/8/8/7,rrrr r", -1, -1, -1},
		// Without the disk on b7 no stack reaches a8; d5 is still latent.
		{"bbb,7/8/8/3,rr,4/8/8/8/7,rrrr b", 0, 0, 1},
		// A third disk on d5 makes it an attacker.
		{"bbb,7/8/8/3,rrr,4/8/8/8/7,rrrr b", 1, 1, 0},
	} {
		p, err := tumbling.Rules{}.Parse(tc.pos)
		if err != nil {
			t.Fatalf("%s: %v", tc.pos, err)
		}
		f := Features(p)
		if f[Attacked] != tc.attacked || f[Attackers] != tc.attackers || f[Latent] != tc.latent {
			t.Errorf("%s: attacked %d, attackers %d, latent %d; want %d, %d, %d", tc.pos,
				f[Attacked], f[Attackers], f[Latent], tc.attacked, tc.attackers, tc.latent)
		}
	}
}
