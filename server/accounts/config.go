package accounts

import (
	"context"
	"log/slog"
	"time"

	"github.com/magneton-games/magneton/server/identity"
	"github.com/magneton-games/magneton/server/limits"
	"github.com/magneton-games/magneton/server/mail"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// Store is the part of the store that keeps the accounts.
type Store interface {
	// CreateUser adds an account; store.ErrNameTaken when another has the
	// name in any case.
	CreateUser(ctx context.Context, u *store.User) error
	UserByName(ctx context.Context, name string) (*store.User, error)
	UsersByEmail(ctx context.Context, email string, limit int) ([]*store.User, error)
	SetPassword(ctx context.Context, userID, password string) error
	SetEmail(ctx context.Context, userID, email string) error
	ClaimGuestGames(ctx context.Context, guestHash string, u *store.User) (int, error)
	// PlayerGames tells whether an account has games unfinished, which
	// keep it from being deleted.
	PlayerGames(ctx context.Context, userID, guestHash string) ([]*store.Game, error)
	SessionStore
	ResetStore
	store.Privacy
}

// SessionStore is the part of the store that keeps the logins.
type SessionStore interface {
	CreateSession(ctx context.Context, tokenHash, userID, agent string, at int64) error
	DeleteSessions(ctx context.Context, userID, tokenHash string) error
	Sessions(ctx context.Context, userID string, createdAfter int64) ([]store.Session, error)
	EndSession(ctx context.Context, userID, id string) (bool, error)
	EndOtherSessions(ctx context.Context, userID, keepTokenHash string) (int, error)
}

// Games is where the games in memory learn of a guest's sign-up and of an
// account's deletion.
type Games interface {
	ClaimGuest(guestHash, userID, name string)
	ForgetUser(userID string)
}

// Config is what the accounts need.
type Config struct {
	Store      Store
	Identities *identity.Resolver
	Clients    *limits.Clients
	Proxies    limits.Proxies
	Games      Games
	// Mail sends the links that set a new password; nil: the site sends
	// no mail, and only an operator makes such links (IssueReset).
	Mail mail.Sender
	// SiteURL is the site's address as its players reach it
	// (https://play.example.org), which the mailed links start with;
	// never taken from a request, whose Host anyone may forge.
	SiteURL string
	// WriteTimeout bounds one database write.
	WriteTimeout time.Duration
	Logger       *slog.Logger
	// Moderation tells a banned or closed account it may not log in, and
	// the account its standing, and notes where accounts are seen (nil:
	// nobody is moderated).
	Moderation Moderation
}

// Moderation is what the accounts ask of the moderators' decisions
// (package moderation).
type Moderation interface {
	CheckPlay(ctx context.Context, userID string) error
	Told(ctx context.Context, userID string) (wire.Standing, error)
	Seen(ctx context.Context, userID, addr, browser string)
}

// ResetMaker is the part of the store that keeps a new link.
type ResetMaker interface {
	CreateReset(ctx context.Context, r store.Reset) error
}

// ResetStore is the part of the store that keeps the links and uses them.
type ResetStore interface {
	ResetMaker
	UseReset(ctx context.Context, tokenHash, password string, now int64) (*store.User, error)
}
