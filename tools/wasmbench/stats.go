package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// rates are one round's figures of a side: perft leaves, playouts and
// search nodes a second (of Bench's own clock, as `magneton bench`
// prints them) and a CPU second (of the side's processes), and the
// search's depth.
type rates struct {
	Perft, Playouts, Search          float64
	PerftCPU, PlayoutsCPU, SearchCPU float64
	Depth                            int
}

// figures are the rates compared, in the order printed.
var figures = []struct {
	name string
	of   func(rates) float64
}{
	{"perft leaves/s", func(r rates) float64 { return r.Perft }},
	{"playouts/s", func(r rates) float64 { return r.Playouts }},
	{"search nodes/s", func(r rates) float64 { return r.Search }},
	{"perft leaves/CPU s", func(r rates) float64 { return r.PerftCPU }},
	{"playouts/CPU s", func(r rates) float64 { return r.PlayoutsCPU }},
	{"search nodes/CPU s", func(r rates) float64 { return r.SearchCPU }},
}

// native is the side that runs engine.Bench in this process.
const native = "native"

// results are the rates of each round, by game and side: "native", then
// each build of the engine in the browser.
type results struct {
	games, sides []string
	by           map[string]map[string][]rates
}

func newResults(games, sides []string) *results {
	r := &results{games: games, sides: sides, by: map[string]map[string][]rates{}}
	for _, g := range games {
		r.by[g] = map[string][]rates{}
	}
	return r
}

// add records a round's rates of a game on a side.
func (r *results) add(game, side string, x rates) {
	r.by[game][side] = append(r.by[game][side], x)
}

// ratios are a side's figure over the base side's (native, or the site's
// build for a variant), round by round: each pair ran one after the
// other, so the machine's drift between rounds cancels. A round missing
// on either side, or with a zero base figure, is left out.
func (r *results) ratios(game, side, base string, fig int) []float64 {
	var out []float64
	nat, br := r.by[game][base], r.by[game][side]
	for i := range min(len(nat), len(br)) {
		if n := figures[fig].of(nat[i]); n > 0 {
			out = append(out, figures[fig].of(br[i])/n)
		}
	}
	return out
}

// values are a side's figure over the rounds.
func (r *results) values(game, side string, fig int) []float64 {
	var out []float64
	for _, x := range r.by[game][side] {
		out = append(out, figures[fig].of(x))
	}
	return out
}

// summary is a sample's minimum, median and maximum.
type summary struct{ Min, Median, Max float64 }

// summarize summarizes xs; the median of an even count is the mean of
// the middle two.
func summarize(xs []float64) summary {
	if len(xs) == 0 {
		return summary{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return summary{Min: s[0], Median: m, Max: s[len(s)-1]}
}

// rate writes a rate shortly: 43.1 M, 612 K, 950.
func rate(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.2f M", v/1e6)
	case v >= 1e4:
		return fmt.Sprintf("%.0f K", v/1e3)
	case v >= 1e3:
		return fmt.Sprintf("%.1f K", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}

// print writes, for each game, each side's median rate (and range) and
// each browser side's ratio to native, minimum and median over the
// rounds; with rounds, each round's figures too.
func (r *results) print(w io.Writer, titles map[string]string, rounds bool) {
	for _, g := range r.games {
		n := len(r.by[g][native])
		fmt.Fprintf(w, "\n%s, %d rounds: each side's median rate (min–max); the ratios of each round's pairs, min and median\n", titles[g], n)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		head := append([]string{""}, r.sides...)
		for _, s := range r.sides[1:] {
			head = append(head, s+"/native min", "median")
		}
		for _, s := range r.sides[2:] {
			head = append(head, s+"/"+browserSide+" min", "median")
		}
		fmt.Fprintln(tw, strings.Join(head, "\t"))
		for i, f := range figures {
			if summarize(r.values(g, native, i)).Max == 0 {
				continue // not benched
			}
			row := []string{f.name}
			for _, s := range r.sides {
				v := summarize(r.values(g, s, i))
				row = append(row, fmt.Sprintf("%s (%s–%s)", rate(v.Median), rate(v.Min), rate(v.Max)))
			}
			for _, s := range r.sides[1:] {
				q := summarize(r.ratios(g, s, native, i))
				row = append(row, fmt.Sprintf("%.2f", q.Min), fmt.Sprintf("%.2f", q.Median))
			}
			for _, s := range r.sides[2:] {
				q := summarize(r.ratios(g, s, browserSide, i))
				row = append(row, fmt.Sprintf("%.2f", q.Min), fmt.Sprintf("%.2f", q.Median))
			}
			fmt.Fprintln(tw, strings.Join(row, "\t"))
		}
		depths := []string{"search depth"}
		for _, s := range r.sides {
			var d []string
			for _, x := range r.by[g][s] {
				d = append(d, fmt.Sprint(x.Depth))
			}
			depths = append(depths, strings.Join(d, ", "))
		}
		fmt.Fprintln(tw, strings.Join(depths, "\t"))
		tw.Flush()
		if rounds {
			r.printRounds(w, g)
		}
	}
}

// printRounds writes each round's rates of a game, side by side.
func (r *results) printRounds(w io.Writer, game string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i := range len(r.by[game][native]) {
		for _, s := range r.sides {
			x := r.by[game][s]
			if i >= len(x) {
				continue
			}
			fmt.Fprintf(tw, "  round %d\t%s\tperft %s\tplayouts %s\tsearch %s\tdepth %d\tper CPU s: perft %s\tplayouts %s\tsearch %s\n", i+1, s,
				rate(x[i].Perft), rate(x[i].Playouts), rate(x[i].Search), x[i].Depth, rate(x[i].PerftCPU), rate(x[i].PlayoutsCPU), rate(x[i].SearchCPU))
		}
	}
	tw.Flush()
}

// printLoads writes the load times of each kind (loadRows), min /
// median / max over the samples.
func printLoads(w io.Writer, loads map[string][]pageLoad) {
	fmt.Fprintf(w, "\nThe engine's load by /#/archive, ms from the navigation's start (a restart: from restart()), min / median / max of n;\nthe longest stall is from DOMContentLoaded to the engine ready (with no engine, for "+noEngineMS+" ms):\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\tn\tfirst paint\tDOMContentLoaded\tengine ready\tworker's own\tlongest stall\tengine fetched")
	col := func(ls []pageLoad, f func(pageLoad) float64) string {
		var xs []float64
		for _, l := range ls {
			xs = append(xs, f(l))
		}
		s := summarize(xs)
		return fmt.Sprintf("%.0f / %.0f / %.0f", s.Min, s.Median, s.Max)
	}
	for _, k := range loadRows {
		ls := loads[k]
		if len(ls) == 0 {
			continue
		}
		var req, bytes int64
		for _, l := range ls {
			req += l.Requests
			bytes += l.Bytes
		}
		fetched := fmt.Sprintf("%d requests, %d bytes", req, bytes)
		ready, own := col(ls, func(l pageLoad) float64 { return l.Ready }), col(ls, func(l pageLoad) float64 { return l.Worker })
		if strings.HasSuffix(k, "no engine") {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t-\t-\t%s\t%s\n", k, len(ls),
				col(ls, func(l pageLoad) float64 { return l.FCP }), col(ls, func(l pageLoad) float64 { return l.DCL }),
				col(ls, func(l pageLoad) float64 { return l.Stall }), fetched)
			continue
		}
		if strings.HasPrefix(k, "restart") {
			fmt.Fprintf(tw, "%s\t%d\t-\t-\t%s\t%s\t-\t%s\n", k, len(ls), ready, own, fetched)
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", k, len(ls),
			col(ls, func(l pageLoad) float64 { return l.FCP }), col(ls, func(l pageLoad) float64 { return l.DCL }),
			ready, own, col(ls, func(l pageLoad) float64 { return l.Stall }), fetched)
	}
	tw.Flush()
}
