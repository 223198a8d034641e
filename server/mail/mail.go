// Package mail sends the play server's e-mail (the links that set a new
// password) through an SMTP server: over TLS when the server offers
// STARTTLS (or from the start, on port 465), logging in with PLAIN when
// a user name is set, which net/smtp does only over TLS or to the local
// machine, so that a password never crosses the network in the clear.
// The text goes as UTF-8, quoted-printable.
package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"strings"
	"time"

	"github.com/magneton-games/magneton/server/ids"
)

// Message is one mail: its recipient's address, subject and text.
type Message struct {
	To, Subject, Body string
}

// Sender sends mail.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// Config is an SMTP server to send through.
type Config struct {
	// Addr is the server, host:port (port 465 speaks TLS from the start;
	// any other port STARTTLS when the server offers it).
	Addr string
	// From is the sender, an address with or without a name
	// ("Magneton <noreply@example.org>").
	From string
	// User and Password log in ("" for a server that takes the site's
	// mail without).
	User, Password string
	// TLS checks the server's certificate; nil: the system's roots, for
	// Addr's host.
	TLS *tls.Config
	// Timeout bounds the whole of one mail's sending; 0 means 30 s.
	Timeout time.Duration
}

// SMTP sends mail through an SMTP server.
type SMTP struct {
	cfg  Config
	host string
	from *mail.Address
}

// New checks the configuration and makes a sender.
func New(cfg Config) (*SMTP, error) {
	host, port, err := net.SplitHostPort(cfg.Addr)
	if err != nil || host == "" || port == "" {
		return nil, fmt.Errorf("mail: the SMTP server %q: want host:port", cfg.Addr)
	}
	from, err := mail.ParseAddress(cfg.From)
	if err != nil {
		return nil, fmt.Errorf("mail: the sender %q: %v", cfg.From, err)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.TLS == nil {
		cfg.TLS = &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	}
	return &SMTP{cfg: cfg, host: host, from: from}, nil
}

// CheckAddress says what is wrong with an e-mail address, or nil: a bare
// address (no name, no angle brackets), at most 254 bytes, with a local
// part and a domain, nothing that is a space or a control character.
func CheckAddress(addr string) error {
	switch {
	case len(addr) > 254:
		return errors.New("longer than 254 characters")
	case strings.ContainsFunc(addr, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		return errors.New("a space or a control character")
	}
	a, err := mail.ParseAddress(addr)
	if err != nil || a.Address != addr || a.Name != "" {
		return errors.New("not an address such as name@example.org")
	}
	local, domain, _ := strings.Cut(addr, "@")
	if local == "" || domain == "" || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return errors.New("not an address such as name@example.org")
	}
	return nil
}

// Send sends one mail.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	if err := CheckAddress(m.To); err != nil {
		return fmt.Errorf("mail to %q: %v", m.To, err)
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	conn, err := s.dial(ctx)
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	defer conn.Close()
	deadline, _ := ctx.Deadline()
	conn.SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	if err := s.talk(conn, m); err != nil {
		return fmt.Errorf("mail via %s: %w", s.cfg.Addr, err)
	}
	return nil
}

// dial connects to the server: over TLS from the start on port 465.
func (s *SMTP) dial(ctx context.Context) (net.Conn, error) {
	if strings.HasSuffix(s.cfg.Addr, ":465") {
		d := &tls.Dialer{Config: s.cfg.TLS}
		return d.DialContext(ctx, "tcp", s.cfg.Addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, "tcp", s.cfg.Addr)
}

// talk speaks SMTP on conn: hello, STARTTLS when offered, the login, the
// mail.
func (s *SMTP) talk(conn net.Conn, m Message) error {
	c, err := smtp.NewClient(conn, s.host)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello(helloName(s.from.Address)); err != nil {
		return err
	}
	if _, isTLS := conn.(*tls.Conn); !isTLS {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(s.cfg.TLS); err != nil {
				return err
			}
		}
	}
	if s.cfg.User != "" {
		if ok, _ := c.Extension("AUTH"); !ok {
			return errors.New("the server offers no AUTH to log in with")
		}
		if err := c.Auth(smtp.PlainAuth("", s.cfg.User, s.cfg.Password, s.host)); err != nil {
			return err
		}
	}
	if err := c.Mail(s.from.Address); err != nil {
		return err
	}
	if err := c.Rcpt(m.To); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(s.compose(m, time.Now())); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

// helloName is the name the client greets with: the sender's domain.
func helloName(from string) string {
	if _, domain, ok := strings.Cut(from, "@"); ok && domain != "" {
		return domain
	}
	return "localhost"
}

// compose writes a mail's headers and its text, UTF-8 in quoted-printable.
func (s *SMTP) compose(m Message, now time.Time) []byte {
	var b strings.Builder
	header := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	header("From", s.from.String())
	header("To", m.To)
	header("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	header("Date", now.Format(time.RFC1123Z))
	header("Message-ID", "<"+ids.Token()+"@"+helloName(s.from.Address)+">")
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	header("Auto-Submitted", "auto-generated")
	b.WriteString("\r\n")
	w := quotedprintable.NewWriter(&b)
	w.Write([]byte(strings.ReplaceAll(strings.ReplaceAll(m.Body, "\r\n", "\n"), "\n", "\r\n")))
	w.Close()
	return []byte(b.String())
}
