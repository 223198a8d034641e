package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/magneton-games/magneton/store"
)

// report is what the benchmark measured, written as Markdown.
type report struct {
	out     io.Writer
	db      string
	cores   int
	started time.Time
	// The load average before, at the start of the load and at its end.
	load0, load1, load2 string
	counts              store.ArchiveCounts
	sizes               []tableSize
	quiet, loaded       *samples
	indexQuiet          *indexTimes
	indexLoad           *indexTimes
	loadOut             string
}

// percentile is the q-quantile of d (sorted in place), nearest rank.
func percentile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	i := int(q*float64(len(d))+0.5) - 1
	return d[min(max(i, 0), len(d)-1)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

func (r *report) printf(format string, args ...any) { fmt.Fprintf(r.out, format, args...) }

// writeSizes writes the database's description and its tables' sizes.
func (r *report) writeSizes() {
	r.printf("database %s, %d cores, load average %s, %s\n\n", r.db, r.cores, r.load0, r.started.UTC().Format("2006-01-02 15:04 MST"))
	c := r.counts
	r.printf("archive: %d games, %d explorer rows, %d repertoire rows, %d position rows\n\n", c.Games, c.Moves, c.PlayerMoves, c.Positions)
	r.printf("| table | bytes | bytes a game |\n|---|---:|---:|\n")
	var archive int64
	for _, t := range r.sizes {
		if strings.HasPrefix(t.table, "archive_") {
			archive += t.bytes
		}
		r.printf("| %s | %d | %.0f |\n", t.table, t.bytes, float64(t.bytes)/float64(c.Games))
	}
	r.printf("| **the archive's tables** | **%d** | **%.0f** |\n\n", archive, float64(archive)/float64(c.Games))
}

// writePositions lists the positions asked about.
func (r *report) writePositions(ps []*position) {
	r.printf("| position | games from it | moves | seen at ply 10 in the sample |\n|---|---:|---:|---:|\n")
	for _, p := range ps {
		seen := ""
		if p.class != "start" {
			seen = fmt.Sprint(p.seen)
		}
		r.printf("| %s | %d | %d | %s |\n", p.label, p.games, p.moves, seen)
	}
	r.printf("\n")
}

// writeSamples writes the latencies of one phase.
func (r *report) writeSamples(title string, s *samples) {
	r.printf("%s:\n\n| path | position | queries | p50 | p99 | max | errors |\n|---|---|---:|---:|---:|---:|---:|\n", title)
	keys := make([]string, 0, len(s.d)+len(s.errors))
	for k := range s.d {
		keys = append(keys, k)
	}
	for k := range s.errors {
		if _, ok := s.d[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		d := s.d[k]
		path, class, _ := strings.Cut(k, " ")
		r.printf("| %s | %s | %d | %s | %s | %s | %d |\n", path, class, len(d), ms(percentile(d, 0.5)), ms(percentile(d, 0.99)), ms(percentile(d, 1)), s.errors[k])
	}
	r.printf("\n")
	for _, k := range keys {
		if err := s.first[k]; err != nil {
			r.printf("first error of %s: %v\n\n", k, err)
		}
	}
}

// writeRest writes everything measured after the sizes and positions.
func (r *report) writeRest() {
	r.writeSamples("the explorer, quiet", r.quiet)
	r.writeSamples(fmt.Sprintf("the explorer under load (load average %s at its start, %s at its end)", r.load1, r.load2), r.loaded)
	if r.indexQuiet != nil {
		t := r.indexQuiet
		r.printf("ending a game (UpdateGame of its last row):\n\n| phase | writes | p50 | p99 | max |\n|---|---:|---:|---:|---:|\n")
		for _, row := range []struct {
			name string
			d    []time.Duration
		}{
			{"quiet, with the indexer", t.with},
			{"quiet, without", t.without},
			{"archive.Index alone", t.index},
			{"under load, with the indexer", r.indexLoad.with},
		} {
			r.printf("| %s | %d | %s | %s | %s |\n", row.name, len(row.d), ms(percentile(row.d, 0.5)), ms(percentile(row.d, 0.99)), ms(percentile(row.d, 1)))
		}
		r.printf("\n")
		r.printf("the store's merger, moving those games' rows into the big tables after their ends:\n\n| phase | games | transactions | time a game (mean) |\n|---|---:|---:|---:|\n")
		for _, row := range []struct {
			name string
			m    store.ArchiveMergeStats
		}{{"quiet", t.merge}, {"under load", r.indexLoad.merge}} {
			perGame := time.Duration(0)
			if row.m.Games > 0 {
				perGame = row.m.Time / time.Duration(row.m.Games)
			}
			r.printf("| %s | %d | %d | %s |\n", row.name, row.m.Games, row.m.Merges, ms(perGame))
		}
		r.printf("\n")
	}
	r.printf("the live games (tools/loadtest):\n\n```\n%s```\n", r.loadOut)
}
