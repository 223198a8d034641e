// Package book is the engine's book of proven positions: every position
// of the proof certificates (package prove; the committed ones are
// docs/proofs), with what the proof says of it. In a position of the
// book the winner plays the proof's move and the loser the move whose
// proof is longest (the longest resistance), at once and without
// searching, and the analysis says "proven" with the proof's line.
//
// A certificate is checked by the rules (prove.Walk) as it is added, so
// the book holds nothing the rules have not confirmed. It imports the
// rules' interfaces, the prover's certificates and the AI's Proof, and no
// game: the caller says how to build a certificate's rules.
package book

import (
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/magneton-games/magneton/ai"
	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/prove"
)

// Book holds proven positions by game and rules. It is safe for use by
// several goroutines once filled: players share one.
type Book struct {
	mu     sync.RWMutex
	tables map[string]*table // by rulesKey
	count  int
}

// table is the book of one game under one set of rules.
type table struct {
	byPos map[posKey]int32 // a position to its node
	nodes []node
}

// posKey names a position by a 128-bit hash of its text: a third of
// the memory of the texts (the committed book takes 9 MB, not 29), and
// two positions that share one are not to be expected in the life of the
// universe.
type posKey [16]byte

func keyOf(position string) posKey {
	h := fnv.New128a()
	io.WriteString(h, position)
	var k posKey
	h.Sum(k[:0])
	return k
}

// node is a position of a proof.
type node struct {
	winner game.Side
	moves  int32 // the winner's moves to its win on the proof's longest line
	// move is the side to move's move: the proof's for the winner, the
	// longest resistance for the loser; next is the node it leads to
	// (-1: the move ends the game).
	move string
	next int32
}

// New returns an empty book.
func New() *Book {
	return &Book{tables: map[string]*table{}}
}

// rulesKey names a game's rules: its name and every option.
func rulesKey(r game.Rules) string {
	return r.Spec().Name + " " + r.Settings().String()
}

// Positions returns how many positions the book holds.
func (b *Book) Positions() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.count
}

// Read adds the certificates of a certificate file (the format of
// docs/certificates.md, one or several), after checking each by the
// rules; rulesFor builds a certificate's rules from its game's name and
// rules line (games.Rules does). A certificate that a side does not lose
// (a "holds" certificate) proves no win and is left out.
func (b *Book) Read(r io.Reader, rulesFor func(name, settings string) (game.Rules, error)) error {
	return b.read(r, rulesFor, true)
}

// ReadCommitted adds the certificates of a certificate file that the
// tests verified already (the committed ones, TestEmbeddedCertificates),
// without checking them again: the browser's engine reads the server's
// copy so, where a check would cost its player seconds.
func (b *Book) ReadCommitted(r io.Reader, rulesFor func(name, settings string) (game.Rules, error)) error {
	return b.read(r, rulesFor, false)
}

func (b *Book) read(r io.Reader, rulesFor func(name, settings string) (game.Rules, error), check bool) error {
	certs, rules, err := prove.ReadAll(r, rulesFor)
	if err != nil {
		return err
	}
	for i, c := range certs {
		if c.Holds {
			continue
		}
		var placed []prove.Placed
		if check {
			_, placed, err = prove.Walk(c, rules[i])
		} else {
			placed, err = place(c, rules[i])
		}
		if err != nil {
			return fmt.Errorf("certificate %d, of %s: %w", i+1, c.Position, err)
		}
		b.add(c, rules[i], placed)
	}
	return nil
}

// add puts the positions of c, where placed says they stand, in the
// book. A position already in the book from another proof keeps the
// shorter win.
func (b *Book) add(c *prove.Certificate, rules game.Rules, placed []prove.Placed) {
	b.mu.Lock()
	defer b.mu.Unlock()
	key := rulesKey(rules)
	t := b.tables[key]
	if t == nil {
		t = &table{byPos: map[posKey]int32{}}
		b.tables[key] = t
	}
	// Each node of the certificate becomes a node of the table, or is
	// the one already there when that proof is at least as short.
	index := make([]int32, len(placed))
	fresh := make([]bool, len(placed))
	for i, pl := range placed {
		k := keyOf(pl.Position)
		j, ok := t.byPos[k]
		if !ok || int(t.nodes[j].moves) > pl.Moves {
			if !ok {
				j = int32(len(t.nodes))
				t.nodes = append(t.nodes, node{})
				t.byPos[k] = j
				b.count++
			}
			t.nodes[j] = node{winner: c.Winner, moves: int32(pl.Moves)}
			fresh[i] = true
		}
		index[i] = j
	}
	for i, n := range c.Nodes {
		if !fresh[i] {
			continue
		}
		k := choose(c, placed, i)
		next := int32(-1)
		if n.Children[k] >= 0 {
			next = index[n.Children[k]]
		}
		nd := &t.nodes[index[i]]
		// A copy: the certificate's move is a slice of its whole line.
		nd.move, nd.next = strings.Clone(n.Moves[k]), next
	}
}

// choose picks the move of node i that the book plays: the winner's one,
// or the loser's whose proof is longest (a move that ends the game at
// once counts as none), the first of those in the moves' order.
func choose(c *prove.Certificate, placed []prove.Placed, i int) int {
	n := c.Nodes[i]
	if len(n.Moves) == 1 {
		return 0
	}
	best, most := 0, -1
	for k, child := range n.Children {
		d := 0
		if child >= 0 {
			d = placed[child].Moves
		}
		if d > most {
			best, most = k, d
		}
	}
	return best
}

// Lookup returns what the book proves about s, the position to move in a
// game whose earlier positions have the hashes hist, and whether it
// knows s. The proof's Move is the side to move's move (the proof's, or
// the longest resistance) and Line the proof's longest line from s.
//
// A proof holds in a game only if the repetition rule cannot draw it on
// the way. Its lines never come back to a position, so a position occurs
// on them at most once: the book answers only while no position of the
// game has occurred as often as one less than the rule's limit (under
// the usual third occurrence rule, while no position has occurred twice).
func (b *Book) Lookup(s game.State, hist []uint64) (ai.Proof, bool) {
	if limit := s.Rules().RepetitionLimit(); limit > 0 && mostOccurrences(hist)+1 >= limit {
		return ai.Proof{}, false
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	t := b.tables[rulesKey(s.Rules())]
	if t == nil {
		return ai.Proof{}, false
	}
	j, ok := t.byPos[keyOf(s.String())]
	if !ok {
		return ai.Proof{}, false
	}
	n := t.nodes[j]
	pf := ai.Proof{Result: game.WinFor(n.winner), Moves: int(n.moves), Move: n.move}
	for k := j; k >= 0 && len(pf.Line) < 2*int(n.moves)+1; k = t.nodes[k].next {
		pf.Line = append(pf.Line, t.nodes[k].move)
	}
	return pf, true
}

// mostOccurrences returns how often the most frequent hash of hist
// occurs in it.
func mostOccurrences(hist []uint64) int {
	h := slices.Clone(hist)
	slices.Sort(h)
	most, run := 0, 0
	for i := range h {
		if i > 0 && h[i] == h[i-1] {
			run++
		} else {
			run = 1
		}
		most = max(most, run)
	}
	return most
}
