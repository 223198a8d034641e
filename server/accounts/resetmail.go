package accounts

import (
	"net/url"
	"strings"

	"github.com/magneton-games/magneton/server/mail"
	"github.com/magneton-games/magneton/store"
)

// resetTexts are the mail with a link that sets a password, in each
// language of the front end (js/i18n.js's LANGS): its subject and text,
// with {name} (the account), {site} (the site's host) and {link}.
var resetTexts = map[string][2]string{
	"en": {"Set a new password on {site}", `Hello {name},

someone (you, we hope) asked for a link to set a new password for the
account {name} on {site}. It works once, within an hour:

{link}

If you did not ask for it, ignore this mail: your password stays as it is.
`},
	"es": {"Elige una contraseña nueva en {site}", `Hola, {name}:

alguien (esperamos que tú) ha pedido un enlace para elegir una contraseña
nueva para la cuenta {name} en {site}. Funciona una sola vez, durante una
hora:

{link}

Si no lo has pedido tú, ignora este mensaje: tu contraseña sigue siendo la
misma.
`},
	"it": {"Scegli una nuova password su {site}", `Ciao {name},

qualcuno (speriamo tu) ha chiesto un link per scegliere una nuova password
per l'account {name} su {site}. Funziona una sola volta, entro un'ora:

{link}

Se non l'hai chiesto tu, ignora questa mail: la tua password resta quella
di prima.
`},
	"eo": {"Elektu novan pasvorton ĉe {site}", `Saluton, {name}!

Iu (espereble vi) petis ligilon por elekti novan pasvorton por la konto
{name} ĉe {site}. Ĝi funkcias unufoje, dum unu horo:

{link}

Se ne vi petis ĝin, ignoru ĉi tiun mesaĝon: via pasvorto restas kia ĝi
estas.
`},
}

// resetMail is the mail to u with link, in lang (English for a language
// the site has not).
func resetMail(lang string, u *store.User, siteURL, link string) mail.Message {
	texts, ok := resetTexts[lang]
	if !ok {
		texts = resetTexts["en"]
	}
	site := siteURL
	if p, err := url.Parse(siteURL); err == nil && p.Host != "" {
		site = p.Host
	}
	fill := strings.NewReplacer("{name}", u.Name, "{site}", site, "{link}", link)
	return mail.Message{To: u.Email, Subject: fill.Replace(texts[0]), Body: fill.Replace(texts[1])}
}
