package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// noRoute is the route of a request no pattern of the mux took: refused
// before routing (another site's origin), or a method the route lacks.
const noRoute = "none"

// HTTP counts and times the requests that next answers, by the route the
// server's mux chose (Request.Pattern, which the mux sets on the request
// it is given: next must pass it on as it is) and the status's class. A
// WebSocket is counted at its upgrade, not when it closes, and not timed.
// A nil *Metrics returns next.
func (m *Metrics) HTTP(next http.Handler) http.Handler {
	if m == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, requests: m.httpRequests, r: r}
		done := false
		defer func() {
			if sw.upgraded {
				return // counted then
			}
			code := sw.status
			switch {
			case code == 0 && !done:
				code = http.StatusInternalServerError // a panic: the server drops the connection
			case code == 0:
				code = http.StatusOK // nothing written: the server answers 200
			}
			route := routeOf(r)
			m.httpRequests.WithLabelValues(route, statusClass(code)).Inc()
			m.httpDuration.WithLabelValues(route).Observe(time.Since(start).Seconds())
		}()
		next.ServeHTTP(sw, r)
		done = true
	})
}

// routeOf is the route label of a request: the pattern the mux chose.
func routeOf(r *http.Request) string {
	if r.Pattern == "" {
		return noRoute
	}
	return r.Pattern
}

// statusClass is a status code's class: "2xx" for 200 to 299, and so on.
func statusClass(code int) string {
	switch {
	case code < 100 || code > 599:
		return "other"
	case code < 200:
		return "1xx"
	case code < 300:
		return "2xx"
	case code < 400:
		return "3xx"
	case code < 500:
		return "4xx"
	}
	return "5xx"
}

// statusWriter notes the status of the answer it writes. It unwraps to the
// writer it wraps, so that http.ResponseController and the WebSocket's
// hijack reach the connection.
type statusWriter struct {
	http.ResponseWriter
	status int // 0 until the answer's status is written
	// upgraded: a WebSocket's upgrade (101) was written, and the request
	// of r counted in requests at once.
	upgraded bool
	requests *prometheus.CounterVec
	r        *http.Request
}

func (w *statusWriter) WriteHeader(code int) {
	// An informational status (103 Early Hints) comes before the answer's
	// own; 101 is a WebSocket's, the last there is.
	if w.status == 0 && (code >= 200 || code == http.StatusSwitchingProtocols) {
		w.status = code
		if code == http.StatusSwitchingProtocols {
			// The handler's routing is done: the mux has set the pattern.
			w.upgraded = true
			w.requests.WithLabelValues(routeOf(w.r), statusClass(code)).Inc()
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap is the writer wrapped, for http.ResponseController.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
