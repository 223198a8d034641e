// The analysis board's import of record files into the game archive
// (POST /api/archive/import, docs/protocol.md): a logged-in player picks
// one or more files (SGF, Boardspace.net's included; the site's records;
// zip archives of them) and sends them; the answer says, file by
// file, how many games went in, which records were in the archive already
// (with the earlier game), and why a file was refused, where. The games
// join the explorer's counts as imported, never rated. Loading one record
// onto the board stays the setup form's (analysis-setup.js).

import { h } from './dom.js';
import { t, serverText } from './i18n.js';
import { APIError } from './api.js';
import { loggedIn, whenAccount, onAccountChange } from './account.js';

/** The most the files of one import may weigh together, as the server takes it (MaxUpload). */
export const MAX_UPLOAD_MIB = 4;

/** The import box: a details element (node) on the analysis board; stop() when the page goes. */
export class UploadBox {
  constructor() {
    this.input = h('input#im-files', { type: 'file', multiple: true, accept: '.sgf,.pgn,.txt,.zip', 'aria-describedby': 'im-help' });
    this.send = h('button.btn.small.primary#im-send', { type: 'submit' }, t('im.send'));
    this.hint = h('p.muted#im-guest');
    this.status = h('div.im-status#im-status', { role: 'status', 'aria-live': 'polite' });
    const form = h('form.im-form', { onsubmit: (e) => this.submit(e) },
      h('p.muted#im-help', t('im.help', { max: MAX_UPLOAD_MIB })),
      h('div.field', h('label', { for: 'im-files' }, t('im.files')), this.input),
      this.hint,
      h('div.form-buttons', this.send),
      this.status);
    this.node = h('details.an-import-box#im-box', h('summary', t('im.title')), form);
    this.stopAccount = onAccountChange(() => this.gate());
    this.gate();
    whenAccount().then(() => this.gate());
  }

  stop() {
    this.stopAccount();
  }

  /** A guest cannot import: the form says to log in, its controls off. */
  gate() {
    const guest = !loggedIn();
    this.input.disabled = guest;
    this.send.disabled = guest || this.busy;
    this.hint.textContent = guest ? t('im.guest') : '';
    this.hint.hidden = !guest;
  }

  async submit(e) {
    e.preventDefault();
    const files = [...this.input.files];
    this.status.replaceChildren();
    if (!files.length) {
      this.say(h('p.error', t('im.none')));
      this.input.focus();
      return;
    }
    const size = files.reduce((n, f) => n + f.size, 0);
    if (size > MAX_UPLOAD_MIB << 20) {
      this.say(h('p.error', t('err.upload_large', { max_mib: MAX_UPLOAD_MIB })));
      return;
    }
    const body = new FormData();
    for (const f of files) body.append('file', f, f.name);
    this.busy = true;
    this.gate();
    this.say(h('p', t('im.sending')));
    try {
      this.show(await upload(body));
      this.input.value = '';
    } catch (err) {
      this.say(h('p.error', err.message));
    } finally {
      this.busy = false;
      this.gate();
    }
  }

  say(...nodes) {
    this.status.replaceChildren(...nodes);
  }

  /** The answer: the totals, then each file's outcome. */
  show(a) {
    const items = a.files.map((f) => {
      if (f.refused) {
        return h('li.im-refused', t('im.refused', { file: f.file, place: placeText(f.refused), reason: f.refused.reason }));
      }
      const dups = f.duplicates.map((d) => h('li', t('im.dup', { place: placeText(d) }), ' ',
        h('a', { href: `/g/${encodeURIComponent(d.earlier)}` }, t('im.earlier'))));
      return h('li.im-done', t('im.file', { file: f.file, games: f.games, duplicates: f.duplicates.length }),
        dups.length ? h('ul', dups) : null);
    });
    this.say(h('p.im-summary', t('im.summary', { games: a.games, duplicates: a.duplicates, refused: a.refused })), h('ul.im-files', items));
  }
}

/** Where a record is, in words: the zip's member, the record's number and its line. */
function placeText(p) {
  const parts = [];
  if (p.member) parts.push(t('im.member', { member: p.member }));
  if (p.record) parts.push(t('im.record', { n: p.record }));
  if (p.line) parts.push(t('im.line', { n: p.line }));
  return parts.length ? parts.join(', ') : t('im.wholeFile');
}

/** Posts the files; throws APIError with the server's refusal in the page's language. */
async function upload(body) {
  let res;
  try {
    res = await fetch('/api/archive/import', { method: 'POST', body, credentials: 'same-origin' });
  } catch (e) {
    throw new APIError(t(navigator.onLine === false ? 'api.offline' : 'api.unreachable'), 0);
  }
  let data = null;
  try {
    data = await res.json();
  } catch (e) {
    data = null;
  }
  if (!res.ok) {
    const msg = (data && data.error) || res.statusText;
    throw new APIError(serverText(msg, (data && data.code) || '', data && data.vars), res.status, (data && data.code) || '');
  }
  return data;
}
