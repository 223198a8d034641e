package e2e

import (
	"os"
	"strings"
	"testing"
)

// startServer starts the play server for one test and returns its base URL.
func startServer(t *testing.T) string {
	t.Helper()
	if u := os.Getenv("MAGNETON_E2E_URL"); u != "" {
		return strings.TrimSuffix(u, "/")
	}
	t.Skip("no server yet: set MAGNETON_E2E_URL")
	return ""
}
