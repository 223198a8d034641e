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
	side    string
	color   string
	think   time.Duration
	threads int
}

func playCommand(g *globalOptions) *cobra.Command {
	o := &playOptions{}
	c := &cobra.Command{
		Use:   "play",
		Short: "Play against the computer in the terminal",
		Long: `Play a game against the computer. The board is drawn after every move (in
colour on a terminal, see --color); type moves in the game's notation
(Magneton: d4 or d4-a1; Tumbling Down: e5-f6 or e5>f6) or one of the
commands:

  moves        list the legal moves
  hint         ask the computer for a move
  undo         take back your last move (and the computer's reply)
  save FILE    write the game record to FILE
  load FILE    continue a game from a record
  resign       give up the game
  quit         leave
  help         this list

--level chooses the computer's strength, 1 (beginner) to 8 (max); --side
the side you play, by its letter (Magneton w or b, Tumbling Down b or r),
its name, or first/second. Ctrl-C leaves at any point, even while the
computer thinks (exit status 130); quit or the end of the input leaves
with status 0.`,
		Example: `  magneton play --level 3
  magneton play --game tumbling --side r --time 5s
  magneton play --color never < moves.txt      # a scripted game, no colour`,
		Args: exactArgs(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			if err := intIn(c, "level", o.level, minLevel, maxLevel, ""); err != nil {
				return err
			}
			if err := (searchFlags{threads: &o.threads, times: map[string]*time.Duration{"time": &o.think}}).check(c); err != nil {
				return err
			}
			_, rules, err := g.setup()
			if err != nil {
				return err
			}
			human, err := parseSide(rules.Spec(), o.side)
			if err != nil {
				return err
			}
			color, err := colorFlag(c, o.color)
			if err != nil {
				if _, serr := parseSide(rules.Spec(), o.color); serr == nil {
					return usagef("play: --color %s: --color is the board's colour now (auto, always or never); choose your side with --side %s", clip(o.color), o.color)
				}
				return err
			}
			s := &playSession{o: o, rules: rules, human: human, color: color, out: c.OutOrStdout()}
			if err := s.newPlayers(); err != nil {
				return err
			}
			s.g = game.NewGame(rules.Start())
			return s.run(c.Context(), c.InOrStdin())
		},
	}
	f := c.Flags()
	f.IntVar(&o.level, "level", 4, "the computer's level, 1 to 8")
	f.StringVar(&o.side, "side", "", "your side: the side's letter or name, or first/second (default: the first player)")
	addColorFlag(c, &o.color)
	f.DurationVar(&o.think, "time", 2*time.Second, "the computer's thinking time per move, above 0 and at most 24h")
	f.IntVar(&o.threads, "threads", 1, fmt.Sprintf("the computer's search threads, %d to %d", ai.MinThreads, ai.MaxThreads))
	return c
}

// parseSide reads the human's side.
func parseSide(sp *game.Spec, s string) (game.Side, error) {
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
	return 0, usagef("play: --side %s: want %s or %s (or first/second)", clip(s), sp.SideLetters[0], sp.SideLetters[1])
}

type playSession struct {
	o        *playOptions
	rules    game.Rules
	human    game.Side
	color    bool // draw the board in colour
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
	fmt.Fprint(s.out, st.Diagram(s.color))
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

// run plays the session, reading the human's lines from in, until quit,
// the end of in or the end of ctx (Ctrl-C), when it returns ctx's error at
// once, whether it waits for a line or the computer is thinking.
func (s *playSession) run(ctx context.Context, in io.Reader) error {
	sp := s.rules.Spec()
	fmt.Fprintf(s.out, "%s against the computer (level %d). You play %s. Type help for the commands.\n", sp.Title, s.o.level, sp.SideNames[s.human])
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lines := readLines(ctx, in)
	s.draw()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if r, _ := s.g.Result(); !r.Over() && s.g.Position().Side() != s.human {
			if err := s.computerMove(ctx); err != nil {
				return err
			}
			s.draw()
			continue
		}
		line, done, err := s.prompt(ctx, lines)
		if done {
			return err
		}
		if line == "" {
			continue
		}
		if quit, err := s.command(ctx, line); quit || err != nil {
			return err
		}
	}
}

// prompt asks for the human's next line and returns it trimmed, "" for a
// line to skip (blank, or too long: said so). It returns done at the end
// of lines (with a nil error), of ctx (with ctx's error) or on a read
// error.
func (s *playSession) prompt(ctx context.Context, lines <-chan inputLine) (line string, done bool, err error) {
	fmt.Fprint(s.out, "> ")
	var l inputLine
	var ok bool
	select {
	case <-ctx.Done():
		fmt.Fprintln(s.out)
		return "", true, ctx.Err()
	case l, ok = <-lines:
	}
	if !ok {
		fmt.Fprintln(s.out)
		return "", true, nil
	}
	if l.err != nil {
		fmt.Fprintln(s.out)
		return "", true, fmt.Errorf("play: reading standard input: %w", l.err)
	}
	if l.tooLong {
		fmt.Fprintf(s.out, "Line %d is longer than the limit of %d bytes; it was skipped.\n", l.n, maxLineBytes)
		return "", false, nil
	}
	return strings.TrimSpace(l.text), false, nil
}

// command carries out a line of the human's, a command or a move. It
// returns quit for quit or exit, and an error that ends the session (a
// hint interrupted); a command or a move that cannot be carried out is
// said so and the session goes on.
func (s *playSession) command(ctx context.Context, line string) (quit bool, err error) {
	cmd, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	switch strings.ToLower(cmd) {
	case "quit", "exit":
		return true, nil
	case "help", "?":
		fmt.Fprintln(s.out, "Commands: a move, moves, hint, undo, save FILE, load FILE, resign, quit.")
	case "moves":
		fmt.Fprintln(s.out, strings.Join(s.g.Position().Moves(), " "))
	case "undo":
		s.undo()
	case "hint":
		return false, s.hint(ctx)
	case "save":
		if arg == "" {
			fmt.Fprintln(s.out, "save needs a file name: save FILE")
			return false, nil
		}
		if err := os.WriteFile(arg, []byte(s.record()), 0o644); err != nil {
			fmt.Fprintf(s.out, "could not save: %s\n", clipMessage(err.Error()))
			return false, nil
		}
		fmt.Fprintf(s.out, "saved to %s\n", arg)
	case "load":
		if arg == "" {
			fmt.Fprintln(s.out, "load needs a file name: load FILE")
			return false, nil
		}
		if err := s.load(arg); err != nil {
			fmt.Fprintf(s.out, "could not load %s: %s\n", arg, clipMessage(err.Error()))
			return false, nil
		}
		fmt.Fprintf(s.out, "loaded %s: %d moves\n", arg, len(s.g.Moves()))
		s.draw()
	case "resign":
		if err := s.g.End(s.human, game.Resignation); err != nil {
			fmt.Fprintln(s.out, err)
			return false, nil
		}
		s.draw()
	default:
		if r, _ := s.g.Result(); r.Over() {
			fmt.Fprintf(s.out, "The game is over; %s is not a command (type help).\n", clip(line))
			return false, nil
		}
		if err := s.g.Play(line); err != nil {
			fmt.Fprintln(s.out, clipMessage(fmt.Sprintf("Bad move %q: %v. Type moves for the legal moves, help for the commands.", line, err)))
			return false, nil
		}
		s.draw()
	}
	return false, nil
}

// computerMove lets the computer think and play. Interrupted (ctx ended),
// it plays nothing and returns ctx's error.
func (s *playSession) computerMove(ctx context.Context) error {
	m, err := s.computer.Move(ctx, s.g, ai.Limits{MoveTime: s.o.think})
	if ctx.Err() != nil {
		return ctx.Err()
	}
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

// hint asks the strongest player for a move; interrupted, it returns
// ctx's error.
func (s *playSession) hint(ctx context.Context) error {
	if r, _ := s.g.Result(); r.Over() {
		fmt.Fprintln(s.out, "The game is over.")
		return nil
	}
	think := min(s.o.think, 2*time.Second)
	if t, ok := s.hinter.(ai.Thinker); ok {
		in, err := t.Think(ctx, s.g, ai.Limits{MoveTime: think}, nil)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			fmt.Fprintf(s.out, "no hint: %v\n", err)
			return nil
		}
		fmt.Fprintf(s.out, "Hint: %s (%s)\n", in.BestMove, scoreWords(in))
		return nil
	}
	m, err := s.hinter.Move(ctx, s.g, ai.Limits{MoveTime: think})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		fmt.Fprintf(s.out, "no hint: %v\n", err)
		return nil
	}
	fmt.Fprintf(s.out, "Hint: %s\n", m)
	return nil
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

// inputLine is one line read by readLines: its number from 1 and its text
// without the line break, or tooLong when it was longer than maxLineBytes
// (its text is then dropped), or the read error that ended the input.
type inputLine struct {
	n       int
	text    string
	tooLong bool
	err     error
}

// readLines reads the lines of r on a goroutine of its own, so that a
// reader blocked on a terminal does not hold up the end of ctx, and sends
// them on the channel it returns, which it closes at the end of r. It
// stops sending when ctx ends.
func readLines(ctx context.Context, r io.Reader) <-chan inputLine {
	ch := make(chan inputLine)
	go func() {
		defer close(ch)
		br := bufio.NewReaderSize(r, 64*1024)
		for n := 1; ; n++ {
			text, tooLong, err := readLine(br, maxLineBytes)
			if err != nil && text == "" && !tooLong {
				if err != io.EOF {
					select {
					case ch <- inputLine{n: n, err: err}:
					case <-ctx.Done():
					}
				}
				return
			}
			select {
			case ch <- inputLine{n: n, text: text, tooLong: tooLong}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return ch
}

// readLine reads a line of at most max bytes, without its "\n" or "\r\n";
// a longer one is read to its end and dropped (tooLong). err is the read
// error after the line, io.EOF at the end of the input.
func readLine(br *bufio.Reader, max int) (text string, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > max+2 { // +2: the line break
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if tooLong {
			return "", true, err
		}
		line := strings.TrimSuffix(strings.TrimSuffix(string(buf), "\n"), "\r")
		if len(line) > max {
			return "", true, err
		}
		return line, false, err
	}
}
