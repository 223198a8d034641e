// Package smtptest is an SMTP server in the test's process
// (github.com/emersion/go-smtp) that keeps the mails it receives, in
// order, for the tests of the mails the play server sends: optionally
// with STARTTLS (a certificate made for 127.0.0.1, trusted by RootCAs)
// and with a user name and password to log in with.
package smtptest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"log"
	"math/big"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Mail is one message received: its envelope and its text.
type Mail struct {
	From string
	To   []string
	Data []byte
	// TLS says that it came over TLS; User whom the sender logged in as.
	TLS  bool
	User string
}

// Header returns a header of the mail, decoded ("" if missing).
func (m Mail) Header(key string) string {
	msg, err := mail.ReadMessage(strings.NewReader(string(m.Data)))
	if err != nil {
		return ""
	}
	v := msg.Header.Get(key)
	if d, err := new(mime.WordDecoder).DecodeHeader(v); err == nil {
		return d
	}
	return v
}

// Body returns the mail's text, its quoted-printable encoding undone.
func (m Mail) Body() string {
	msg, err := mail.ReadMessage(strings.NewReader(string(m.Data)))
	if err != nil {
		return ""
	}
	var r io.Reader = msg.Body
	if strings.EqualFold(msg.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		r = quotedprintable.NewReader(r)
	}
	b, _ := io.ReadAll(r)
	return string(b)
}

// Link returns the first address in the mail's text that starts with
// prefix, "" if none.
func (m Mail) Link(prefix string) string {
	return regexp.MustCompile(regexp.QuoteMeta(prefix) + `\S*`).FindString(m.Body())
}

// Options are the server's: TLS offers STARTTLS; with a User, a sender
// must log in (AUTH PLAIN) with User and Password.
type Options struct {
	TLS            bool
	User, Password string
}

// Server is a running SMTP server.
type Server struct {
	Addr string // host:port
	// RootCAs trusts the server's certificate (with Options.TLS).
	RootCAs *x509.CertPool
	mails   chan Mail
	opts    Options
}

// Start starts a server on 127.0.0.1 and a free port, stopped at the end
// of the test.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	s := &Server{mails: make(chan Mail, 100), opts: o}
	be := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		_, tlsOn := c.TLSConnectionState()
		return &session{s: s, tls: tlsOn}, nil
	}))
	be.Domain = "localhost"
	be.AllowInsecureAuth = !o.TLS
	be.ReadTimeout, be.WriteTimeout = 10*time.Second, 10*time.Second
	be.ErrorLog = log.New(io.Discard, "", 0)
	if o.TLS {
		cert, pool := certificate(t)
		be.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
		s.RootCAs = pool
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Addr = ln.Addr().String()
	go be.Serve(ln)
	t.Cleanup(func() { be.Close() })
	return s
}

// Next returns the next mail received, failing the test when none
// arrives within timeout.
func (s *Server) Next(t testing.TB, timeout time.Duration) Mail {
	t.Helper()
	select {
	case m := <-s.mails:
		return m
	case <-time.After(timeout):
		t.Fatalf("no mail arrived at %s within %v", s.Addr, timeout)
		return Mail{}
	}
}

// session is one connection's SMTP session.
type session struct {
	s        *Server
	tls      bool
	user     string
	from     string
	to       []string
	loggedIn bool
}

func (ss *session) AuthMechanisms() []string {
	if ss.s.opts.User == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (ss *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, password string) error {
		if user != ss.s.opts.User || password != ss.s.opts.Password {
			return errors.New("wrong user name or password")
		}
		ss.user, ss.loggedIn = user, true
		return nil
	}), nil
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	if ss.s.opts.User != "" && !ss.loggedIn {
		return smtp.ErrAuthRequired
	}
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	ss.s.mails <- Mail{From: ss.from, To: ss.to, Data: b, TLS: ss.tls, User: ss.user}
	return nil
}

func (ss *session) Reset()        { ss.from, ss.to = "", nil }
func (ss *session) Logout() error { return nil }

// certificate makes a self-signed certificate for 127.0.0.1 and the pool
// that trusts it.
func certificate(t testing.TB) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "smtptest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		IsCA: true, BasicConstraintsValid: true,
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}
