package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/record"
	"github.com/magneton-games/magneton/tumbling"
)

func init() {
	commands = append(commands, recordCommand)
}

func recordCommand(g *globalOptions) *cobra.Command {
	c := &cobra.Command{
		Use:   "record",
		Short: "Check, convert and show game record files (PGN-like records and SGF)",
		Long: `Read game record files: the project's PGN-like records (any game) and the
other formats a game has (SGF for Tumbling Down). A file's format is told
by its extension (.pgn or .sgf) or else by its content: SGF starts with
"(", a PGN-like record with a tag "[". A file may hold several games, one
after the other; the game, its rules and its start come from each record,
not from --game and --rule.`,
		Example: `  magneton record check games.pgn more.sgf
  magneton record convert --to sgf tumbling.pgn > tumbling.sgf
  magneton record show --number 3 games.pgn`,
	}
	c.AddCommand(recordCheckCommand(g), recordConvertCommand(g), recordShowCommand(g))
	return c
}

func recordCheckCommand(_ *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "check FILE...",
		Short: "Replay every game of record files and report each problem",
		Long: `Read every game of each FILE, replay its moves with the rules it names and
check its result, and print one line for each problem: the file, the
game's number in the file (and the line it starts on), the move, and what
is wrong. The last line sums up. The exit status is 1 if any game has a
problem.`,
		Example: `  magneton record check games.pgn
  magneton record check *.sgf`,
		Args: exactArgs(1, -1, "at least one FILE"),
		RunE: func(c *cobra.Command, files []string) error {
			w := c.OutOrStdout()
			var gamesRead, bad, badFiles int
			for _, path := range files {
				entries, err := readRecordFile(path)
				if err != nil {
					fmt.Fprintf(w, "%s: %s\n", path, clipMessage(err.Error()))
					badFiles++
					continue
				}
				fileBad := 0
				for _, e := range entries {
					gamesRead++
					if e.err != nil {
						fmt.Fprintf(w, "%s: %s: %s\n", path, e.where(), clipMessage(e.err.Error()))
						fileBad++
					}
				}
				if len(entries) == 0 {
					fmt.Fprintf(w, "%s: no game found\n", path)
					badFiles++
				}
				bad += fileBad
				if fileBad > 0 {
					badFiles++
				}
			}
			fmt.Fprintf(w, "%s in %s: %d with problems\n", plural(gamesRead, "game"), plural(len(files), "file"), bad)
			if bad > 0 || badFiles > 0 {
				return fmt.Errorf("record check: problems in %d of %d files", badFiles, len(files))
			}
			return nil
		},
	}
}

func recordConvertCommand(_ *globalOptions) *cobra.Command {
	var to, output string
	c := &cobra.Command{
		Use:   "convert --to FORMAT FILE",
		Short: "Convert the games of a record file to another format",
		Long: `Read every game of FILE and write it in FORMAT on standard output (or to
--output): pgn, the project's PGN-like record, which every game has, or a
format of the game's own (sgf for Tumbling Down; Magneton has no SGF).
A PGN-like record converted to pgn keeps all its tags and comments; from
SGF, the players, the date, the rules, the start and the moves are kept.
Nothing is written if any game cannot be read or converted.`,
		Example: `  magneton record convert --to sgf tumbling.pgn > tumbling.sgf
  magneton record convert --to pgn --output games.pgn games.sgf`,
		Args: exactArgs(1, 1, "one FILE"),
		RunE: func(c *cobra.Command, args []string) error {
			if to == "" {
				return usagef("record convert: --to names the format: pgn or sgf")
			}
			path := args[0]
			entries, err := readRecordFile(path)
			if err != nil {
				return fmt.Errorf("record convert: %s: %w", path, err)
			}
			if len(entries) == 0 {
				return fmt.Errorf("record convert: %s: no game found", path)
			}
			var out strings.Builder
			for i, e := range entries {
				if e.err != nil {
					return fmt.Errorf("record convert: %s: %s: %w", path, e.where(), e.err)
				}
				text, err := e.convert(to)
				if err != nil {
					return fmt.Errorf("record convert: %s: %s: %w", path, e.where(), err)
				}
				if i > 0 && to == record.PGN.Name {
					out.WriteString("\n")
				}
				out.WriteString(text)
			}
			if output == "" {
				_, err := io.WriteString(c.OutOrStdout(), out.String())
				return err
			}
			if err := os.WriteFile(output, []byte(out.String()), 0o644); err != nil {
				return fmt.Errorf("record convert: %w", err)
			}
			return nil
		},
	}
	c.Flags().StringVar(&to, "to", "", "the format to write: pgn, or sgf (Tumbling Down)")
	c.Flags().StringVarP(&output, "output", "o", "", "write to this file instead of standard output")
	return c
}

func recordShowCommand(_ *globalOptions) *cobra.Command {
	var n int
	var color string
	c := &cobra.Command{
		Use:   "show FILE",
		Short: "Print a game of a record file: its moves and its final position",
		Long: `Print game --number of FILE (the first by default): the game, its players and
rules, its moves numbered by turn, and the final position drawn as show
draws it, with the result.`,
		Example: `  magneton record show games.pgn
  magneton record show --number 2 --color never games.sgf`,
		Args: exactArgs(1, 1, "one FILE"),
		RunE: func(c *cobra.Command, args []string) error {
			useColor, err := colorFlag(c, color)
			if err != nil {
				return err
			}
			path := args[0]
			entries, err := readRecordFile(path)
			if err != nil {
				return fmt.Errorf("record show: %s: %w", path, err)
			}
			if n < 1 || n > len(entries) {
				return usagef("record show: --number %d: %s holds %d game(s)", n, path, len(entries))
			}
			e := entries[n-1]
			if e.err != nil {
				return fmt.Errorf("record show: %s: %s: %w", path, e.where(), e.err)
			}
			showGame(c.OutOrStdout(), e, len(entries), useColor)
			return nil
		},
	}
	// Not --game, which names the game (Magneton or Tumbling Down)
	// everywhere else.
	c.Flags().IntVarP(&n, "number", "n", 1, "the game's number in the file, from 1")
	addColorFlag(c, &color)
	return c
}

// showGame prints a game of a file of total games.
func showGame(w io.Writer, e fileGame, total int, color bool) {
	g := e.t.Game
	rules := g.Rules()
	sp := rules.Spec()
	fmt.Fprintf(w, "%s, game %d of %d (%s), rules %s\n", sp.Title, e.n, total, e.format, rules.Settings())
	for i, name := range e.t.Players {
		if name != "" {
			fmt.Fprintf(w, "%s: %s\n", sp.SideNames[i], name)
		}
	}
	if !e.t.Date.IsZero() {
		fmt.Fprintf(w, "Date: %s\n", e.t.Date.Format("2006-01-02"))
	}
	if start := g.Start().String(); start != rules.Start().String() {
		fmt.Fprintf(w, "Start: %s\n", start)
	}
	states := g.States()
	var tokens []string
	for i, m := range g.Moves() {
		tok := m
		turn := (i+int(states[0].Side()))/2 + 1
		switch {
		case states[i].Side() == game.First:
			tok = fmt.Sprintf("%d. %s", turn, m)
		case i == 0:
			tok = fmt.Sprintf("%d... %s", turn, m)
		}
		tokens = append(tokens, tok)
	}
	if len(tokens) > 0 {
		fmt.Fprintln(w, record.Wrap(tokens, 78))
	} else {
		fmt.Fprintln(w, "(no moves)")
	}
	fmt.Fprint(w, g.Position().Diagram(color))
	res, ending := g.Result()
	if res.Over() {
		fmt.Fprintf(w, "Result: %s (%s) after %d moves\n", res, ending, len(g.Moves()))
	} else {
		fmt.Fprintf(w, "Result: %s (unfinished) after %d moves\n", res, len(g.Moves()))
	}
}

// maxRecordFile is the largest record file the record commands read.
const maxRecordFile = 256 << 20

// fileGame is one game of a record file: its number from 1, the line it
// starts on, its format, and the game read and replayed, or what is wrong
// with it.
type fileGame struct {
	n, line int
	format  string
	rec     *record.Record // the PGN-like record as read; nil for another format
	t       game.Transcript
	err     error
}

// where names the game in a message: "game 2 (line 14)".
func (e fileGame) where() string {
	if e.line > 0 {
		return fmt.Sprintf("game %d (line %d)", e.n, e.line)
	}
	return fmt.Sprintf("game %d", e.n)
}

// convert writes the game in the named format, one of its game's.
func (e fileGame) convert(to string) (string, error) {
	sp := e.t.Game.Rules().Spec()
	f, err := record.FormatOf(sp, to)
	if err != nil {
		if _, known := knownFormats()[to]; known {
			return "", fmt.Errorf("%s has no %s record format (%w)", sp.Title, strings.ToUpper(to), err)
		}
		return "", usageError{err}
	}
	if f.Name == record.PGN.Name && e.rec != nil {
		return e.rec.Format(), nil // as read, with every tag and comment
	}
	return f.Write(e.t)
}

// knownFormats lists the record formats of every game, by name.
func knownFormats() map[string]bool {
	known := map[string]bool{}
	for _, gm := range games.All() {
		for _, f := range record.Formats(gm.Spec) {
			known[f.Name] = true
		}
	}
	return known
}

// readRecordFile reads every game of a record file.
func readRecordFile(path string) ([]fileGame, error) {
	st, err := os.Stat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("cannot read it: %w", pe.Err)
		}
		return nil, err
	}
	if st.IsDir() {
		return nil, errors.New("is a directory, not a record file")
	}
	if st.Size() > maxRecordFile {
		return nil, fmt.Errorf("%d bytes, more than the %d MiB a record file may hold", st.Size(), maxRecordFile>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return readRecords(string(data), recordFormatOf(path, string(data))), nil
}

// recordFormatOf tells a file's format by its extension, or else by its
// first character: "(" for SGF, anything else the PGN-like record.
func recordFormatOf(path, text string) string {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	if ext != "" && knownFormats()[ext] {
		return ext
	}
	if strings.HasPrefix(strings.TrimSpace(text), "(") {
		return "sgf"
	}
	return record.PGN.Name
}

// readRecords reads every game of text in the named format.
func readRecords(text, format string) []fileGame {
	if format == record.PGN.Name {
		var out []fileGame
		for _, e := range record.ParseEach(text) {
			fg := fileGame{n: e.N, line: e.Line, format: format, rec: e.Record, err: e.Err}
			if e.Err == nil {
				fg.t, fg.err = e.Record.Transcript()
			}
			out = append(out, fg)
		}
		return out
	}
	var out []fileGame
	for i, tree := range splitSGF(text) {
		fg := fileGame{n: i + 1, line: tree.line, format: format, err: tree.err}
		if fg.err == nil {
			fg.t, fg.err = readOther(format, tree.text)
			// The SGF reader counts the tree's lines; the file's are
			// these.
			var se *tumbling.SGFError
			if errors.As(fg.err, &se) {
				se.Line += tree.line - 1
			}
		}
		out = append(out, fg)
	}
	return out
}

// readOther reads one game in a format other than the PGN-like record:
// with the format of that name of whichever game has one and reads it.
func readOther(format, text string) (game.Transcript, error) {
	var errs []string
	var last error
	for _, gm := range games.All() {
		for _, f := range record.Formats(gm.Spec) {
			if f.Name != format || f.Name == record.PGN.Name {
				continue
			}
			t, err := f.Read(text)
			if err == nil {
				return t, nil
			}
			errs, last = append(errs, err.Error()), err
		}
	}
	switch len(errs) {
	case 0:
		return game.Transcript{}, fmt.Errorf("no game has %s records", format)
	case 1:
		return game.Transcript{}, last
	}
	return game.Transcript{}, errors.New(strings.Join(errs, "; "))
}

// sgfTree is one game tree of an SGF collection: its text, from its "("
// to its ")", and the line it starts on; err when it is not a whole tree.
type sgfTree struct {
	text string
	line int
	err  error
}

// splitSGF splits an SGF collection into its game trees: the text from
// each "(" at the top level to the ")" that closes it, skipping property
// values (in brackets, where "\" escapes the next character). Text
// between the trees that is not white space is an error of its own, and
// so is a tree the text ends in.
func splitSGF(text string) []sgfTree {
	var trees []sgfTree
	line := 1
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\n':
			line++
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c != '(':
			// Junk between trees: up to the next "(" or the end.
			j := i
			for j < len(text) && text[j] != '(' {
				j++
			}
			trees = append(trees, sgfTree{line: line, err: fmt.Errorf("line %d: %s is not an SGF game tree (which starts with \"(\")", line, clip(strings.TrimSpace(text[i:j])))})
			line += strings.Count(text[i:j], "\n")
			i = j
			continue
		}
		start, startLine := i, line
		depth, inValue := 0, false
		for ; i < len(text); i++ {
			switch ch := text[i]; {
			case ch == '\n':
				line++
			case inValue && ch == '\\':
				if i+1 < len(text) && text[i+1] == '\n' {
					line++
				}
				i++
			case inValue:
				inValue = ch != ']'
			case ch == '[':
				inValue = true
			case ch == '(':
				depth++
			case ch == ')':
				depth--
			}
			if depth == 0 {
				break
			}
		}
		if depth > 0 || i >= len(text) {
			trees = append(trees, sgfTree{line: startLine, err: fmt.Errorf("line %d: the game tree is not closed: the file ends inside it (missing ')' or ']')", startLine)})
			break
		}
		i++
		trees = append(trees, sgfTree{text: text[start:i], line: startLine})
	}
	return trees
}

// plural writes a count of things: "1 game", "3 games".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
