package round

// connected reports whether a player of seat i is connected anywhere that
// this instance knows of.
func (s *Session) connected(i int) bool {
	if s.conns[i] > 0 || (s.mirror && s.ownerConnected[i]) {
		return true
	}
	for _, p := range s.remote {
		if p.conns[i] > 0 {
			return true
		}
	}
	return false
}

// connectedBoth is connected for both seats.
func (s *Session) connectedBoth() [2]bool { return [2]bool{s.connected(0), s.connected(1)} }

// localWatchers is how many spectators this instance's clients of the game
// are.
func (s *Session) localWatchers() int { return len(s.clients) - s.conns[0] - s.conns[1] }

// watchers is how many spectators the game has on every instance: for the
// owner its own and the mirrors' last reports, for a mirror what the owner
// last announced.
func (s *Session) watchers() int {
	if s.mirror {
		return s.ownerWatchers
	}
	n := s.localWatchers()
	for _, p := range s.remote {
		n += p.watchers
	}
	return n
}

// notePresence records a mirror's report of its clients unless one taken
// later has arrived already, and reports whether the players' presence
// changed.
func (s *Session) notePresence(from string, p presence) bool {
	if old, ok := s.remote[from]; ok && old.sent > p.sent {
		return false
	}
	before := s.connectedBoth()
	s.remote[from] = p
	return before != s.connectedBoth()
}
