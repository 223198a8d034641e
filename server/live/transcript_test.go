package live

import (
	"testing"
	"time"

	"github.com/magneton-games/magneton/store"
)

func TestTimeControl(t *testing.T) {
	for _, tc := range []struct {
		name string
		row  store.Game
		want string
	}{
		{"no clock", store.Game{}, "-"},
		{"5+3", store.Game{ClockInitial: 5 * time.Minute, ClockIncrement: 3 * time.Second}, "300+3"},
		{"sudden death", store.Game{ClockInitial: 10 * time.Minute}, "600"},
		{"three days a move", store.Game{ClockInitial: 72 * time.Hour, PerMove: true}, "1/259200"},
	} {
		if got := timeControl(&tc.row); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
