package magneton

import "github.com/magneton-games/magneton/game"

// benchSuite is the fixed perft suite of `magneton bench`: positions from the
// reference data, in the drop phase and in the move phase, with depths
// chosen so each takes about a second on one core.
var benchSuite = []game.BenchCase{
	{Phase: "drop", Position: "8/8/8/8/8/8/8/8 w 12 12", Depth: 4},
	{Phase: "drop", Position: "8/3B2W1/1W3B2/3W4/8/6B1/2W2B2/6B1 w 8 7", Depth: 4},
	{Phase: "move", Position: "8/W1BB2W1/3W4/8/1B1W4/4B1B1/2W5/6B1 w 0 0", Depth: 7},
	{Phase: "move", Position: "2W1B2B/W6W/BB1W4/W3B3/B6B/WW5W/1BWBB3/BWW1BW2 b 0 0", Depth: 6},
	{Phase: "move", Position: "B1BBWB2/3BWW2/3BWBW1/3W1WB1/8/7W/W4BBB/2BWW2W b 0 0", Depth: 6},
}
