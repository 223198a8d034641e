package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/record"
)

func init() {
	commands = append(commands, playCommand)
}

type playOptions struct {
	level   int
	color   string
	think   time.Duration
	threads int
}

func playCommand(g *globalOptions) *cobra.Command {
	o := &playOptions{}
	c := &cobra.Command{
		Use:   "play",
		Short: "Play against the computer in the terminal",
		Long: `Play a game against the computer. The board is drawn after every move;
type moves in the game's notation (Magneton: d4 or d4-a1; Tumbling Down:
e5-f6 or e5>f6) or one of the commands:

  moves        list the legal moves
  hint         ask the computer for a move
  undo         take back your last move (and the computer's reply)
  save FILE    write the game record to FILE
  load FILE    continue a game from a record
  resign       give up the game
  quit         leave
  help         this list

--level chooses the computer's strength, 1 (beginner) to 8 (max);
--color the side you play, by its letter (Magneton w or b, Tumbling Down
b or r) or first/second.`,
		Args: exactArgs(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			_, rules, err := g.setup()
			if err != nil {
				return err
			}
			if o.level < 1 || o.level > 8 {
				return usagef("play: --level must be 1 to 8, not %d", o.level)
			}
			human, err := parseColor(rules.Spec(), o.color)
			if err != nil {
				return err
			}
			s := &playSession{o: o, rules: rules, human: human, out: c.OutOrStdout()}
			if err := s.newPlayers(); err != nil {
				return err
			}
			s.g = game.NewGame(rules.Start())
			return s.run(c.Context(), c.InOrStdin())
		},
	}
	f := c.Flags()
	f.IntVar(&o.level, "level", 4, "the computer's level, 1 to 8")
	f.StringVar(&o.color, "color", "", "your side: the side's letter or first/second (default: the first player)")
	f.DurationVar(&o.think, "time", 2*time.Second, "the computer's thinking time per move")
	f.IntVar(&o.threads, "threads", 1, "the computer's search threads")
	return c
}

// parseColor reads the human's side.
func parseColor(sp *game.Spec, s string) (game.Side, error) {
	switch strings.ToLower(s) {
	case "", "first", "1":
		return game.First, nil
	case "second", "2":
		return game.Second, nil
	}
	for i := range 2 {
		if strings.EqualFold(s, sp.SideLetters[i]) || strings.EqualFold(s, sp.SideNames[i]) {
			return game.Side(i), nil
		}
	}
	return 0, usagef("play: --color %q: want %s or %s (or first/second)", s, sp.SideLetters[0], sp.SideLetters[1])
}

type playSession struct {
	o        *playOptions
	rules    game.Rules
	human    game.Side
	g        *game.Game
	computer ai.Player
	hinter   ai.Player
	out      io.Writer
}

func (s *playSession) newPlayers() error {
	p, err := games.NewPlayer(fmt.Sprintf("level:%d", s.o.level), s.rules, ai.Config{Threads: s.o.threads})
	if err != nil {
		return err
	}
	h, err := games.NewPlayer("level:8", s.rules, ai.Config{Threads: s.o.threads})
	if err != nil {
		return err
	}
	s.computer, s.hinter = p, h
	return nil
}

func (s *playSession) draw() {
	st := s.g.Position()
	fmt.Fprint(s.out, st.Diagram(false))
	if r, why := s.g.Result(); r.Over() {
		msg := "The game is drawn"
		if w, ok := r.Winner(); ok {
			msg = s.rules.Spec().SideNames[w] + " wins"
			if w == s.human {
				msg += ": you win!"
			} else {
				msg += ": the computer wins."
			}
		}
		fmt.Fprintf(s.out, "%s (%s, %s). Type undo, save FILE, load FILE or quit.\n", msg, r, why)
	}
}

func (s *playSession) run(ctx context.Context, in io.Reader) error {
	sp := s.rules.Spec()
	fmt.Fprintf(s.out, "%s against the computer (level %d). You play %s. Type help for the commands.\n", sp.Title, s.o.level, sp.SideNames[s.human])
	sc := bufio.NewScanner(in)
	s.draw()
	for {
		if r, _ := s.g.Result(); !r.Over() && s.g.Position().Side() != s.human {
			if err := s.computerMove(ctx); err != nil {
				return err
			}
			s.draw()
			continue
		}
		fmt.Fprint(s.out, "> ")
		if !sc.Scan() {
			fmt.Fprintln(s.out)
			return sc.Err()
		}
		if ctx.Err() != nil {
			return nil
		}
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		cmd, arg, _ := strings.Cut(line, " ")
		arg = strings.TrimSpace(arg)
		switch strings.ToLower(cmd) {
		case "quit", "exit":
			return nil
		case "help", "?":
			fmt.Fprintln(s.out, "Commands: a move, moves, hint, undo, save FILE, load FILE, resign, quit.")
		case "moves":
			fmt.Fprintln(s.out, strings.Join(s.g.Position().Moves(), " "))
		case "undo":
			s.undo()
		case "hint":
			s.hint(ctx)
		case "save":
			if arg == "" {
				fmt.Fprintln(s.out, "save needs a file name: save FILE")
				continue
			}
			if err := os.WriteFile(arg, []byte(s.record()), 0o644); err != nil {
				fmt.Fprintf(s.out, "could not save: %v\n", err)
				continue
			}
			fmt.Fprintf(s.out, "saved to %s\n", arg)
		case "load":
			if arg == "" {
				fmt.Fprintln(s.out, "load needs a file name: load FILE")
				continue
			}
			if err := s.load(arg); err != nil {
				fmt.Fprintf(s.out, "could not load %s: %v\n", arg, err)
				continue
			}
			fmt.Fprintf(s.out, "loaded %s: %d moves\n", arg, len(s.g.Moves()))
			s.draw()
		case "resign":
			if err := s.g.End(s.human, game.Resignation); err != nil {
				fmt.Fprintln(s.out, err)
				continue
			}
			s.draw()
		default:
			if r, _ := s.g.Result(); r.Over() {
				fmt.Fprintf(s.out, "The game is over; %q is not a command (type help).\n", line)
				continue
			}
			if err := s.g.Play(line); err != nil {
				fmt.Fprintf(s.out, "Bad move %q: %v. Type moves for the legal moves, help for the commands.\n", line, err)
				continue
			}
			s.draw()
		}
	}
}

func (s *playSession) computerMove(ctx context.Context) error {
	m, err := s.computer.Move(ctx, s.g, ai.Limits{MoveTime: s.o.think})
	if err != nil {
		return fmt.Errorf("play: the computer: %w", err)
	}
	if err := s.g.Play(m); err != nil {
		return fmt.Errorf("play: the computer chose an illegal move: %w", err)
	}
	fmt.Fprintf(s.out, "The computer plays %s.\n", m)
	return nil
}

// undo takes back moves until the human's last move is gone.
func (s *playSession) undo() {
	n := len(s.g.Moves())
	// The number of moves to take back: back to before the human's last move.
	k := 0
	for i := n - 1; i >= 0; i-- {
		k++
		if s.g.States()[i].Side() == s.human {
			break
		}
		if i == 0 {
			k = 0 // only computer moves: nothing of yours to take back
		}
	}
	if k == 0 {
		fmt.Fprintln(s.out, "There is no move of yours to take back.")
		return
	}
	for range k {
		s.g.Undo()
	}
	if t, ok := s.computer.(ai.Thinker); ok {
		t.NewGame()
	}
	fmt.Fprintf(s.out, "Took back %d move(s).\n", k)
	s.draw()
}

func (s *playSession) hint(ctx context.Context) {
	if r, _ := s.g.Result(); r.Over() {
		fmt.Fprintln(s.out, "The game is over.")
		return
	}
	think := min(s.o.think, 2*time.Second)
	if t, ok := s.hinter.(ai.Thinker); ok {
		in, err := t.Think(ctx, s.g, ai.Limits{MoveTime: think}, nil)
		if err != nil {
			fmt.Fprintf(s.out, "no hint: %v\n", err)
			return
		}
		fmt.Fprintf(s.out, "Hint: %s (%s)\n", in.BestMove, scoreWords(in))
		return
	}
	m, err := s.hinter.Move(ctx, s.g, ai.Limits{MoveTime: think})
	if err != nil {
		fmt.Fprintf(s.out, "no hint: %v\n", err)
		return
	}
	fmt.Fprintf(s.out, "Hint: %s\n", m)
}

func scoreWords(in ai.Info) string {
	switch {
	case in.Mate > 0:
		return fmt.Sprintf("wins in %d", in.Mate)
	case in.Mate < 0:
		return fmt.Sprintf("loses in %d", -in.Mate)
	}
	return fmt.Sprintf("score %+.2f", float64(in.Score)/100)
}

// record writes the game record of the session.
func (s *playSession) record() string {
	names := [2]string{"computer level " + strconv.Itoa(s.o.level), "computer level " + strconv.Itoa(s.o.level)}
	names[s.human] = "human"
	return formatRecord(s.g, names, map[string]string{"Event": "magneton play"})
}

// load replaces the game by the one in a record file: its rules, start and
// moves.
func (s *playSession) load(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	g, err := parseRecord(string(data))
	if err != nil {
		return err
	}
	if g.Rules().Spec() != s.rules.Spec() || g.Rules().Settings().String() != s.rules.Settings().String() {
		s.rules = g.Rules()
		if err := s.newPlayers(); err != nil {
			return err
		}
	} else if t, ok := s.computer.(ai.Thinker); ok {
		t.NewGame()
	}
	s.g = g
	return nil
}

// parseRecord reads a game record (package record) and replays it.
func parseRecord(text string) (*game.Game, error) {
	rec, err := record.Parse(text)
	if err != nil {
		return nil, err
	}
	return rec.Replay()
}
