package identity

import (
	"fmt"
	"strings"

	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// reservedNames may not be taken, in any case, nor may a name that starts
// with "guest": they would pass for the computer, a guest or the site.
var reservedNames = []string{"computer", "admin", "administrator", "moderator", "system", "anonymous", "human", "magneton", "root", "support"}

// CheckUserName says what is wrong with a user name, or nil.
func CheckUserName(name string) error {
	if n := len(name); n < 2 || n > 20 {
		return wire.Refuse("name_length", fmt.Sprintf("user name %q: want 2 to 20 characters, not %d", name, n), "name", name, "n", fmt.Sprint(n))
	}
	for i, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return wire.Refuse("name_char", fmt.Sprintf("user name %q: character %d, %q, is not a letter, a digit, '-' or '_'", name, i+1, r),
				"name", name, "pos", fmt.Sprint(i+1), "char", string(r))
		}
	}
	low := strings.ToLower(name)
	// Nor may a name that reads as the computer's ("computer-8", "c0mputer")
	// or a deleted account's (store.DeletedPlayer).
	if look := store.LookKey(name); strings.HasPrefix(look, "computer") || strings.HasPrefix(look, "deleted") {
		return wire.Refuse("name_reserved", fmt.Sprintf("user name %q is reserved", name), "name", name)
	}
	if strings.HasPrefix(low, "guest") {
		return wire.Refuse("name_guest", fmt.Sprintf("user name %q: names starting with \"guest\" are kept for guests", name), "name", name)
	}
	for _, r := range reservedNames {
		if low == r {
			return wire.Refuse("name_reserved", fmt.Sprintf("user name %q is reserved", name), "name", name)
		}
	}
	return nil
}
