//go:build js

package tumbling

// The browser's engine reads no game records: Boardspace's dialect
// (boardspace.go) is left out of it, and its records read as the
// project's SGF, which they are not.

func isBoardspace(sgfNode) bool { return false }

func parseBoardspace(string, []sgfNode) (SGFGame, error) { panic("unreachable") }
