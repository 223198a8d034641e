package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/prove"
)

func init() { commands = append(commands, solveCommand) }

// solveOptions are solve's flags.
type solveOptions struct {
	limit, interval   time.Duration
	nodes             int64
	hash              int
	out, table, check string
	moves             []string
	opponent          bool
	split             int
}

func solveCommand(g *globalOptions) *cobra.Command {
	var o solveOptions // the flags, read by Args and RunE
	c := &cobra.Command{
		Use:   "solve POSITION | solve --verify FILE",
		Short: "Settle a position with the proof-number solver (a win, a loss or a draw), or check a proof certificate",
		Long: `Solve POSITION ("start" for the starting position) with the proof-number
solver: a depth-first proof-number search (df-pn) that settles the position
with best play for good, not by an evaluation: the side to move wins, loses,
or neither side can force a win (a draw). The position is taken with no
history: no earlier position counts towards the repetition rule.

While it runs it prints a line on standard error about every --progress:
the positions expanded, the root's proof and disproof numbers (for the side
whose win is being proved; 0 and "inf" mean settled) and the speed. It stops
at --time or --nodes and says what is known. With --table it loads the
search's table from FILE when FILE exists and saves it there at the end, so
that a run stopped by its limits goes on where it stopped.

With --split N the root's moves are searched apart on N goroutines, each
with its own table of --hash MiB (N times the memory), sharing nothing:
every move first gets a short look, then those left are searched to the
end, the most promising first. It asks one question only (the side to
move's win, or the other side's with --opponent-first) and takes no
--table; docs/research.md says when it pays.

With --out, a win or loss is written as a proof certificate (the file format
is docs/certificates.md): one move of the winner at each of its turns, every
reply of the loser. A draw is written as two certificates, each the proof
that a side does not lose (its cycles are draws by repetition). --verify
FILE checks the certificates of a file with nothing but the rules, no
search, and says what they prove or where they are wrong.`,
		Example: `  magneton solve --hash 1 "8/6WB/B1B3B1/W6W/8/8/5W2/WB6 b 0 0"  # proven win for Black
  magneton --game tumbling solve --hash 1 "bbbbbbbbbb,1,bbrbbb,bbb,b,3/bb,3,b,1,r,1/1,b,2,b,b,r,1/3,b,b,r,1,r/2,b,1,rr,r,rr,1/b,4,r,2/4,rr,r,1,rrrrr/2,rr,1,rr,1,rrr,rrr b"  # proven win for Black
  magneton --game tumbling solve --time 10m --hash 1024 --table start.table --out start.proof start
  magneton solve --verify docs/proofs/magneton-black-wins-in-6.proof
  magneton solve --split 2 --hash 1 "8/6WB/B1B3B1/W6W/8/8/5W2/WB6 b 0 0"  # proven win for Black`,
		Args: func(c *cobra.Command, args []string) error {
			if o.check != "" {
				if len(args) > 0 {
					return usagef("solve: --verify takes no position")
				}
				return nil
			}
			return exactArgs(1, -1, "a POSITION")(c, args)
		},
		RunE: func(c *cobra.Command, args []string) error { return o.run(c, g, args) },
	}
	f := c.Flags()
	f.DurationVar(&o.limit, "time", time.Minute, "stop after this long, above 0 and at most 24h")
	f.Int64Var(&o.nodes, "nodes", 0, "stop after this many positions expanded (0: no limit)")
	f.IntVar(&o.hash, "hash", 64, hashUsage(", rounded down to a power of two of its 96-byte buckets (64 gives 48 MiB); settled results are kept beside it, never replaced, in up to as much memory again (a table loaded by --table keeps its own size)"))
	f.StringVar(&o.out, "out", "", "write the proof of a win, loss or draw to this file")
	f.StringVar(&o.table, "table", "", "load the table from this file if it exists, and save it there at the end (resumable runs)")
	f.StringVar(&o.check, "verify", "", "check the certificate in this file instead of solving")
	f.StringArrayVar(&o.moves, "moves", nil, "moves to play from POSITION first (repeatable; the position after them is solved with no history)")
	f.BoolVar(&o.opponent, "opponent-first", false, "ask first whether the side not to move wins (the question the budget goes to when that side is believed to win)")
	f.IntVar(&o.split, "split", 0, "search the root's moves apart on this many goroutines, each with its own table (0: one search)")
	f.DurationVar(&o.interval, "progress", 10*time.Second, "time between progress lines on standard error")
	return profiled(c)
}

// run solves the position of args, after --moves, or with --verify checks
// a certificate file instead.
func (o *solveOptions) run(c *cobra.Command, g *globalOptions, args []string) error {
	w := c.OutOrStdout()
	if o.check != "" {
		return verifyCertificate(w, o.check)
	}
	flags := searchFlags{hash: &o.hash, nodes: &o.nodes, times: map[string]*time.Duration{"time": &o.limit, "progress": &o.interval}}
	if err := flags.check(c); err != nil {
		return err
	}
	gm, _, err := g.setup()
	if err != nil {
		return err
	}
	st, rest, err := g.position(args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("solve: unexpected arguments %s after the position", clip(fmt.Sprint(rest)))
	}
	for _, m := range o.moves {
		if st, err = st.Play(m); err != nil {
			return fmt.Errorf("solve: --moves: %w", err)
		}
	}
	if gm.Solver == nil {
		return usagef("solve: %s has no solver", gm.Spec.Title)
	}
	if o.split < 0 || o.split > 64 {
		return usagef("solve: --split %d: want 1 to 64 goroutines, or 0 for one search", o.split)
	}
	if o.split > 0 && o.table != "" {
		return usagef("solve: --split takes no --table: each goroutine has a table of its own that is not saved")
	}
	ctx, cancel := context.WithTimeout(c.Context(), o.limit)
	defer cancel()
	errw := c.ErrOrStderr()
	solve := gm.Solver.Solve
	if o.split > 0 {
		solve = func(ctx context.Context, s game.State, opts prove.Options) (*prove.Report, error) {
			return gm.Solver.Split(ctx, s, opts, o.split)
		}
	}
	rep, err := solve(ctx, st, prove.Options{
		HashMiB: o.hash, MaxNodes: o.nodes, Table: o.table, Certificate: o.out != "", Interval: o.interval, OpponentFirst: o.opponent,
		Progress: func(p prove.Progress) {
			fmt.Fprintf(errw, "solve: nodes %d  pn %s  dn %s  %.0f nodes/s  table %d entries (%d settled)  %s\n", p.Nodes, number(p.PN), number(p.DN), p.Rate(), p.Stored, p.Settled, p.Elapsed.Round(time.Millisecond))
		},
	})
	if err != nil {
		return err
	}
	if c.Context().Err() != nil {
		return c.Context().Err()
	}
	fmt.Fprintln(w, describe(st, rep))
	if len(rep.Moves) > 0 {
		writeSplitMoves(w, st, rep)
	}
	fmt.Fprintf(w, "nodes %d, %s, %.0f nodes/s, table %.1f MiB\n", rep.Nodes, rep.Elapsed.Round(time.Millisecond), float64(rep.Nodes)/max(rep.Elapsed.Seconds(), 1e-9), rep.TableMiB)
	return o.writeProof(w, st, rep)
}

// writeProof writes the proof of what a solve of st settled to --out and
// says so, or says why there is none.
func (o *solveOptions) writeProof(w io.Writer, st game.State, rep *prove.Report) error {
	switch {
	case rep.Certificate != nil:
		if err := writeCertificate(o.out, st.Rules().Spec(), rep.Certificate); err != nil {
			return err
		}
		fmt.Fprintf(w, "certificate %s: %d positions\n", o.out, len(rep.Certificate.Nodes))
	case rep.Draw[0] != nil:
		if err := writeCertificate(o.out, st.Rules().Spec(), rep.Draw[0], rep.Draw[1]); err != nil {
			return err
		}
		fmt.Fprintf(w, "certificate %s: the draw's two proofs, %d and %d positions\n", o.out, len(rep.Draw[0].Nodes), len(rep.Draw[1].Nodes))
	case rep.CertificateErr != nil:
		fmt.Fprintf(w, "no certificate: %v (run again with --table and a longer --time to write it)\n", rep.CertificateErr)
	case o.out != "":
		fmt.Fprintf(w, "no certificate: only a settled position has one\n")
	}
	return nil
}

// movesWord writes a count of moves: "1 move", "3 moves".
func movesWord(n int) string {
	if n == 1 {
		return "1 move"
	}
	return fmt.Sprintf("%d moves", n)
}

// number writes a proof or disproof number, "inf" for a settled one.
func number(n uint32) string {
	if n >= 1<<31-1 {
		return "inf"
	}
	return fmt.Sprint(n)
}

// writeSplitMoves lists what a split search learnt of each root move.
func writeSplitMoves(w io.Writer, st game.State, rep *prove.Report) {
	names := st.Rules().Spec().SideNames
	var settled int
	for _, m := range rep.Moves {
		state := fmt.Sprintf("not settled (proof number %s, disproof number %s)", number(m.PN), number(m.DN))
		switch m.Value {
		case prove.Unknown:
			if m.Nodes == 0 {
				state = "not searched: the limits ran out first"
			}
		case prove.Proven:
			state = fmt.Sprintf("%s wins (a proof of %d plies)", names[rep.Last.Attacker], m.Plies)
			settled++
		case prove.Disproven:
			state = fmt.Sprintf("%s cannot force a win", names[rep.Last.Attacker])
			settled++
		}
		fmt.Fprintf(w, "  %-10s %s, %d nodes\n", m.Move, state, m.Nodes)
	}
	fmt.Fprintf(w, "split: %d of the root's %d moves settled\n", settled, len(rep.Moves))
}

// describe says what a solve settled, from the side to move's view.
func describe(s game.State, rep *prove.Report) string {
	sp := s.Rules().Spec()
	us := sp.SideNames[s.Side()]
	them := sp.SideNames[s.Side().Other()]
	switch rep.Result {
	case game.Draw:
		return fmt.Sprintf("proven draw: neither %s nor %s can force a win", us, them)
	case game.Ongoing:
		if rep.Opponent == prove.Disproven {
			return fmt.Sprintf("not settled: %s cannot force a win; whether %s, to move, can is unknown (the limits ran out; proof number %s, disproof number %s)", them, us, number(rep.Last.PN), number(rep.Last.DN))
		}
		if rep.ToMove == prove.Disproven {
			return fmt.Sprintf("not settled: %s, to move, cannot force a win; whether %s can is unknown (the limits ran out; proof number %s, disproof number %s)", us, them, number(rep.Last.PN), number(rep.Last.DN))
		}
		asked := us + ", to move,"
		if rep.Last.Attacker != s.Side() {
			asked = them
		}
		return fmt.Sprintf("not settled: whether %s can force a win is unknown (the limits ran out; proof number %s, disproof number %s)", asked, number(rep.Last.PN), number(rep.Last.DN))
	}
	w, _ := rep.Result.Winner()
	return fmt.Sprintf("proven win for %s in %s or fewer (a proof of %d plies): %s", sp.SideNames[w], movesWord((rep.Plies+1)/2), rep.Plies, rep.Result)
}

// proveLine runs the solver on s for d with a table of hash MiB and
// prints what it settled: the analysis's only "proven" claims.
func proveLine(c *cobra.Command, s game.State, d time.Duration, hash int) error {
	gm, err := games.Of(s.Rules().Spec())
	if err != nil || gm.Solver == nil {
		return fmt.Errorf("analyze: --prove: %s has no solver", s.Rules().Spec().Title)
	}
	ctx, cancel := context.WithTimeout(c.Context(), d)
	defer cancel()
	rep, err := gm.Solver.Solve(ctx, s, prove.Options{HashMiB: hash})
	if err != nil {
		return fmt.Errorf("analyze: --prove: %w", err)
	}
	fmt.Fprintf(c.OutOrStdout(), "%s (solver: %d nodes)\n", describe(s, rep), rep.Nodes)
	return nil
}
