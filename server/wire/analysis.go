package wire

// Played is the rules engine's account of a position after moves (POST
// /api/play).
type Played struct {
	Start     string   `json:"start"`
	Positions []string `json:"positions"` // after each move
	Position  string   `json:"position"`  // after the last
	Turn      int      `json:"turn"`
	Legal     []string `json:"legal"`
	Result    string   `json:"result"`
	Reason    string   `json:"reason"`
}

// Analysis is the engine's answer of POST /api/analyze: the best line's
// score (from the side to move's, Turn's, point of view), move, line and
// depth, all the Lines searched, and the proof searches' verdict.
type Analysis struct {
	Score  string         `json:"score"`
	Best   string         `json:"best"`
	PV     []string       `json:"pv"`
	Depth  int            `json:"depth"`
	Turn   int            `json:"turn"`
	Proven *Proven        `json:"proven"`
	Lines  []AnalysisLine `json:"lines"`
}

// AnalysisLine is one line of an analysis: its score from the side to
// move's point of view ("+0.35", "mate 3"), its moves and the depth
// searched.
type AnalysisLine struct {
	Score string   `json:"score"`
	PV    []string `json:"pv"`
	Depth int      `json:"depth"`
}

// Proven is a forced win a proof search proved: the winner (a side's
// index) and the winner's moves to it.
type Proven struct {
	Winner int `json:"winner"`
	// Moves bounds the winner's moves to the win: the proof's longest
	// line, or the shortest win when Exact.
	Moves int  `json:"moves"`
	Exact bool `json:"exact"`
	// Line is the proof's line when the proof search gives one: the
	// winner's moves and the loser's longest resistance, from the
	// position (a review's refutation of the move that allowed the win).
	Line []string `json:"line,omitempty"`
}

// Review is a game's review (GET /api/games/<id>/review): Status "none",
// "running" or "done", positions Done of Total, each position's
// evaluation, and once done each move judged and each side's counts.
type Review struct {
	Status string       `json:"status"`
	Done   int          `json:"done"`
	Total  int          `json:"total"`
	Evals  []ReviewEval `json:"evals"`
	Moves  []ReviewMove `json:"moves"`
	Sides  []ReviewSide `json:"sides"`
}

// ReviewEval is one position's evaluation, from the first side's point of
// view.
type ReviewEval struct {
	Ply int `json:"ply"` // the position after this many moves
	// CP is the score in hundredths of the evaluation's unit; Mate the
	// moves to a forced end the search sees (positive: the first side
	// wins), 0 for none.
	CP    int      `json:"cp"`
	Mate  int      `json:"mate,omitempty"`
	Best  string   `json:"best,omitempty"`
	PV    []string `json:"pv,omitempty"`
	Depth int      `json:"depth,omitempty"`
	// Result is the game's result when the position ends it.
	Result string `json:"result,omitempty"`
	// Proven is the proof search's verdict, when it found one.
	Proven *Proven `json:"proven,omitempty"`
	// BestAfter is the proof search's verdict on the position after
	// Best, asked when the move played let the opponent a proven win:
	// when Best loses by proof too, the position was lost already and
	// the move played is no blunder of its own.
	BestAfter *Proven `json:"best_after,omitempty"`
}

// ReviewMove is a move as the review judges it.
type ReviewMove struct {
	Ply  int    `json:"ply"` // 0 for the first move
	Move string `json:"move"`
	Side int    `json:"side"`
	// Loss is the mover's winning chance lost (percent points); Class
	// "inaccuracy", "mistake" or "blunder" (or none); Best the engine's
	// move there when it differs.
	Loss  float64 `json:"loss"`
	Class string  `json:"class,omitempty"`
	Best  string  `json:"best,omitempty"`
	// Lets is the opponent's win the proof search proved after the
	// move, which the mover could have avoided: a blunder whatever the
	// scores say ("lets Black win in 3"), with the refutation in its Line.
	Lets *Proven `json:"lets,omitempty"`
	// Threw is the mover's proven win before the move, which the move
	// threw away (no proof of a win is left after it): a blunder too.
	Threw *Proven `json:"threw,omitempty"`
}

// ReviewSide counts a side's marked moves.
type ReviewSide struct {
	Inaccuracies int `json:"inaccuracies"`
	Mistakes     int `json:"mistakes"`
	Blunders     int `json:"blunders"`
}

// PuzzleSummary is a puzzle's line in a list.
type PuzzleSummary struct {
	ID     string `json:"id"`
	Game   string `json:"game"`
	WinIn  int    `json:"win_in"`
	Rating int    `json:"rating"`
	Plays  int    `json:"plays"`
	Solved int    `json:"solved"`
	Tried  bool   `json:"tried,omitempty"`
}

// Puzzle is a puzzle as the front end plays it.
type Puzzle struct {
	PuzzleSummary
	Title    string `json:"title"`
	Rules    string `json:"rules"`
	Position string `json:"position"`
	// Side is the solver's side (to move in Position); Line the solution
	// (the solver's moves and the most stubborn replies), Accept[i] every
	// move that keeps the proven win at the solver's i-th turn.
	Side   int        `json:"side"`
	Line   []string   `json:"line"`
	Accept [][]string `json:"accept"`
	// Positions holds the position after each move of the line; Legal the
	// legal moves at each of the solver's turns on it, for the board.
	Positions []string   `json:"positions"`
	Legal     [][]string `json:"legal"`
	Source    string     `json:"source,omitempty"`
}
