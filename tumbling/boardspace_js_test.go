//go:build js

package tumbling

import "testing"

// addBoardspaceSeeds: the browser's engine reads no Boardspace records.
func addBoardspaceSeeds(*testing.F) {}
