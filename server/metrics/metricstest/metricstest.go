// Package metricstest reads what the server's metrics serve, for the
// tests of the packages that scrape them (the server's, the command's).
package metricstest

import (
	"strconv"
	"strings"
	"testing"
)

// Samples reads Prometheus's text format: each sample's value by its name
// and labels as the text writes them (`magneton_moves_total{game="x",
// instance="i1"}`, the labels in the order of their names); the comments
// are skipped. A value that is not a number fails the test.
func Samples(t testing.TB, text []byte) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for line := range strings.Lines(string(text)) {
		i := strings.LastIndexByte(line, ' ')
		if strings.HasPrefix(line, "#") || i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(line[i+1:]), 64)
		if err != nil {
			t.Fatalf("sample %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}
