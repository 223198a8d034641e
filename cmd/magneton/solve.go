package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/prove"
)

func init() {
	commands = append(commands, solveCommand)
}

func solveCommand(g *globalOptions) *cobra.Command {
	var (
		limit    time.Duration
		nodes    int64
		hash     int
		out      string
		table    string
		verify   string
		interval time.Duration
		moves    []string
	)
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

With --out, a win or loss is written as a proof certificate (the file format
is docs/certificates.md): one move of the winner at each of its turns, every
reply of the loser. --verify FILE checks a certificate with nothing but the
rules, no search, and says what it proves or where it is wrong.`,
		Example: `  magneton solve --hash 1 "8/6WB/B1B3B1/W6W/8/8/5W2/WB6 b 0 0"  # proven win for Black
  magneton --game tumbling solve --hash 1 "bbbbbbbbbb,1,bbrbbb,bbb,b,3/bb,3,b,1,r,1/1,b,2,b,b,r,1/3,b,b,r,1,r/2,b,1,rr,r,rr,1/b,4,r,2/4,rr,r,1,rrrrr/2,rr,1,rr,1,rrr,rrr b"  # proven win for Black
  magneton --game tumbling solve --time 10m --hash 1024 --table start.table --out start.proof start
  magneton solve --verify docs/proofs/magneton-black-wins-in-6.proof`,
		Args: func(c *cobra.Command, args []string) error {
			if verify != "" {
				if len(args) > 0 {
					return usagef("solve: --verify takes no position")
				}
				return nil
			}
			return exactArgs(1, -1, "a POSITION")(c, args)
		},
		RunE: func(c *cobra.Command, args []string) error {
			w := c.OutOrStdout()
			if verify != "" {
				return verifyCertificate(w, verify)
			}
			flags := searchFlags{hash: &hash, nodes: &nodes, times: map[string]*time.Duration{"time": &limit, "progress": &interval}}
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
				return usagef("solve: unexpected arguments %s after the position", clip(strings.Join(rest, " ")))
			}
			for _, m := range moves {
				if st, err = st.Play(m); err != nil {
					return fmt.Errorf("solve: --moves: %w", err)
				}
			}
			if gm.Solver == nil {
				return usagef("solve: %s has no solver", gm.Spec.Title)
			}
			ctx, cancel := context.WithTimeout(c.Context(), limit)
			defer cancel()
			errw := c.ErrOrStderr()
			rep, err := gm.Solver.Solve(ctx, st, prove.Options{
				HashMiB: hash, MaxNodes: nodes, Table: table, Certificate: out != "", Interval: interval,
				Progress: func(p prove.Progress) {
					fmt.Fprintf(errw, "solve: nodes %d  pn %s  dn %s  %.0f nodes/s  table %d entries  %s\n", p.Nodes, number(p.PN), number(p.DN), p.Rate(), p.Stored, p.Elapsed.Round(time.Millisecond))
				},
			})
			if err != nil {
				return err
			}
			if c.Context().Err() != nil {
				return c.Context().Err()
			}
			fmt.Fprintln(w, describe(st, rep))
			fmt.Fprintf(w, "nodes %d, %s, %.0f nodes/s, table %.1f MiB\n", rep.Nodes, rep.Elapsed.Round(time.Millisecond), float64(rep.Nodes)/max(rep.Elapsed.Seconds(), 1e-9), rep.TableMiB)
			if rep.Certificate != nil {
				if err := writeCertificate(out, rep.Certificate, st.Rules().Spec()); err != nil {
					return err
				}
				fmt.Fprintf(w, "certificate %s: %d positions\n", out, len(rep.Certificate.Nodes))
			} else if out != "" {
				fmt.Fprintf(w, "no certificate: only a win or a loss has one\n")
			}
			return nil
		},
	}
	f := c.Flags()
	f.DurationVar(&limit, "time", time.Minute, "stop after this long, above 0 and at most 24h")
	f.Int64Var(&nodes, "nodes", 0, "stop after this many positions expanded (0: no limit)")
	f.IntVar(&hash, "hash", 64, fmt.Sprintf("the table's size in MiB, %d to %d (a table loaded by --table keeps its own)", ai.MinHashMB, ai.MaxHashMB))
	f.StringVar(&out, "out", "", "write the proof of a win or loss to this file")
	f.StringVar(&table, "table", "", "load the table from this file if it exists, and save it there at the end (resumable runs)")
	f.StringVar(&verify, "verify", "", "check the certificate in this file instead of solving")
	f.StringArrayVar(&moves, "moves", nil, "moves to play from POSITION first (repeatable; the position after them is solved with no history)")
	f.DurationVar(&interval, "progress", 10*time.Second, "time between progress lines on standard error")
	return c
}

// number writes a proof or disproof number, "inf" for a settled one.
func number(n uint32) string {
	if n >= 1<<31-1 {
		return "inf"
	}
	return fmt.Sprint(n)
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
		if rep.ToMove == prove.Disproven {
			return fmt.Sprintf("not settled: %s, to move, cannot force a win; whether %s can is unknown (the limits ran out; proof number %s, disproof number %s)", us, them, number(rep.Last.PN), number(rep.Last.DN))
		}
		return fmt.Sprintf("not settled: whether %s, to move, can force a win is unknown (the limits ran out; proof number %s, disproof number %s)", us, number(rep.Last.PN), number(rep.Last.DN))
	}
	w, _ := rep.Result.Winner()
	return fmt.Sprintf("proven win for %s in %d moves or fewer (a proof of %d plies): %s", sp.SideNames[w], (rep.Plies+1)/2, rep.Plies, rep.Result)
}

func writeCertificate(path string, cert *prove.Certificate, sp *game.Spec) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("solve: --out: %w", err)
	}
	err = cert.Write(f, sp.SideLetters)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("solve: writing the certificate %s: %w", path, err)
	}
	return nil
}

// readCertificate reads a certificate file and the rules it names.
func readCertificate(path string) (*prove.Certificate, game.Rules, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return parseCertificate(bufio.NewReader(f))
}

func parseCertificate(r *bufio.Reader) (*prove.Certificate, game.Rules, error) {
	h, line, err := prove.ReadHeader(r)
	if err != nil {
		return nil, nil, err
	}
	rules, err := games.Rules(h.Game, h.Rules)
	if err != nil {
		return nil, nil, fmt.Errorf("the certificate's game: %w", err)
	}
	cert, err := prove.Read(r, h, line, rules)
	return cert, rules, err
}

// verifyCertificate checks the certificate in path and prints what it proves.
func verifyCertificate(w io.Writer, path string) error {
	cert, rules, err := readCertificate(path)
	if err == nil {
		var v prove.Verified
		if v, err = prove.Verify(cert, rules); err == nil {
			sp := rules.Spec()
			fmt.Fprintf(w, "verified: %s wins %s (%s) in %d moves or fewer; %d positions\n", sp.SideNames[v.Winner], cert.Position, rules.Settings(), v.Moves, v.Nodes)
			return nil
		}
	}
	return fmt.Errorf("solve: --verify %s: %w", path, err)
}
