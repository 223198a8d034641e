package tournaments

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestScheduleNext: an entry's next start, at or after now, from the
// epoch's midnight UTC plus At, every Every.
func TestScheduleNext(t *testing.T) {
	day := 24 * time.Hour
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		every, at time.Duration
		now, want string
	}{
		{day, 18 * time.Hour, "2026-12-04T02:30:00Z", "2026-12-04T18:00:00Z"},
		{day, 18 * time.Hour, "2026-12-04T18:00:00Z", "2026-12-04T18:00:00Z"},
		{day, 18 * time.Hour, "2026-12-04T18:00:01Z", "2026-12-05T18:00:00Z"},
		{time.Hour, 0, "2026-12-04T02:30:00Z", "2026-12-04T03:00:00Z"},
		{time.Hour, 15 * time.Minute, "2026-12-04T02:30:00Z", "2026-12-04T03:15:00Z"},
		{8 * time.Hour, time.Hour, "2026-12-04T09:00:00.001Z", "2026-12-04T17:00:00Z"},
	} {
		e := ScheduleEntry{Every: tc.every, At: tc.at}
		if got := e.next(at(tc.now)); !got.Equal(at(tc.want)) {
			t.Errorf("every %v at %v, now %s: %s, want %s", tc.every, tc.at, tc.now, got.UTC().Format(time.RFC3339), tc.want)
		}
	}
}

// TestParseSchedule: a schedule's file read, or what is wrong with it;
// the default schedule passes the same checks.
func TestParseSchedule(t *testing.T) {
	if err := CheckSchedule(DefaultSchedule()); err != nil {
		t.Fatalf("the default schedule: %v", err)
	}
	good := `[{"key": "hourly", "name": "Hourly arena", "game": "magneton", "clock": "1+0", "rated": true, "minutes": 30, "every": "1h", "at": "0s", "ahead": "1h"}]`
	s, err := ParseSchedule([]byte(good))
	if err != nil || len(s) != 1 || s[0].Every != time.Hour || s[0].Ahead != time.Hour || s[0].Minutes != 30 || !s[0].Rated {
		t.Fatalf("%s: %+v, %v", good, s, err)
	}
	entry := func(key, game, clock, every, at, ahead string, minutes int) string {
		return `[{"key": "` + key + `", "name": "An arena", "game": "` + game + `", "clock": "` + clock + `", "minutes": ` +
			strconv.Itoa(minutes) + `, "every": "` + every + `", "at": "` + at + `", "ahead": "` + ahead + `"}]`
	}
	for _, tc := range []struct{ text, want string }{
		{`{}`, "cannot unmarshal"},
		{`[{"key": "a", "colour": "red"}]`, "unknown field"},
		{entry("Bad Key", "magneton", "3+2", "24h", "18h", "1h", 60), "key"},
		{entry("a", "magneton", "3+2", "5m", "0s", "1h", 60), "every"},
		{entry("a", "magneton", "3+2", "24h", "25h", "1h", 60), "at"},
		{entry("a", "magneton", "3+2", "24h", "18h", "31d", 60), "ahead"},
		{entry("a", "magneton", "3+2", "24h", "18h", "800h", 60), "ahead"},
		{entry("a", "magneton", "3+2", "soon", "18h", "1h", 60), "every"},
		{entry("a", "magneton", "3+2", "24h", "18h", "1h", 5), "arena lasts"},
		{entry("a", "magneton", "", "24h", "18h", "1h", 60), "clock"},
		{entry("a", "nosuchgame", "3+2", "24h", "18h", "1h", 60), "nosuchgame"},
		{`[` + strings.Trim(entry("a", "magneton", "3+2", "24h", "18h", "1h", 60), "[]") + `,` + strings.Trim(entry("a", "magneton", "3+2", "24h", "19h", "1h", 60), "[]") + `]`, "twice"},
	} {
		if _, err := ParseSchedule([]byte(tc.text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.text, err, tc.want)
		}
	}
}

// TestScheduledID: one id per entry and start, valid as any tournament's.
func TestScheduledID(t *testing.T) {
	a := time.UnixMilli(1_800_000_000_000)
	id := scheduledID("daily", a)
	if len(id) != 16 || id != scheduledID("daily", a) || id == scheduledID("daily", a.Add(time.Hour)) || id == scheduledID("hourly", a) {
		t.Errorf("scheduledID: %q", id)
	}
}
