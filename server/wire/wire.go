// Package wire holds the play server's protocol as Go types: what a
// browser, a test client or a load generator sends and receives over a
// game's WebSocket and in the JSON answers of the HTTP API
// (docs/protocol.md). The server builds these values; its clients decode
// them. Nothing here does I/O or knows a game's rules.
package wire

// ClientMsg is any message a client sends on a game's socket: "move"
// (Move), "resign", "draw", "takeback", "rematch" and "claim" (Action),
// "abort", "cancel", "chat" (Text), "computer" (Where), "sync" (the whole
// state again) and "ping".
type ClientMsg struct {
	Type   string `json:"type"`
	Move   string `json:"move,omitempty"`
	Action string `json:"action,omitempty"`
	Text   string `json:"text,omitempty"` // a chat line
	// Computer marks a move as the computer's, which the player's browser
	// found in a game whose computer thinks there (Computer.Where
	// "browser"); Ply is then the number of moves before it and
	// Position, if given, the position it is for: a move for another
	// position (sent twice, or after a takeback) is refused.
	Computer bool   `json:"computer,omitempty"`
	Ply      *int   `json:"ply,omitempty"`
	Position string `json:"position,omitempty"`
	// Where is a "computer" message's new place for the game's computer:
	// "server", when the browser's engine cannot go on.
	Where string `json:"where,omitempty"`
	// Name is the sender's name for a spectator's chat line: set by the
	// server from the socket's account or guest (whatever a client sends
	// there is replaced), carried to the game's owner.
	Name string `json:"name,omitempty"`
	// Addr is the sender's address as the limits count it, for the pace
	// of a spectator's lines, and User the sender's account ("" for a
	// guest), for the moderators' mutes: set by the server like Name.
	Addr string `json:"addr,omitempty"`
	User string `json:"user,omitempty"`
}

// ClientTypes are the message types a client may send, as refusals list
// them.
const ClientTypes = "move, resign, draw, rematch, cancel, abort, takeback, claim, computer, chat, sync, ping"

// Update is a change of a game's state, as seen from one seat: the state
// without the history, with the number of moves (Ply) and the last move
// and position, so that a client appends a move instead of reading every
// move again. Type is "update".
type Update struct {
	Type     string   `json:"type"`
	ID       string   `json:"id"`
	Game     string   `json:"game"`
	Title    string   `json:"title"`
	Rules    string   `json:"rules"`
	Sides    [2]Side  `json:"sides"`
	Seat     *int     `json:"seat"`
	Status   string   `json:"status"`
	Ply      int      `json:"ply"`
	Position string   `json:"position"`
	Turn     int      `json:"turn"`
	Legal    []string `json:"legal"`
	// Premoves: for the seat waiting in a live game, every move that may
	// be legal once the opponent has moved, for a premove made on the
	// board (played then only if it is legal).
	Premoves []string `json:"premoves,omitempty"`
	Last     string   `json:"last"`
	Clock    *Clock   `json:"clock"`
	Result   string   `json:"result"`
	Reason   string   `json:"reason"`
	// DrawOffer is the side offering a draw (null for none).
	DrawOffer *int     `json:"draw_offer"`
	Rematch   *Rematch `json:"rematch"`
	Rated     bool     `json:"rated"`
	// Public: the game is listed in the lobby (a seek), so its page says
	// that an opponent is looked for rather than offering a link to send.
	Public bool `json:"public"`
	// Tournament is the id of the tournament that made the game (omitted
	// for none): its page is /tournaments/<id>.
	Tournament string `json:"tournament,omitempty"`
	// At is the server's time (ms since the epoch), for countdowns.
	At int64 `json:"at"`
	// Abortable: the seat may abort the game now (before its first
	// move); FirstMoveBy: when the side to move must have made its first
	// move, or the game is aborted (null when there is no such deadline).
	Abortable   bool   `json:"abortable"`
	FirstMoveBy *int64 `json:"first_move_by"`
	// Takeback is a pending takeback request; TakebackAllowed says
	// whether the seat may ask for one.
	Takeback        *Offer `json:"takeback"`
	TakebackAllowed bool   `json:"takeback_allowed"`
	// ClaimAfterMS is how long a player must be away before the opponent
	// may claim the game (Sides[i].AwaySince).
	ClaimAfterMS int64 `json:"claim_after_ms"`
	// ChatRoom is where the seat's chat lines go.
	ChatRoom string `json:"chat_room"`
	// Computer is the computer of a game against it (omitted in a game
	// between people).
	Computer *Computer `json:"computer,omitempty"`
}

// Computer is the computer player of a game: its seat and level, and
// where it thinks.
type Computer struct {
	Seat  int `json:"seat"`
	Level int `json:"level"`
	// Where is "server", the play server's search, or "browser": the
	// player's page finds the computer's moves with the browser's engine
	// and sends them (ClientMsg.Computer), and the server checks them as
	// any move and runs the computer's clock.
	Where string `json:"where"`
	// MoveTimeMS is the computer's time for a move in a game without a
	// clock, as the server's computer takes it (a game with a clock
	// gives the clock's time instead).
	MoveTimeMS int64 `json:"movetime_ms,omitempty"`
	// Fallback: the server's computer may take the game over (a
	// "computer" message with Where "server") if the browser's engine
	// fails; false when this server's computer is off.
	Fallback bool `json:"fallback"`
}

// State is a game's whole state as seen from one seat, with its history:
// what a client gets when it connects and when it asks ("sync"), and after
// a change an update cannot say (a takeback). Type is "state".
type State struct {
	Update
	Start     string   `json:"start"`
	Moves     []string `json:"moves"`
	Positions []string `json:"positions"` // after each move
	// Chat holds the lines the seat may see, oldest first.
	Chat []ChatLine `json:"chat"`
}

// Offer is a pending offer (a takeback request) and who made it.
type Offer struct {
	OfferedBy int `json:"offered_by"`
}

// Side is one side of a game as the players' bars show it.
type Side struct {
	Name      string `json:"name"`
	Letter    string `json:"letter"`
	Player    string `json:"player"`
	Connected bool   `json:"connected"`
	// User is the account's name, Rating its rating when the game began
	// (rated games), RatingDiff the change once it is over.
	User       string `json:"user,omitempty"`
	Rating     string `json:"rating,omitempty"`
	RatingDiff *int   `json:"rating_diff,omitempty"`
	// Bot: the seat is a bot account's (its page says BOT by its name).
	Bot bool `json:"bot,omitempty"`
	// AwaySince is when a player who left was last seen (ms since the
	// epoch; omitted while connected), and Claimable says whether the seat
	// looking may claim the game against them now.
	AwaySince *int64 `json:"away_since,omitempty"`
	Claimable bool   `json:"claimable,omitempty"`
}

// Clock is a game's clock as of At (ms since the epoch).
type Clock struct {
	InitialMS   int64    `json:"initial_ms"`
	IncrementMS int64    `json:"increment_ms"`
	RemainingMS [2]int64 `json:"remaining_ms"`
	Running     *int     `json:"running"`
	At          int64    `json:"at"`
	// PerMove: a correspondence clock, InitialMS for each move.
	PerMove bool `json:"per_move"`
}

// Rematch is a rematch offer, and the new game once it is accepted.
type Rematch struct {
	OfferedBy int    `json:"offered_by"`
	Game      string `json:"game,omitempty"`
}

// ChatLine is a chat line as clients see it; on a socket a new line comes
// as ChatMsg.
type ChatLine struct {
	// Seq numbers the game's lines from 0, in order (a report names a
	// line so).
	Seq int `json:"seq"`
	// Room is "players", or "spectators": the spectators' room, which the
	// players see once the game is over.
	Room string `json:"room"`
	Name string `json:"name"`
	Side int    `json:"side"` // -1 for a spectator
	Text string `json:"text"`
	At   int64  `json:"at"`
}

// ChatMsg is a new chat line on a socket; Type is "chat".
type ChatMsg struct {
	Type string   `json:"type"`
	Line ChatLine `json:"line"`
}

// ErrorMsg is a refusal on a socket (Refusal.JSON with the key "message");
// Type is "error".
type ErrorMsg struct {
	Type    string            `json:"type"`
	Message string            `json:"message"`
	Code    string            `json:"code,omitempty"`
	Vars    map[string]string `json:"vars,omitempty"`
}

// Summary is a game's line in a list (the lobby, the archive, a profile).
type Summary struct {
	ID      string    `json:"id"`
	Game    string    `json:"game"`
	Title   string    `json:"title"`
	Rules   string    `json:"rules"`
	Players [2]string `json:"players"`
	Status  string    `json:"status"`
	Result  string    `json:"result"`
	Reason  string    `json:"reason"`
	Moves   int       `json:"moves"`
	Created int64     `json:"created"`
	Updated int64     `json:"updated"`
	// Users holds the account names among Players ("" for a guest, the
	// computer or a free seat).
	Users [2]string `json:"users"`
	// Bots marks the seats held by bot accounts.
	Bots    [2]bool   `json:"bots"`
	Rated   bool      `json:"rated"`
	Family  string    `json:"family,omitempty"`
	Ratings [2]string `json:"ratings"`
	Clock   string    `json:"clock"`
	// Free is a waiting game's free seat (-1 for none).
	Free      int `json:"free"`
	MinRating int `json:"min_rating"`
	MaxRating int `json:"max_rating"`
	// Spectators: a live game's spectators (in the live list).
	Spectators int `json:"spectators"`
}

// MyGame is a line of GET /api/my-games: a game the browser's player has a
// seat in.
type MyGame struct {
	Summary
	Seat     int  `json:"seat"`
	YourTurn bool `json:"your_turn"`
	// Challenge: a challenge to the account, which it accepts or declines
	// (POST /api/challenges/<id>/accept, .../decline); Seat is the seat it
	// would take.
	Challenge bool `json:"challenge,omitempty"`
	// Deadline is when the side to move runs out of time (or of time for
	// its first move), ms since the epoch; null without a clock.
	Deadline *int64 `json:"deadline"`
}

// Created is the answer to POST /api/games.
type Created struct {
	ID  string `json:"id"`
	URL string `json:"url"`
	// Invite is the invitation link of a game against a person.
	Invite string `json:"invite,omitempty"`
}

// Joined is the answer to POST /api/games/<id>/join.
type Joined struct {
	ID   string `json:"id"`
	Seat int    `json:"seat"`
}

// Standing is an account's standing with the moderators, as GET
// /api/account tells its owner: muted until MutedUntil (ms since the
// epoch, 0 for not), banned or closed (then it is logged out), and why.
type Standing struct {
	Moderator  bool   `json:"moderator,omitempty"`
	MutedUntil int64  `json:"muted_until,omitempty"`
	Banned     bool   `json:"banned,omitempty"`
	Closed     bool   `json:"closed,omitempty"`
	Reason     string `json:"reason,omitempty"`
}

// Report is a report as the moderators see it (GET /api/mod/reports).
type Report struct {
	ID       string `json:"id"`
	Reporter string `json:"reporter"` // the reporter's name; "" for the system's own flags
	Target   string `json:"target"`   // the name of the player reported
	Game     string `json:"game,omitempty"`
	ChatSeq  int    `json:"chat_seq"` // the chat line's number, -1 for none
	Reason   string `json:"reason"`
	Text     string `json:"text"`
	Created  int64  `json:"created"`
	Closed   int64  `json:"closed,omitempty"`
	Outcome  string `json:"outcome,omitempty"`
}

// ModAction is a moderator's action as the log shows it (GET
// /api/mod/log).
type ModAction struct {
	Moderator string `json:"moderator"`
	Action    string `json:"action"`
	Target    string `json:"target,omitempty"`
	Game      string `json:"game,omitempty"`
	Reason    string `json:"reason,omitempty"`
	At        int64  `json:"at"`
}
