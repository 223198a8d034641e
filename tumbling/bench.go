package tumbling

import "github.com/magneton-games/magneton/game"

// benchSuite is the fixed perft suite of `magneton bench` for Tumbling
// Down: the start and three middle-game positions from the reference data,
// each to depth 3 (one to four million leaves; depth 4 would take a
// hundred times longer, as positions have 80 to 170 moves).
var benchSuite = []game.BenchCase{
	{Phase: "start", Position: OriginalStart, Depth: 3},
	{Phase: "middle", Position: "1,bbb,b,bbbbbb,bb,3/bbbb,bb,b,b,4/bb,b,b,2,r,2/bb,b,3,r,1,r/bb,2,r,1,r,rr,rr/4,r,rr,r,rr/4,rrr,r,rrr,1/3,r,rr,2,rrrr r", Depth: 3},
	{Phase: "middle", Position: "bbbbbbb,b,2,b,1,b,1/2,b,b,b,b,2/b,3,rb,b,2/b,2,rb,b,2,rr/b,b,3,r,2/bb,b,b,2,r,1,r/b,2,r,r,2,r/bb,2,rr,1,r,r,rrrrrrrrrrrrrrr r", Depth: 3},
	{Phase: "middle", Position: "1,bb,bb,b,4/1,b,b,bbb,brb,b,1,r/8/b,bbb,b,b,4/b,b,2,b,2,r/2,b,1,r,2,rrrrr/b,b,2,rr,r,r,rrr/rbbbr,r,rbr,1,r,rr,1,rrrrr b", Depth: 3},
}
