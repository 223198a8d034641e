package game

import "fmt"

// Ending is one way a game can end. The core declares the endings every
// game shares (no legal move, repetition, and the endings from outside the
// rules: resignation, agreement, time); each game declares its own in its
// Spec (Magneton's line of four, Tumbling Down's captured King). Endings
// are compared by identity: a position's Outcome returns one of the
// declared values, or nil while the game goes on.
type Ending struct {
	// Word names the ending in a record's Termination tag and in the play
	// server's protocol ("line", "king captured"). It is unique among the
	// neutral endings and the game's own.
	Word string
	// Text says it to a person, as the end of "White wins by ...":
	// "a line of four made by the magnetic effect".
	Text string
}

// String returns the ending's word, or "" for nil (a game going on).
func (e *Ending) String() string {
	if e == nil {
		return ""
	}
	return e.Word
}

// The endings every game shares.
var (
	// NoMoves: the side to move has no legal move (a loss or a draw, as the
	// game's rules say).
	NoMoves = &Ending{Word: "no legal move", Text: "no legal move"}
	// Repetition: the same position occurred for the third time (or as
	// many times as the rules' RepetitionLimit).
	Repetition = &Ending{Word: "repetition", Text: "threefold repetition"}
	// Resignation: a player gave up.
	Resignation = &Ending{Word: "resignation", Text: "resignation"}
	// Agreement: the players agreed a draw (the match runner also records
	// a game adjudicated at its ply limit so).
	Agreement = &Ending{Word: "agreement", Text: "agreement"}
	// Timeout: a player's clock ran out.
	Timeout = &Ending{Word: "time forfeit", Text: "time"}
	// Abandonment: a player left a game and did not come back, and the
	// opponent claimed the win; AbandonmentDraw: the opponent claimed a
	// draw instead (the play server offers both after a wait).
	Abandonment     = &Ending{Word: "abandonment", Text: "the opponent leaving the game"}
	AbandonmentDraw = &Ending{Word: "abandonment draw", Text: "a claim after a player left the game"}
	// PlyLimit: the game reached the most moves a host allows (the play
	// server's cap on endless games) and is drawn.
	PlyLimit = &Ending{Word: "ply limit", Text: "the move limit"}
)

// NeutralEndings lists the endings every game shares.
var NeutralEndings = []*Ending{NoMoves, Repetition, Resignation, Agreement, Timeout, Abandonment, AbandonmentDraw, PlyLimit}

// AllEndings returns every way a game of sp can end: the neutral endings,
// then the game's own.
func (sp *Spec) AllEndings() []*Ending {
	return append(append([]*Ending(nil), NeutralEndings...), sp.Endings...)
}

// Ending finds an ending of the game by its word, as a record's
// Termination tag or the play server's database writes it.
func (sp *Spec) Ending(word string) (*Ending, error) {
	for _, e := range sp.AllEndings() {
		if e.Word == word {
			return e, nil
		}
	}
	return nil, fmt.Errorf("%s: unknown ending %q", sp.Title, word)
}
