package main

// The certificate files of solve --out and solve --verify.

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/prove"
)

// writeCertificate writes cert to path, naming the sides by sp's letters.
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
			fmt.Fprintf(w, "verified: %s wins %s (%s) in %s or fewer; %d positions\n", sp.SideNames[v.Winner], cert.Position, rules.Settings(), movesWord(v.Moves), v.Nodes)
			return nil
		}
	}
	return fmt.Errorf("solve: --verify %s: %w", path, err)
}
