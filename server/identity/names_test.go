package identity

import (
	"strings"
	"testing"
)

func TestUserNames(t *testing.T) {
	// Each name, and what the refusal says ("" for a good name).
	cases := map[string]string{
		"ab":                    "",
		"Ann_B-2":               "",
		"a":                     "2 to 20 characters",
		"abcdefghijklmnopqrstu": "2 to 20 characters",
		"ann b":                 `character 4, ' ', is not a letter`,
		"émile":                 `character 1, 'é'`,
		"Guest-4821":            "kept for guests",
		"guestly":               "kept for guests",
		"Computer":              "reserved",
		"ADMIN":                 "reserved",
		"deleted":               "reserved",
		"Deleted_Player":        "reserved",
		"de1eted":               "reserved",
		"undeleted":             "",
	}
	for name, want := range cases {
		err := CheckUserName(name)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%q: %v, want %q", name, err, want)
		}
	}
}
