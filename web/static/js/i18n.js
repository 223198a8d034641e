// The front end's languages: English, Spanish, Italian and Esperanto. Every
// text a page shows is a key of the catalogues in js/i18n/<lang>.js, said
// with t("key", {vars}); a game's own texts (its rules and lessons) come
// from its module under js/games/ through addTexts. The language is the one
// chosen with the header's switch (kept in localStorage and in the lang
// cookie, so that the server names it in the page it sends), or else the
// browser's first language the site speaks, or English. web_test.go checks
// that every key is in every language.
//
// A fifth language, the pseudo-locale xx, is for the tests only (asked for
// with ?lang=xx or localStorage's lang, never offered by the switch):
// every English text accented and bracketed, ⟦Ŵĥîţé⟧, so that a page
// showing words that did not go through t() shows them plain.

import en from './i18n/en.js';
import es from './i18n/es.js';
import it from './i18n/it.js';
import eo from './i18n/eo.js';

/** The languages, each [code, its own name]. */
export const LANGS = [['en', 'English'], ['es', 'Español'], ['it', 'Italiano'], ['eo', 'Esperanto']];

const catalogues = { en: { ...en }, es: { ...es }, it: { ...it }, eo: { ...eo } };
const listeners = new Set();
/** Keys asked for that no catalogue has (the browser tests read it). */
export const missing = new Set();
window.i18nMissing = missing;

function stored() {
  try {
    return localStorage.getItem('lang');
  } catch (e) {
    return null;
  }
}

/** The language the browser asks for, if the site speaks it. */
function fromBrowser() {
  for (const l of navigator.languages || [navigator.language || '']) {
    const code = String(l).toLowerCase().split('-')[0];
    if (catalogues[code]) return code;
  }
  return 'en';
}

/** The pseudo-locale's code (see above). */
export const PSEUDO = 'xx';

const ACCENTED = Object.fromEntries([...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ']
  .map((c, i) => [c, [...'àƀçđéƒĝĥîĵķĺɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'][i]]));

/**
 * A text of the pseudo-locale: its letters accented, each run between its
 * {placeholders} bracketed, the placeholders kept outside the brackets (so
 * that a value put there, a server's English say, shows plain).
 */
export function pseudo(s) {
  return s.split(/(\{\w+\})/).map((part, i) => (i % 2 || !part ? part : '⟦' + part.replace(/[a-zA-Z]/g, (c) => ACCENTED[c]) + '⟧')).join('');
}

function asked() {
  try {
    const q = new URLSearchParams(location.search).get('lang');
    if (q === PSEUDO) localStorage.setItem('lang', PSEUDO);
  } catch (e) {
    // no storage: the query alone says it
  }
  return new URLSearchParams(location.search).get('lang') || stored();
}

const wanted = asked();
let lang = catalogues[wanted] || wanted === PSEUDO ? wanted : fromBrowser();
document.documentElement.lang = lang === PSEUDO ? 'en' : lang;
keepCookie(lang);

/** Keeps the language in a cookie, which the server reads for the page's lang and title. */
function keepCookie(code) {
  if (code === PSEUDO) return;
  document.cookie = `lang=${code}; path=/; max-age=31536000; SameSite=Lax`;
}

/**
 * A date or time that Intl wrote in the language in use; in the
 * pseudo-locale (whose Intl is English) marked like its texts, so that
 * the test tells it from a text that missed the catalogues.
 */
export function dated(s) {
  return lang === PSEUDO ? pseudo(s) : s;
}

/** The locale for Intl: the language in use (English for the pseudo-locale). */
export function locale() {
  return lang === PSEUDO ? 'en' : lang;
}

/** The language in use: 'en', 'es', 'it' or 'eo'. */
export function getLang() {
  return lang;
}

/** Chooses a language, keeps it and tells the listeners (the views redraw). */
export function setLang(code) {
  if (!catalogues[code] || code === lang) return;
  lang = code;
  try {
    localStorage.setItem('lang', code);
  } catch (e) {
    // kept for this page only
  }
  document.documentElement.lang = code;
  keepCookie(code);
  for (const f of listeners) f(code);
}

/** Calls f(code) after each change of language. */
export function onLangChange(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** Adds texts, {en: {key: text}, es: {...}, ...}, to the catalogues (a game's lessons). */
export function addTexts(texts) {
  for (const [code, entries] of Object.entries(texts || {})) {
    if (catalogues[code]) Object.assign(catalogues[code], entries);
  }
}

/** Whether a key has a text. */
export function has(key) {
  return key in catalogues.en || (catalogues[lang] && key in catalogues[lang]);
}

const pseudoTexts = new Map();

/** A key's text before its placeholders are filled, or null. */
function raw(key) {
  if (lang === PSEUDO) {
    const en = catalogues.en[key];
    if (en == null) return null;
    if (!pseudoTexts.has(en)) pseudoTexts.set(en, pseudo(en));
    return pseudoTexts.get(en);
  }
  const s = catalogues[lang][key];
  return s == null ? catalogues.en[key] : s;
}

/**
 * The text of a key in the language in use, its {name} placeholders filled
 * from vars; the English text when the language lacks it, and the key
 * itself (noted in missing) when no catalogue has it.
 */
export function t(key, vars) {
  let s = raw(key);
  if (s == null) {
    missing.add(key);
    console.warn(`no text for "${key}"`);
    return key;
  }
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (vars[k] != null ? String(vars[k]) : m));
  return s;
}

/**
 * A refusal of the server in the language in use: the catalogue's
 * err.<code> text with the server's values when the server named its
 * refusal and the catalogue knows the code, else the server's English
 * message.
 */
export function serverText(message, code, vars) {
  if (code && has(`err.${code}`)) return t(`err.${code}`, worded(vars || {}));
  return message;
}

/**
 * A refusal's values as its text shows them: a side in the language in
 * use, and the reason ({why}, the rules engine's English) in the
 * catalogue's words (why.<why_code>) when the server gave its code.
 */
function worded(vars) {
  const out = { ...vars };
  if (out.side) out.side = sideText(out.side);
  if (out.why_code && has(`why.${out.why_code}`)) out.why = t(`why.${out.why_code}`, out);
  return out;
}

/** A side's name as the server gives it ("White", "Red"), in the language in use. */
export function sideText(name) {
  return name && has(`side.${name}`) ? t(`side.${name}`) : name;
}

const pluralRules = new Map();

/** The plural category of n in the language in use: 'one', 'few', 'other'... */
function category(n) {
  const l = locale();
  if (!pluralRules.has(l)) pluralRules.set(l, new Intl.PluralRules(l));
  return pluralRules.get(l).select(Number(n));
}

/**
 * t for a count: the key's text for the plural category of n in the
 * language in use (Intl.PluralRules: ".one", ".other", and ".few" or
 * ".many" where a language has them), falling back to ".other"; n is
 * written with the language's digits and separators.
 */
export function tn(key, n, vars) {
  const k = `${key}.${category(n)}`;
  return t(has(k) ? k : `${key}.other`, { n: formatNumber(n), ...vars });
}

/** Items said as a list with key's {list} and {last}: "A, B and C". */
function list(key, items) {
  return items.length > 1 ? t(key, { list: items.slice(0, -1).join(', '), last: items[items.length - 1] }) : items.join('');
}

/** Examples ("d4", "d4-a1") said as alternatives: "d4 or d4-a1". */
export function orList(items) {
  return list('w.orList', items);
}

/** Names said together: "A, B and C". */
export function andList(items) {
  return list('doc.and', items);
}

/** A number as the language in use writes it: 1,234 or 1.234. */
export function formatNumber(n) {
  return typeof n === 'number' ? n.toLocaleString(locale()) : String(n);
}
