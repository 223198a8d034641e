// The front end's languages: English, Spanish, Italian and Esperanto. Every
// text a page shows is a key of the catalogues in js/i18n/<lang>.js, said
// with t("key", {vars}); a game's own texts (its rules and lessons) come
// from its module under js/games/ through addTexts. The language is the one
// chosen with the header's switch (kept in localStorage), or else the
// browser's first language the site speaks, or English. web_test.go checks
// that every key is in every language.

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

let lang = catalogues[stored()] ? stored() : fromBrowser();
document.documentElement.lang = lang;

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
  return key in catalogues[lang] || key in catalogues.en;
}

/**
 * The text of a key in the language in use, its {name} placeholders filled
 * from vars; the English text when the language lacks it, and the key
 * itself (noted in missing) when no catalogue has it.
 */
export function t(key, vars) {
  let s = catalogues[lang][key];
  if (s == null) s = catalogues.en[key];
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
  if (code && has(`err.${code}`)) return t(`err.${code}`, vars || {});
  return message;
}

/** A side's name as the server gives it ("White", "Red"), in the language in use. */
export function sideText(name) {
  return name && has(`side.${name}`) ? t(`side.${name}`) : name;
}

/** t for a count: the key's ".one" text when n is 1, else its ".other" text, with {n}. */
export function tn(key, n, vars) {
  return t(`${key}.${n === 1 ? 'one' : 'other'}`, { n, ...vars });
}
