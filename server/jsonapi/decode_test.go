package jsonapi

import (
	"encoding/json"
	"testing"
)

// TestDecodeError: what a client reads when its JSON does not decode.
func TestDecodeError(t *testing.T) {
	var body struct {
		Ply  int    `json:"ply"`
		Seat uint8  `json:"seat"`
		Move string `json:"move"`
		Rate float64
	}
	for _, tc := range []struct{ in, want string }{
		{`{"ply": 99999999999999999999}`, `field "ply" must be a whole number from -9223372036854775808 to 9223372036854775807, not 99999999999999999999`},
		{`{"ply": 1.5}`, `field "ply" must be a whole number from -9223372036854775808 to 9223372036854775807, not 1.5`},
		{`{"seat": 300}`, `field "seat" must be a whole number from 0 to 255, not 300`},
		{`{"seat": -1}`, `field "seat" must be a whole number from 0 to 255, not -1`},
		{`{"ply": "2"}`, `field "ply" must be a number, not string`},
		{`{"move": 3}`, `field "move" must be a string, not number`},
		{`{"Rate": true}`, `field "Rate" must be a number, not bool`},
		{`[1]`, `want a JSON object, not array`},
		{`{"ply": 1`, `the JSON text ends too early`},
		{`nope`, `not JSON (at byte 2: invalid character 'o' in literal null (expecting 'u'))`},
	} {
		err := json.Unmarshal([]byte(tc.in), &body)
		if err == nil {
			t.Fatalf("%s decoded", tc.in)
		}
		if got := DecodeError(err); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}
