package metrics

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// testSite is a mux behind a front door that refuses /refused before
// routing, as the server's guard refuses another site's requests.
func testSite() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/games/{id}", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "a game") })
	mux.HandleFunc("POST /api/games", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusCreated) })
	mux.HandleFunc("GET /quiet", func(w http.ResponseWriter, r *http.Request) {}) // writes nothing: 200
	mux.HandleFunc("GET /hints", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusEarlyHints)
		w.WriteHeader(http.StatusTeapot)
	})
	mux.HandleFunc("GET /ws", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusSwitchingProtocols) // as the WebSocket's Accept does before its hijack
		time.Sleep(5 * time.Millisecond)
	})
	mux.HandleFunc("GET /broken", func(w http.ResponseWriter, r *http.Request) { panic("broken") })
	mux.HandleFunc("GET /flush", func(w http.ResponseWriter, r *http.Request) {
		if err := http.NewResponseController(w).Flush(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/refused") {
			http.Error(w, "another site", http.StatusForbidden)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// TestHTTP: each request is counted by its route and status class, and
// timed by its route, except a WebSocket's upgrade.
func TestHTTP(t *testing.T) {
	for _, c := range []struct {
		method, path  string
		route, status string
		timed         bool
	}{
		{"GET", "/api/games/abc", "GET /api/games/{id}", "2xx", true},
		{"POST", "/api/games", "POST /api/games", "2xx", true},
		{"GET", "/quiet", "GET /quiet", "2xx", true},
		{"GET", "/hints", "GET /hints", "4xx", true},
		{"GET", "/nothing/here", "/", "4xx", true},
		{"GET", "/refused", noRoute, "4xx", true},
		{"DELETE", "/api/games", "/", "4xx", true}, // the catch-all takes a method the route lacks
		{"GET", "/ws", "GET /ws", "1xx", false},
		{"GET", "/broken", "GET /broken", "5xx", true},
		{"GET", "/flush", "GET /flush", "2xx", true},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			m := New("main", nil)
			h := m.HTTP(testSite())
			func() {
				defer func() { recover() }() // the panic goes on to the server, which drops the connection
				h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(c.method, c.path, nil))
			}()
			all := scrape(t, m)
			if got := labelsOf(all, "magneton_http_requests_total"); len(got) != 1 ||
				got[0]["route"] != c.route || got[0]["status"] != c.status {
				t.Errorf("counted %v, want route %q status %s", got, c.route, c.status)
			}
			n, _ := value(all, "magneton_http_request_duration_seconds_count", "route", c.route)
			if want := map[bool]float64{true: 1}[c.timed]; n != want {
				t.Errorf("%v observations of its time, want %v", n, want)
			}
		})
	}
}

// TestStatusClass: the classes of the status codes, and of codes that are
// not.
func TestStatusClass(t *testing.T) {
	for code, want := range map[int]string{0: "other", 99: "other", 100: "1xx", 101: "1xx", 200: "2xx", 204: "2xx",
		301: "3xx", 404: "4xx", 499: "4xx", 500: "5xx", 599: "5xx", 600: "other"} {
		if got := statusClass(code); got != want {
			t.Errorf("statusClass(%d) = %s, want %s", code, got, want)
		}
	}
}

// TestHTTPUpgrade: a WebSocket is counted at its upgrade, while it lives.
func TestHTTPUpgrade(t *testing.T) {
	m := New("main", nil)
	var during float64
	h := m.HTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Pattern = "GET /ws" // as the mux sets it
		w.WriteHeader(http.StatusSwitchingProtocols)
		during, _ = value(scrape(t, m), "magneton_http_requests_total", "route", "GET /ws", "status", "1xx")
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/ws", nil))
	after, _ := value(scrape(t, m), "magneton_http_requests_total", "route", "GET /ws", "status", "1xx")
	if during != 1 || after != 1 {
		t.Errorf("the upgrade counted %v times while the socket lived and %v after, want 1 and 1", during, after)
	}
}
