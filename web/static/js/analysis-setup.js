// The analysis board's setup form: the game, its rules, and a position
// text or a record (with its variations) to start from, checked by the
// server; the position editor (analysis-editor.js) writes into it.

import { h } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { parseRecord, lineTree } from './analysis-record.js';
import { Editor } from './analysis-editor.js';

/**
 * The setup form of the analysis board page: page.chooseGame(name) loads a
 * game, page.start(position, tree) starts again from a position (with a
 * record's tree), page.rules are the rules in use. open: the form shown
 * open.
 */
export class SetupForm {
  constructor(page, open) {
    this.page = page;
    this.gameSel = h('select#an-game');
    this.rules = h('input#an-rules', { type: 'text', placeholder: 'standard', spellcheck: 'false' });
    this.text = h('textarea#an-pos', { rows: 3, spellcheck: 'false', 'aria-describedby': 'an-setup-error' });
    this.error = h('p.error#an-setup-error', { role: 'alert' });
    this.editor = new Editor(page, this.text);
    const form = h('form.an-setup', { onsubmit: (e) => this.submit(e) },
      h('div.field', h('label', { for: 'an-game' }, t('an.game')), this.gameSel),
      h('div.field', h('label', { for: 'an-rules' }, t('an.rules')), this.rules),
      h('div.field', h('label', { for: 'an-pos' }, t('an.positionOrRecord')), this.text),
      this.editor.node,
      this.error,
      h('div.form-buttons', h('button.btn.small.primary#an-setup-go', { type: 'submit' }, t('an.setUp')),
        h('button.btn.small', { type: 'button', onclick: () => this.editShown() }, t('an.editShown'))));
    this.node = h('details.an-setup-box', { open }, h('summary', t('an.setupTitle')), form);
  }

  /** The games of the meta to choose from; another game starts from its start. */
  games(meta) {
    for (const g of meta.games) this.gameSel.append(h('option', { value: g.name }, g.title));
    this.gameSel.onchange = async () => {
      this.editor.stop();
      if (!(await this.page.chooseGame(this.gameSel.value))) return;
      this.page.rules = this.rules.value.trim();
      this.page.board = null;
      await this.page.start('start');
    };
  }

  /** The position shown, in the text box to edit. */
  editShown() {
    this.text.value = this.page.cur ? this.page.cur.position : '';
    this.text.focus();
  }

  /** "Set up": a record (its tags and moves) or a position text. */
  async submit(e) {
    e.preventDefault();
    const page = this.page;
    this.editor.stop();
    page.rules = this.rules.value.trim();
    const text = this.text.value.trim();
    if (text.startsWith('(')) {
      await this.importSGF(text);
      return;
    }
    if (!(/^\s*\[/.test(text) || /\d\.\s/.test(text))) {
      await page.start(text || 'start');
      return;
    }
    let rec;
    try {
      rec = parseRecord(text);
    } catch (err) {
      this.error.textContent = t('an.recordUnreadable', { message: err.message });
      return;
    }
    if (rec.tags.Game && rec.tags.Game !== page.spec.name && !(await page.chooseGame(rec.tags.Game))) return;
    if (rec.tags.Rules != null) {
      page.rules = rec.tags.Rules === 'standard' ? '' : rec.tags.Rules;
      this.rules.value = page.rules;
    }
    await page.start(rec.tags.Position || 'start', rec.root);
  }

  /** An SGF record (as the game page writes it): read by the server (POST /api/import), its main line the tree. */
  async importSGF(text) {
    const page = this.page;
    let rec;
    try {
      rec = await api('POST', '/api/import', { text });
    } catch (err) {
      this.error.textContent = err.message;
      return;
    }
    if (rec.game !== page.spec.name && !(await page.chooseGame(rec.game))) return;
    page.rules = rec.rules;
    this.rules.value = rec.rules;
    await page.start(rec.position, lineTree(rec.moves));
  }
}
