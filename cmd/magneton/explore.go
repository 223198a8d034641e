package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/server/archive"
)

func init() {
	commands = append(commands, exploreCommand)
}

// exploreOptions are explore's flags.
type exploreOptions struct {
	server, token    string
	moves            []string
	sources, speeds  string
	rated, mine      bool
	minBand, maxBand int
	timeout          time.Duration
}

func exploreCommand(g *globalOptions) *cobra.Command {
	o := &exploreOptions{}
	c := &cobra.Command{
		Use:   "explore [POSITION] --server URL",
		Short: "Ask a play server's opening explorer which moves its games played from a position",
		Long: `Ask the opening explorer of a play server (magneton serve; GET /api/explorer,
docs/protocol.md) about POSITION ("start", the default, or a position text),
after --moves if given, and print a table of the moves its archived games
played from there: how many games, the first side's wins, the draws and the
second side's wins in percent, the games' average rating, and where the book
of proven positions knows the position after the move, its proven value. A
game and its mirror image count as one; the moves are written for
POSITION as given.

The filters select the games: --sources (site, boardspace, import), --rated,
--speeds (bullet, blitz, rapid, classical, correspondence, untimed), and
--min-band and --max-band (rating bands, multiples of 200). --mine reads the
repertoire of the account of --token (an API token, default
$MAGNETON_TOKEN) instead: its own moves and its opponents', the results from
its view.`,
		Example: `  magneton explore --server http://127.0.0.1:8080
  magneton explore --server http://127.0.0.1:8080 --moves "d4 e5"
  magneton --game tumbling explore start --server https://play.example.org --rated --speeds blitz,rapid --min-band 1600
  magneton explore "8/8/8/8/8/8/2W5/8 b 11 12" --server http://127.0.0.1:8080 --mine --token mgt_...`,
		Args: exactArgs(0, -1, "at most one POSITION"),
		RunE: func(c *cobra.Command, args []string) error { return o.run(c, g, args) },
	}
	f := c.Flags()
	f.StringVar(&o.server, "server", "", "the play server's address, such as http://127.0.0.1:8080")
	f.StringArrayVar(&o.moves, "moves", nil, "moves to play from POSITION first, separated by spaces or commas (repeatable)")
	f.StringVar(&o.sources, "sources", "", "only the games of these sources: site, boardspace, import (comma-separated)")
	f.BoolVar(&o.rated, "rated", false, "only rated games")
	f.StringVar(&o.speeds, "speeds", "", "only these time controls: bullet, blitz, rapid, classical, correspondence, untimed (comma-separated)")
	f.IntVar(&o.minBand, "min-band", 0, "the lowest rating band, a multiple of 200 (0: none)")
	f.IntVar(&o.maxBand, "max-band", 0, "the highest rating band, a multiple of 200 (0: none)")
	f.BoolVar(&o.mine, "mine", false, "the repertoire of the account of --token instead of every game")
	f.StringVar(&o.token, "token", "", "an API token of the account, for --mine (default $MAGNETON_TOKEN)")
	f.DurationVar(&o.timeout, "timeout", 20*time.Second, "how long to wait for the server's answer")
	return c
}

// query is the explorer's question for the flags and the position.
func (o *exploreOptions) query(rules game.Rules, position string) url.Values {
	q := url.Values{"game": {rules.Spec().Name}, "rules": {rules.Settings().String()}, "position": {position}}
	if moves := archive.ReadMoves(strings.Join(o.moves, " ")); len(moves) > 0 {
		q.Set("moves", strings.Join(moves, " "))
	}
	if o.mine {
		q.Set("mine", "1")
		return q
	}
	for name, v := range map[string]string{"sources": o.sources, "speeds": o.speeds} {
		if v != "" {
			q.Set(name, v)
		}
	}
	if o.rated {
		q.Set("rated", "1")
	}
	if o.minBand != 0 {
		q.Set("minBand", fmt.Sprint(o.minBand))
	}
	if o.maxBand != 0 {
		q.Set("maxBand", fmt.Sprint(o.maxBand))
	}
	return q
}

// run asks the server and prints its answer.
func (o *exploreOptions) run(c *cobra.Command, g *globalOptions, args []string) error {
	if !strings.HasPrefix(o.server, "http://") && !strings.HasPrefix(o.server, "https://") {
		return usagef("explore: --server %q: want the play server's address, such as http://127.0.0.1:8080", o.server)
	}
	if o.token == "" {
		o.token = os.Getenv("MAGNETON_TOKEN")
	}
	if o.mine && o.token == "" {
		return usagef("explore: --mine needs the account's API token: give --token or set MAGNETON_TOKEN")
	}
	if o.mine && (o.sources != "" || o.speeds != "" || o.rated || o.minBand != 0 || o.maxBand != 0) {
		return usagef("explore: --mine takes no other filter: an account's repertoire counts all its games")
	}
	if err := durationIn(c, "timeout", o.timeout); err != nil {
		return err
	}
	position := "start"
	_, rules, err := g.setup()
	if err != nil {
		return err
	}
	if len(args) > 0 {
		st, rest, err := positionArgs(rules, args)
		if err != nil {
			return fmt.Errorf("explore: position: %w", err)
		}
		if len(rest) > 0 {
			return usagef("explore: want at most one POSITION, and then %q (quote the position)", rest)
		}
		position = st.String()
	}
	ctx, cancel := context.WithTimeout(c.Context(), o.timeout)
	defer cancel()
	a, err := o.ask(ctx, o.query(rules, position))
	if err != nil {
		return err
	}
	return printExplorer(c.OutOrStdout(), rules.Spec(), a)
}

// ask sends the explorer's question and reads its answer, or the server's
// refusal as an error.
func (o *exploreOptions) ask(ctx context.Context, q url.Values) (*archive.Answer, error) {
	u := strings.TrimSuffix(o.server, "/") + "/api/explorer?" + q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("explore: %w", err)
	}
	if o.mine {
		req.Header.Set("Authorization", "Bearer "+o.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("explore: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return nil, fmt.Errorf("explore: %s: %w", o.server, err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(body, &e) != nil || e.Error == "" {
			e.Error = strings.TrimSpace(string(body))
		}
		return nil, fmt.Errorf("explore: the server answered %s: %s", resp.Status, e.Error)
	}
	var a archive.Answer
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, fmt.Errorf("explore: %s answered what is not the explorer's JSON: %w", o.server, err)
	}
	return &a, nil
}

// pct writes n of total in percent, with one decimal.
func pct(n, total int) string {
	if total == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(total))
}

// printExplorer prints an answer as a table: the position, then a line a
// move.
func printExplorer(w io.Writer, sp *game.Spec, a *archive.Answer) error {
	side := func(i int) string {
		if i >= 0 && i < len(sp.SideNames) {
			return sp.SideNames[i]
		}
		return fmt.Sprint("side ", i+1)
	}
	whose := "in the archive"
	if a.Mine {
		whose = "of yours"
	}
	fmt.Fprintf(w, "%s (%s), %s to move: %s\n", sp.Title, a.Rules, side(a.Turn), a.Position)
	if a.Result != "" {
		fmt.Fprintf(w, "the game is over in this position: %s (%s)\n", a.Result, a.Reason)
		return nil
	}
	if len(a.Moves) == 0 {
		fmt.Fprintf(w, "no game %s reached this position\n", whose)
		return nil
	}
	noun := "games"
	if a.Games == 1 {
		noun = "game"
	}
	fmt.Fprintf(w, "%d %s %s from this position\n", a.Games, noun, whose)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{"move", "games", "share", side(0), "draws", side(1), "rating", "proven"}
	if a.Mine {
		head = append(head[:len(head)-1], "whose", "proven")
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, m := range a.Moves {
		rating := "-"
		if m.Rating != nil {
			rating = fmt.Sprint(*m.Rating)
		}
		proven := "-"
		switch {
		case m.Proven != nil && m.Proven.Exact:
			proven = fmt.Sprintf("%s wins in %d", side(m.Proven.Winner), m.Proven.Moves)
		case m.Proven != nil:
			proven = fmt.Sprintf("%s wins in <= %d", side(m.Proven.Winner), m.Proven.Moves)
		case m.Result != "":
			proven = "ends the game " + m.Result
		}
		cols := []string{m.Move, fmt.Sprint(m.Games), pct(m.Games, a.Games), pct(m.White, m.Games), pct(m.Draws, m.Games), pct(m.Black, m.Games), rating}
		if a.Mine {
			mine := "theirs"
			if m.Mine != nil && *m.Mine {
				mine = "yours"
			}
			cols = append(cols, mine)
		}
		cols = append(cols, proven)
		fmt.Fprintln(tw, strings.Join(cols, "\t")+"\t")
	}
	fmt.Fprintln(tw, strings.Join([]string{"all", fmt.Sprint(a.Games), "", pct(a.White, a.Games), pct(a.Draws, a.Games), pct(a.Black, a.Games), ""}, "\t")+"\t")
	return tw.Flush()
}
