package identity

import (
	"sync"
	"time"
)

// maxSightings bounds the keys a Sightings keeps: past it, it starts
// over (a few more writes, rather than a map without end).
const maxSightings = 10000

// Sightings decides which sightings of a key (a session, an API token)
// are worth writing to the store: on this instance, one a key every
// Every at most. The zero value with Every set is ready to use.
type Sightings struct {
	Every time.Duration
	mu    sync.Mutex
	last  map[string]time.Time
}

// Due reports whether key's sighting at now is to be written, and if so
// notes it as written.
func (s *Sightings) Due(key string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if last, ok := s.last[key]; ok && now.Sub(last) < s.Every {
		return false
	}
	if s.last == nil || len(s.last) >= maxSightings {
		s.last = map[string]time.Time{}
	}
	s.last[key] = now
	return true
}
