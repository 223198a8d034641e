// Package ids makes the server's random identifiers and tokens, and the
// hashes of tokens that the database keeps instead of the tokens.
package ids

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
)

// New returns a game or account id: 96 random bits, base64url (16
// characters).
func New() string { return randomText(12) }

// Token returns a seat, invitation, guest or session token: 128 random
// bits, base64url.
func Token() string { return randomText(16) }

func randomText(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand panics rather than return an error)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Hash is what the database keeps of a token, so that a copy of the
// database does not hand out seats or logins.
func Hash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// Valid reports whether s looks like an id made by New, so that junk paths
// are answered without a database look-up.
func Valid(s string) bool {
	if len(s) != 16 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
