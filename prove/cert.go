package prove

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/magneton-games/magneton/game"
)

// Certificate is a proof that one side wins a position by force: a proof
// tree, stored as a graph whose nodes are positions, so that a position
// reached by several lines is proved once. At a node where the winner is
// to move it holds one move; where the loser is to move, every legal move.
// Each move leads to another node, or ends the game (Child -1) with the
// winner's win. docs/certificates.md describes its file format; Verify
// checks it with nothing but the rules.
//
// With Holds it proves less: that Winner does not lose (the opponent
// cannot force a win). Its moves are the same (one of Winner's, every
// reply), a move that ends the game ends it in anything but Winner's
// loss, and a line may come back to a position: the game then goes round
// the cycle until the repetition rule draws it, or for ever. Two of them,
// one for each side, prove a draw: a draw by repetition has no finite
// proof tree, but it has this finite graph.
type Certificate struct {
	Game     string        // the game's name, as its Spec has it
	Rules    game.Settings // every rule option
	Position string        // the root's position text
	Winner   game.Side     // the side that wins (that does not lose, with Holds)
	Holds    bool
	Nodes    []Node // Nodes[0] is the root
}

// Node is one position of a certificate: its moves, in the game's
// notation, and the node each leads to (-1: the move ends the game).
type Node struct {
	Moves    []string
	Children []int
}

// certMagic is the first line of a certificate file.
const certMagic = "magneton-proof v1"

// Write writes the certificate in its file format.
func (c *Certificate) Write(w io.Writer, sides [2]string) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s\n# %d positions; each line: a node, then its moves each with the node it leads to (* for the end of the game)\n", certMagic, len(c.Nodes))
	claim := "winner"
	if c.Holds {
		claim = "holds"
	}
	fmt.Fprintf(bw, "game %s\nrules %s\nposition %s\n%s %s\nnodes %d\n", c.Game, c.Rules, c.Position, claim, sides[c.Winner], len(c.Nodes))
	for i, n := range c.Nodes {
		bw.WriteString(strconv.Itoa(i))
		for j, m := range n.Moves {
			bw.WriteByte(' ')
			bw.WriteString(m)
			bw.WriteByte(' ')
			if n.Children[j] < 0 {
				bw.WriteByte('*')
			} else {
				bw.WriteString(strconv.Itoa(n.Children[j]))
			}
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// Header is the part of a certificate that names its game: what a
// reader needs to find the rules before it can read the rest.
type Header struct {
	Game, Rules, Position, Winner string
	Holds                         bool // a "holds" line instead of "winner"
	Nodes                         int
}

// ReadHeader reads a certificate's header lines from r, leaving r at its
// first node.
func ReadHeader(r *bufio.Reader) (Header, int, error) {
	var h Header
	line := 0
	want := []string{"game", "rules", "position", "winner", "nodes"}
	for len(want) > 0 {
		text, err := r.ReadString('\n')
		line++
		if err != nil && text == "" {
			return h, line, fmt.Errorf("line %d: the file ends before its %q line", line, want[0])
		}
		text = strings.TrimRight(text, "\r\n")
		if line == 1 {
			if text != certMagic {
				return h, line, fmt.Errorf("line 1: %q is not a proof certificate (want %q)", clipText(text), certMagic)
			}
			continue
		}
		if text == "" || text[0] == '#' {
			continue
		}
		key, val, _ := strings.Cut(text, " ")
		if key == "holds" && want[0] == "winner" {
			key, h.Holds = "winner", true
		}
		if key != want[0] {
			return h, line, fmt.Errorf("line %d: want the %q line, got %q", line, want[0], clipText(text))
		}
		switch key {
		case "game":
			h.Game = val
		case "rules":
			h.Rules = val
		case "position":
			h.Position = val
		case "winner":
			h.Winner = val
		case "nodes":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 || n > maxCertNodes {
				return h, line, fmt.Errorf("line %d: nodes %q: want a count from 1 to %d", line, clipText(val), maxCertNodes)
			}
			h.Nodes = n
		}
		want = want[1:]
	}
	return h, line, nil
}

// maxCertNodes bounds a certificate's size, against a file that would
// exhaust the memory of the reader.
const maxCertNodes = 50_000_000

// Read reads a certificate of rules (those its header names) after its
// header, which ReadHeader read, up to line: its nodes lines, up to the
// last, so that another certificate may follow in the same file.
func Read(r *bufio.Reader, h Header, line int, rules game.Rules) (*Certificate, error) {
	sp := rules.Spec()
	c := &Certificate{Game: sp.Name, Rules: rules.Settings(), Position: h.Position, Holds: h.Holds, Nodes: make([]Node, h.Nodes)}
	w := slices.Index(sp.SideLetters[:], h.Winner)
	if w < 0 {
		return nil, fmt.Errorf("winner %q: want %s or %s", clipText(h.Winner), sp.SideLetters[0], sp.SideLetters[1])
	}
	c.Winner = game.Side(w)
	seen := make([]bool, h.Nodes)
	for count := 0; count < h.Nodes; {
		text, err := r.ReadString('\n')
		if text == "" && err != nil {
			if !errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("line %d: %w", line+1, err)
			}
			break
		}
		line++
		f := strings.Fields(text)
		if len(f) == 0 || f[0][0] == '#' {
			continue
		}
		id, err := strconv.Atoi(f[0])
		if err != nil || id < 0 || id >= h.Nodes {
			return nil, fmt.Errorf("line %d: node %q: want a number from 0 to %d", line, clipText(f[0]), h.Nodes-1)
		}
		if seen[id] {
			return nil, fmt.Errorf("line %d: node %d is given twice", line, id)
		}
		seen[id] = true
		count++
		if len(f)%2 == 0 || len(f) == 1 {
			return nil, fmt.Errorf("line %d: node %d: want moves each followed by a node number or *", line, id)
		}
		n := &c.Nodes[id]
		for i := 1; i < len(f); i += 2 {
			child := -1
			if f[i+1] != "*" {
				child, err = strconv.Atoi(f[i+1])
				if err != nil || child < 0 || child >= h.Nodes {
					return nil, fmt.Errorf("line %d: node %d: move %s leads to %q: want a node number from 0 to %d or *", line, id, clipText(f[i]), clipText(f[i+1]), h.Nodes-1)
				}
			}
			n.Moves = append(n.Moves, f[i])
			n.Children = append(n.Children, child)
		}
	}
	if i := slices.Index(seen, false); i >= 0 {
		return nil, fmt.Errorf("node %d of %d is missing", i, h.Nodes)
	}
	return c, nil
}

func clipText(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// Verified is what a certificate proves.
type Verified struct {
	Winner game.Side
	Holds  bool // Winner does not lose; Moves is then 0
	// Moves is the most moves the winner needs on any line of the proof,
	// the last one winning: the proof's "win in N".
	Moves int
	Nodes int // positions in the proof
}

// Verify checks c using nothing but the rules: no search, no evaluation.
// From the root it plays every move of the proof and checks that each is
// legal, that the winner's nodes hold one move and the loser's every
// legal move, that a move marked as the end of the game ends it with the
// winner's win and others do not end it, that each node is always the
// same position and each position one node, and that no line comes back
// to a position (which would let the loser draw by repetition). Every
// node must be reached. The error says which node and move are wrong.
//
// A Holds certificate is checked the same way, except that a move marked
// as the end of the game must end it in anything but Winner's loss, and
// lines may come back to a position (a cycle, which the repetition rule
// draws or which goes on for ever, either way not a loss of Winner).
func Verify(c *Certificate, rules game.Rules) (Verified, error) {
	v, _, err := verify(c, rules)
	return v, err
}

// Placed is a node of a verified certificate on the board: its position
// and what the proof says of it.
type Placed struct {
	Position string // the position's text
	// Moves is the winner's moves to the end of the game on the proof's
	// longest line from this node, the last one winning (0 in a Holds
	// certificate).
	Moves int
}

// Walk checks c as Verify does and returns, for each of its nodes, where
// it stands: what a reader that plays by the proof (an opening book)
// needs to find a node from a position.
func Walk(c *Certificate, rules game.Rules) (Verified, []Placed, error) {
	v, vf, err := verify(c, rules)
	if err != nil {
		return v, nil, err
	}
	out := make([]Placed, len(c.Nodes))
	for i := range out {
		out[i] = Placed{Position: vf.pos[i], Moves: vf.depth[i]}
	}
	return v, out, nil
}

func verify(c *Certificate, rules game.Rules) (Verified, *verifier, error) {
	v := Verified{Winner: c.Winner, Holds: c.Holds, Nodes: len(c.Nodes)}
	if len(c.Nodes) == 0 {
		return v, nil, errors.New("the certificate has no nodes")
	}
	root, err := rules.ParsePosition(c.Position)
	if err != nil {
		return v, nil, fmt.Errorf("the root position: %w", err)
	}
	if r, _ := root.Outcome(); r.Over() {
		return v, nil, fmt.Errorf("the root position is over already (%s)", r)
	}
	n := len(c.Nodes)
	vf := &verifier{c: c, sp: rules.Spec(), pos: make([]string, n), state: make([]uint8, n), depth: make([]int, n), byPos: map[string]int{}}
	v.Moves, err = vf.visit(0, root)
	if err != nil {
		return v, nil, err
	}
	for i, s := range vf.state {
		if s != done {
			return v, nil, fmt.Errorf("node %d is never reached from the root", i)
		}
	}
	return v, vf, nil
}

// The states of a node during verification.
const (
	unseen = iota
	onLine // on the line being checked: reaching it again is a cycle
	done
)

type verifier struct {
	c     *Certificate
	sp    *game.Spec
	pos   []string // each node's position text, once reached
	state []uint8
	depth []int // the winner's moves to the end from each node checked
	byPos map[string]int
}

// visit checks node id, reached at position s, and returns the most moves
// the winner needs from there.
func (vf *verifier) visit(id int, s game.State) (int, error) {
	text := s.String()
	switch vf.state[id] {
	case done:
		if vf.pos[id] != text {
			return 0, fmt.Errorf("node %d is reached at two positions: %q and %q", id, vf.pos[id], text)
		}
		return vf.depth[id], nil
	case onLine:
		if !vf.c.Holds {
			return 0, fmt.Errorf("node %d (%s) comes back on a line of the proof: the loser could draw by repetition", id, text)
		}
		if vf.pos[id] != text {
			return 0, fmt.Errorf("node %d is reached at two positions: %q and %q", id, vf.pos[id], text)
		}
		return 0, nil // a cycle: a draw by repetition, or a game without end
	}
	if other, ok := vf.byPos[text]; ok {
		return 0, fmt.Errorf("nodes %d and %d are the same position %q", other, id, text)
	}
	vf.byPos[text], vf.pos[id], vf.state[id] = id, text, onLine
	n := vf.c.Nodes[id]
	who := vf.sp.SideNames[s.Side()]
	winner := s.Side() == vf.c.Winner
	if winner && len(n.Moves) != 1 {
		role := "the winner"
		if vf.c.Holds {
			role = "the side the certificate is for"
		}
		return 0, fmt.Errorf("node %d (%s): %s, %s, is to move: want one move, got %d", id, text, who, role, len(n.Moves))
	}
	if !winner {
		legal := s.Moves()
		for _, m := range legal {
			if !slices.Contains(n.Moves, m) {
				return 0, fmt.Errorf("node %d (%s): %s's reply %s is missing", id, text, who, m)
			}
		}
		if len(n.Moves) != len(legal) {
			return 0, fmt.Errorf("node %d (%s): %d moves given, %s has %d legal moves", id, text, len(n.Moves), who, len(legal))
		}
	}
	most := 0
	for i, m := range n.Moves {
		next, err := s.Play(m)
		if err != nil {
			return 0, fmt.Errorf("node %d (%s): move %s: %w", id, text, m, err)
		}
		r, _ := next.Outcome()
		child := n.Children[i]
		var d int
		switch {
		case child < 0 && vf.c.Holds && (!r.Over() || r == game.LossFor(vf.c.Winner)):
			return 0, fmt.Errorf("node %d (%s): move %s is marked as the end of the game, but the result after it is %s, a loss of %s or no end", id, text, m, r, vf.sp.SideNames[vf.c.Winner])
		case child < 0 && !vf.c.Holds && r != game.WinFor(vf.c.Winner):
			return 0, fmt.Errorf("node %d (%s): move %s is marked as the end of the game, but the result after it is %s, not a win of %s", id, text, m, r, vf.sp.SideNames[vf.c.Winner])
		case child < 0:
		case r.Over():
			return 0, fmt.Errorf("node %d (%s): move %s ends the game (%s) but leads to node %d", id, text, m, r, child)
		default:
			if d, err = vf.visit(child, next); err != nil {
				return 0, err
			}
		}
		most = max(most, d)
	}
	if winner && !vf.c.Holds {
		most++
	}
	vf.state[id], vf.depth[id] = done, most
	return most, nil
}

// ReadAll reads the certificates of a file, one after another (a draw's
// two), with the rules each names, which rulesFor builds from the game's
// name and the rules line (games.Rules does).
func ReadAll(r io.Reader, rulesFor func(name, settings string) (game.Rules, error)) ([]*Certificate, []game.Rules, error) {
	br := bufio.NewReader(r)
	var certs []*Certificate
	var rules []game.Rules
	for {
		c, rs, err := readOne(br, rulesFor)
		if err != nil {
			return nil, nil, fmt.Errorf("certificate %d: %w", len(certs)+1, err)
		}
		certs, rules = append(certs, c), append(rules, rs)
		if !more(br) {
			return certs, rules, nil
		}
	}
}

// more reports whether r holds more than blank lines and comments,
// dropping those.
func more(r *bufio.Reader) bool {
	for {
		b, err := r.Peek(1)
		if err != nil {
			return false
		}
		if b[0] != '#' && b[0] != '\n' && b[0] != '\r' {
			return true
		}
		if _, err := r.ReadString('\n'); err != nil {
			return false
		}
	}
}

func readOne(r *bufio.Reader, rulesFor func(name, settings string) (game.Rules, error)) (*Certificate, game.Rules, error) {
	h, line, err := ReadHeader(r)
	if err != nil {
		return nil, nil, err
	}
	rules, err := rulesFor(h.Game, h.Rules)
	if err != nil {
		return nil, nil, fmt.Errorf("the certificate's game: %w", err)
	}
	cert, err := Read(r, h, line, rules)
	return cert, rules, err
}
