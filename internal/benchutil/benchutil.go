// Package benchutil holds what the benchmark tools (tools/...) share in
// their reports: the machine's load, which every figure taken on a
// shared machine must be read with, and a database's address fit to
// print.
package benchutil

import (
	"net/url"
	"os"
	"strings"
)

// LoadAverage is /proc/loadavg's three figures (over 1, 5 and 15
// minutes), "?" where there is none.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// RedactURL is a database URL with its password hidden, for a report or
// a log.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}
