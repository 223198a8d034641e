package metrics

import (
	"io"
	"maps"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// series is one sample of a scrape: its name, labels and value.
type series struct {
	name   string
	labels map[string]string
	value  float64
}

// scrape reads m's series as GET /metrics shows them.
func scrape(t *testing.T, m *Metrics) []series {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("GET /metrics: %d %s", rec.Code, rec.Body)
	}
	b, _ := io.ReadAll(rec.Body)
	return parseText(t, string(b))
}

// parseText reads Prometheus's text format (the samples; the comments are
// skipped). Label values here hold no commas or quotes.
func parseText(t *testing.T, text string) []series {
	t.Helper()
	var out []series
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		key, val := line[:max(i, 0)], line[i+1:]
		v, err := strconv.ParseFloat(val, 64)
		if err != nil {
			t.Fatalf("sample %q: %v", line, err)
		}
		s := series{name: key, labels: map[string]string{}, value: v}
		if name, labels, ok := strings.Cut(key, "{"); ok {
			s.name = name
			for pair := range strings.SplitSeq(strings.TrimSuffix(labels, "}"), ",") {
				k, v, _ := strings.Cut(pair, "=")
				s.labels[k] = strings.Trim(v, `"`)
			}
		}
		out = append(out, s)
	}
	return out
}

// value is the sum of the samples of a name whose labels include want
// (pairs of name and value), and whether there is one.
func value(all []series, name string, want ...string) (float64, bool) {
	sum, found := 0.0, false
	for _, s := range all {
		if s.name != name {
			continue
		}
		ok := true
		for i := 0; i < len(want); i += 2 {
			if s.labels[want[i]] != want[i+1] {
				ok = false
			}
		}
		if ok {
			sum, found = sum+s.value, true
		}
	}
	return sum, found
}

// labelsOf lists the label sets of a name's samples.
func labelsOf(all []series, name string) []map[string]string {
	var out []map[string]string
	for _, s := range all {
		if s.name == name {
			out = append(out, maps.Clone(s.labels))
		}
	}
	return out
}
