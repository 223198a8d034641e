package main

// The certificate files of solve --out and solve --verify.

import (
	"fmt"
	"io"
	"os"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/prove"
)

// writeCertificate writes certs to path one after another (a draw's two),
// naming the sides by sp's letters.
func writeCertificate(path string, sp *game.Spec, certs ...*prove.Certificate) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("solve: --out: %w", err)
	}
	for _, c := range certs {
		if err == nil {
			err = c.Write(f, sp.SideLetters)
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("solve: writing the certificate %s: %w", path, err)
	}
	return nil
}

// readCertificates reads the certificates of a file and the rules each
// names.
func readCertificates(path string) ([]*prove.Certificate, []game.Rules, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return prove.ReadAll(f, func(name, settings string) (game.Rules, error) { return games.Rules(name, settings) })
}

// verifyCertificate checks the certificates in path and prints what they
// prove: a win, or that a side does not lose, or, from two of these for
// both sides of one position, a draw.
func verifyCertificate(w io.Writer, path string) error {
	certs, rules, err := readCertificates(path)
	if err != nil {
		return fmt.Errorf("solve: --verify %s: %w", path, err)
	}
	holds := [2]bool{}
	for i, cert := range certs {
		v, err := prove.Verify(cert, rules[i])
		if err != nil {
			return fmt.Errorf("solve: --verify %s: certificate %d: %w", path, i+1, err)
		}
		sp := rules[i].Spec()
		if v.Holds {
			fmt.Fprintf(w, "verified: %s does not lose %s (%s): %s cannot force a win; %d positions\n", sp.SideNames[v.Winner], cert.Position, rules[i].Settings(), sp.SideNames[v.Winner.Other()], v.Nodes)
			if i == 0 || cert.Position == certs[0].Position && rules[i].Settings().String() == rules[0].Settings().String() {
				holds[v.Winner] = true
			}
			continue
		}
		fmt.Fprintf(w, "verified: %s wins %s (%s) in %s or fewer; %d positions\n", sp.SideNames[v.Winner], cert.Position, rules[i].Settings(), movesWord(v.Moves), v.Nodes)
	}
	if holds[0] && holds[1] {
		fmt.Fprintf(w, "verified: %s (%s) is a draw: neither side can force a win\n", certs[0].Position, rules[0].Settings())
	}
	return nil
}

// readBooks adds the certificates of --book to the book of proven
// positions, each checked by the rules first.
func (g *globalOptions) readBooks() error {
	if len(g.books) == 0 {
		return nil
	}
	b, err := games.ProvenBook()
	if err != nil {
		return err
	}
	for _, path := range g.books {
		f, err := os.Open(path)
		if err != nil {
			return usagef("--book: %v", err)
		}
		err = b.Read(f, func(name, settings string) (game.Rules, error) { return games.Rules(name, settings) })
		f.Close()
		if err != nil {
			return fmt.Errorf("--book %s: %w", path, err)
		}
	}
	return nil
}
