package tournaments

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/tournament"
)

// ScheduleEntry is one of the arenas the site makes by itself: one starts
// every Every, At after midnight UTC (counted from the Unix epoch, so that
// an Every that divides a day starts at the same hours each day), and is
// made Ahead before its start, so that players see it coming.
type ScheduleEntry struct {
	// Key names the entry; with a start time it makes the tournament's
	// id, so that instances scheduling it at once make it once.
	Key   string `json:"key"`
	Name  string `json:"name"`
	Game  string `json:"game"`
	Rules string `json:"rules"`
	Clock string `json:"clock"`
	Rated bool   `json:"rated"`
	// Minutes is the arena's length.
	Minutes int `json:"minutes"`
	// Every, At and Ahead are written as Go durations in JSON: "24h",
	// "18h30m".
	Every, At, Ahead time.Duration `json:"-"`
}

// scheduleFile is an entry as a schedule's JSON file writes it.
type scheduleFile struct {
	ScheduleEntry
	Every string `json:"every"`
	At    string `json:"at"`
	Ahead string `json:"ahead"`
}

// DefaultSchedule is the site's schedule unless told otherwise: every day
// a rated 60-minute arena 3+2 of Magneton at 18:00 UTC and one of
// Tumbling Down at 19:00 UTC, each made a day ahead, so that the next one
// of each is always listed.
func DefaultSchedule() []ScheduleEntry {
	day := 24 * time.Hour
	return []ScheduleEntry{
		{Key: "daily-magneton", Name: "Daily Magneton arena", Game: "magneton", Clock: "3+2", Rated: true, Minutes: 60,
			Every: day, At: 18 * time.Hour, Ahead: day},
		{Key: "daily-tumbling", Name: "Daily Tumbling Down arena", Game: "tumbling", Clock: "3+2", Rated: true, Minutes: 60,
			Every: day, At: 19 * time.Hour, Ahead: day},
	}
}

var scheduleKey = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)

// ParseSchedule reads a schedule's JSON file: a list of entries such as
// {"key": "hourly", "name": "Hourly arena", "game": "magneton", "clock":
// "1+0", "rated": true, "minutes": 30, "every": "1h", "at": "0s",
// "ahead": "1h"}. Each entry is checked as a player's arena would be.
func ParseSchedule(data []byte) ([]ScheduleEntry, error) {
	var files []scheduleFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&files); err != nil {
		return nil, fmt.Errorf("schedule: %w", err)
	}
	out := make([]ScheduleEntry, 0, len(files))
	for i, f := range files {
		e := f.ScheduleEntry
		for _, d := range []struct {
			name, text string
			to         *time.Duration
		}{{"every", f.Every, &e.Every}, {"at", f.At, &e.At}, {"ahead", f.Ahead, &e.Ahead}} {
			v, err := time.ParseDuration(d.text)
			if err != nil {
				return nil, fmt.Errorf("schedule entry %d (%q): %s: %w", i+1, e.Key, d.name, err)
			}
			*d.to = v
		}
		out = append(out, e)
	}
	if err := CheckSchedule(out); err != nil {
		return nil, err
	}
	return out, nil
}

// CheckSchedule says what is wrong with a schedule, if anything: a key
// that is not a few lower-case letters, digits and dashes or is not
// unique, an Every under 10 minutes, an At or Ahead out of range, or
// settings a player's arena could not have.
func CheckSchedule(s []ScheduleEntry) error {
	seen := map[string]bool{}
	now := time.Now()
	for i, e := range s {
		var err error
		switch {
		case !scheduleKey.MatchString(e.Key):
			err = errors.New("key: 1 to 32 lower-case letters, digits and dashes")
		case seen[e.Key]:
			err = errors.New("key used twice")
		case e.Every < 10*time.Minute:
			err = errors.New("every: 10m or more")
		case e.At < 0 || e.At >= e.Every:
			err = errors.New("at: from 0 to less than every")
		case e.Ahead < 0 || e.Ahead > MaxAhead:
			err = errors.New("ahead: from 0 to 30 days")
		default:
			_, err = e.row(now, now, time.Minute)
		}
		if err != nil {
			return fmt.Errorf("schedule entry %d (%q): %w", i+1, e.Key, err)
		}
		seen[e.Key] = true
	}
	return nil
}

// next is the entry's first start at or after now.
func (e ScheduleEntry) next(now time.Time) time.Time {
	ms, every := now.UnixMilli()-e.At.Milliseconds(), e.Every.Milliseconds()
	k := ms / every // rounded towards zero: up for a time before the epoch
	if ms > 0 && ms%every != 0 {
		k++
	}
	return time.UnixMilli(k*every + e.At.Milliseconds())
}

// row is the entry's tournament starting at starts, made now.
func (e ScheduleEntry) row(starts, now time.Time, minute time.Duration) (*store.Tournament, error) {
	req := createRequest{Name: e.Name, Game: e.Game, Rules: e.Rules, Format: string(tournament.Arena), Clock: e.Clock, Rated: e.Rated,
		Minutes: e.Minutes, Starts: starts.UnixMilli()}
	row, err := check(req, now, minute)
	if err != nil {
		return nil, err
	}
	row.ID = scheduledID(e.Key, starts)
	row.Starts = starts.UnixMilli()
	row.Ends = row.Starts + int64(e.Minutes)*minute.Milliseconds()
	return row, nil
}

// scheduledID is the id of the tournament an entry makes for a start: a
// hash of both, in the form of ids.New's, so that every instance computes
// the same one.
func scheduledID(key string, starts time.Time) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("schedule %s %d", key, starts.UnixMilli())))
	return base64.RawURLEncoding.EncodeToString(sum[:12])
}

// Schedule is one pass of the scheduler, as of now: each entry whose next
// start is Ahead or less away gets its tournament, unless it has it (the
// same id: made by an earlier pass or by another instance). It returns
// how many it made.
func (t *Tournaments) Schedule(now time.Time) int {
	ctx, cancel := t.dbContext()
	defer cancel()
	made := 0
	for _, e := range t.cfg.Schedule {
		starts := e.next(now)
		if starts.Sub(now) > e.Ahead {
			continue
		}
		row, err := e.row(starts, now, t.cfg.ArenaMinute)
		if err != nil {
			t.cfg.Logger.Warn("scheduled tournament not made", "entry", e.Key, "err", err)
			continue
		}
		ok, err := t.cfg.Store.ScheduleTournament(ctx, row)
		if err != nil {
			t.cfg.Logger.Warn("scheduled tournament not made", "entry", e.Key, "err", err)
			continue
		}
		if ok {
			made++
			t.cfg.Logger.Info("tournament scheduled", "tournament", row.ID, "entry", e.Key, "starts", starts.UTC())
		}
	}
	return made
}
