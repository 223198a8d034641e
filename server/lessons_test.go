package server

import (
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestLessonStars: the stars of a lesson's stages go to the account with
// its lessons solved, the best of each kept, and are refused when they are
// not stars of a stage; a guest's stay in the browser.
func TestLessonStars(t *testing.T) {
	s := startServer(t, t.TempDir())
	guest := s.user()
	var stars map[string]map[string]int
	if code := guest.do("GET", "/api/account/learn-stars", nil, &stars); code != http.StatusOK || len(stars) != 0 {
		t.Errorf("a guest's stars: %d %v", code, stars)
	}
	var bad struct{ Error string }
	if code := guest.do("POST", "/api/account/learn/magneton", map[string]any{"stars": map[string]int{"blocked:0": 3}}, &bad); code != http.StatusUnauthorized {
		t.Errorf("a guest saving stars: %d %q", code, bad.Error)
	}
	ann := s.signedUp("driller")
	var solved map[string][]string
	ann.do("POST", "/api/account/learn/magneton", map[string]any{"solved": []string{"blocked"}, "stars": map[string]int{"blocked:0": 2, "blocked:1": 3}}, &solved)
	if !slices.Equal(solved["magneton"], []string{"blocked"}) {
		t.Errorf("solved: %v", solved)
	}
	ann.do("POST", "/api/account/learn/magneton", map[string]any{"stars": map[string]int{"blocked:0": 3, "blocked:1": 1}}, nil)
	ann.do("GET", "/api/account/learn-stars", nil, &stars)
	if want := map[string]map[string]int{"magneton": {"blocked:0": 3, "blocked:1": 3}}; !reflect.DeepEqual(stars, want) {
		t.Errorf("the stars kept: %v, want %v", stars, want)
	}
	for _, c := range []struct {
		stars map[string]int
		want  string
	}{
		{map[string]int{"blocked:0": 4}, "1 to 3"},
		{map[string]int{"blocked:0": 0}, "1 to 3"},
		{map[string]int{"blocked": 2}, "<lesson id>:<stage>"},
		{map[string]int{"blocked:x": 2}, "a number from 0 to 99"},
		{map[string]int{strings.Repeat("x", 41) + ":0": 2}, "1 to 40 characters"},
	} {
		if code := ann.do("POST", "/api/account/learn/magneton", map[string]any{"stars": c.stars}, &bad); code != http.StatusBadRequest || !strings.Contains(bad.Error, c.want) {
			t.Errorf("stars %v: %d %q, want a refusal saying %q", c.stars, code, bad.Error, c.want)
		}
	}
}
