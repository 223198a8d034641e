package accounts

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/magneton-games/magneton/store"
)

// resetQueue bounds the requests for mail waiting for the mailer; more
// are dropped (and answered as the others: the answer says nothing).
const resetQueue = 64

// maxPerAddress bounds the accounts one request by e-mail address mails.
const maxPerAddress = 5

// resetRequest is one request for a mail: the name or address given, and
// the language of the page that asked.
type resetRequest struct {
	who, lang string
}

// resetMailer mails the links that set a password, from a goroutine of
// its own, one request at a time: a request is answered at once, the
// same whether an account matches or not, and the accounts are looked up
// afterwards, so that neither the answer nor its time tells which exist.
type resetMailer struct {
	cfg    Config
	queue  chan resetRequest
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// newResetMailer starts the mailer of cfg.Mail.
func newResetMailer(cfg Config) *resetMailer {
	m := &resetMailer{cfg: cfg, queue: make(chan resetRequest, resetQueue)}
	m.ctx, m.cancel = context.WithCancel(context.Background())
	m.wg.Add(1)
	go m.run()
	return m
}

// ask queues a request; false when the queue is full (it is dropped).
func (m *resetMailer) ask(req resetRequest) bool {
	select {
	case m.queue <- req:
		return true
	default:
		return false
	}
}

// close stops the mailer, waiting within ctx for the mail it sends.
func (m *resetMailer) close(ctx context.Context) {
	m.cancel()
	done := make(chan struct{})
	go func() { m.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// run answers the requests for mail, one at a time, until close.
func (m *resetMailer) run() {
	defer m.wg.Done()
	for {
		select {
		case <-m.ctx.Done():
			return
		case req := <-m.queue:
			m.mailResets(req)
		}
	}
}

// mailResets mails a link to each account a request names that has an
// e-mail address, within each account's limit.
func (m *resetMailer) mailResets(req resetRequest) {
	ctx, cancel := context.WithTimeout(m.ctx, time.Minute)
	defer cancel()
	users, err := m.resetAccounts(ctx, req.who)
	if err != nil {
		m.cfg.Logger.Warn("password mail: accounts not read", "err", err)
		return
	}
	for _, u := range users {
		if u.Email == "" {
			continue
		}
		if !m.cfg.Clients.AllowAccountReset(u.ID) {
			m.cfg.Logger.Info("password mail held back: too many for the account", "user", u.Name)
			continue
		}
		token, err := IssueReset(ctx, m.cfg.Store, u.ID, MailLinkLife, store.ResetByMail)
		if err != nil {
			m.cfg.Logger.Warn("password mail: link not made", "user", u.Name, "err", err)
			continue
		}
		msg := resetMail(req.lang, u, m.cfg.SiteURL, ResetLink(m.cfg.SiteURL, token))
		if err := m.cfg.Mail.Send(ctx, msg); err != nil {
			m.cfg.Logger.Warn("password mail not sent", "user", u.Name, "err", err)
			continue
		}
		m.cfg.Logger.Info("password mail sent", "user", u.Name)
	}
}

// resetAccounts are the accounts a request names: the one of that name,
// or those of that e-mail address (which holds an @, as no name does).
func (m *resetMailer) resetAccounts(ctx context.Context, who string) ([]*store.User, error) {
	if strings.Contains(who, "@") {
		return m.cfg.Store.UsersByEmail(ctx, who, maxPerAddress)
	}
	u, err := m.cfg.Store.UserByName(ctx, who)
	if errors.Is(err, store.ErrNoUser) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return []*store.User{u}, nil
}
