package server

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
)

// newID returns a game id: 96 random bits, base64url (16 characters).
func newID() string { return randomText(12) }

// newToken returns a seat or invitation token: 128 random bits, base64url.
func newToken() string { return randomText(16) }

func randomText(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand panics rather than return an error)
	return base64.RawURLEncoding.EncodeToString(b)
}

// hashToken is what the database keeps of a token, so that a copy of the
// database does not hand out seats.
func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// validID reports whether s looks like a game id, so that junk paths are
// answered without a database look-up.
func validID(s string) bool {
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
