package accounts

import (
	"strings"
	"testing"
)

func TestPasswordHash(t *testing.T) {
	h := HashPassword("correct horse")
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Errorf("encoding %q", h)
	}
	if h2 := HashPassword("correct horse"); h2 == h {
		t.Error("two hashes of one password are the same: no salt")
	}
	parts := strings.Split(h, "$")
	for _, tc := range []struct {
		name, encoded, password string
		want                    bool
	}{
		{"right", h, "correct horse", true},
		{"wrong", h, "correct horse!", false},
		{"empty password", h, "", false},
		{"not argon2id", strings.Replace(h, "argon2id", "argon2i", 1), "correct horse", false},
		{"other version", strings.Replace(h, "v=19", "v=16", 1), "correct horse", false},
		{"bad parameters", strings.Replace(h, "m=19456", "m=x", 1), "correct horse", false},
		{"zero memory", strings.Replace(h, "m=19456", "m=0", 1), "correct horse", false},
		{"bad salt", strings.Join([]string{"", parts[1], parts[2], parts[3], "!!", parts[5]}, "$"), "correct horse", false},
		{"no hash", strings.Join(parts[:5], "$") + "$", "correct horse", false},
		{"junk", "junk", "correct horse", false},
		{"empty", "", "", false},
	} {
		if got := CheckPassword(tc.encoded, tc.password); got != tc.want {
			t.Errorf("%s: checkPassword = %v, want %v", tc.name, got, tc.want)
		}
	}
}
