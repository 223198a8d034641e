package accounts

import (
	"context"
	"strings"
	"time"

	"github.com/magneton-games/magneton/server/ids"
	"github.com/magneton-games/magneton/store"
)

// How long a link that sets a password lasts: a mailed one an hour; an
// operator's (magneton admin reset-link) a day by default, since it
// travels by hand.
const (
	MailLinkLife  = time.Hour
	AdminLinkLife = 24 * time.Hour
)

// IssueReset makes a one-time link for the account userID, valid for
// life: it returns the link's token, whose hash only the store keeps.
func IssueReset(ctx context.Context, st ResetMaker, userID string, life time.Duration, via string) (string, error) {
	token := ids.Token()
	now := time.Now()
	err := st.CreateReset(ctx, store.Reset{TokenHash: ids.Hash(token), UserID: userID, Created: now.UnixMilli(), Expires: now.Add(life).UnixMilli(), Via: via})
	if err != nil {
		return "", err
	}
	return token, nil
}

// ResetLink is the page that sets a password with token, on the site at
// siteURL. The token is in the fragment, which browsers never send, so
// that it is in no server's or proxy's log.
func ResetLink(siteURL, token string) string {
	return strings.TrimSuffix(siteURL, "/") + "/reset#" + token
}
