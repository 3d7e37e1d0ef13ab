// The client's words in the player's language (issue 49): `t(key, params)` looks a key up in the
// catalogue of the chosen language (en.js, vi.js, de.js: plain objects of keyed strings), fills
// its {placeholders}, and picks a plural block ({one, other, …}) by Intl.PluralRules for
// `params.count`. Numbers, dates, times and "about ten minutes" come from Intl. No library: Intl
// does the hard part (plural categories, number and date formats in every locale), and the rest
// is twenty lines (web-client/README.md says more).
import en from './en.js';
import vi from './vi.js';
import de from './de.js';

// The languages offered, in the chooser's order, each named in itself.
export const LANGUAGES = [
  { code: 'en', name: 'English', strings: en },
  { code: 'vi', name: 'Tiếng Việt', strings: vi },
  { code: 'de', name: 'Deutsch', strings: de },
];
const BY_CODE = new Map(LANGUAGES.map((language) => [language.code, language]));
const STORED = 'mancala.language';

let current = 'en';

// The first of the browser's languages ("de-AT", "vi") that has a catalogue, else English.
export function pickLanguage(wanted = []) {
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (BY_CODE.has(base)) return base;
  }
  return 'en';
}

export const language = () => current;

// Chooses the language (the chooser, the saved choice); `<html lang>` follows.
export function setLanguage(code) {
  current = BY_CODE.has(code) ? code : 'en';
  if (globalThis.document?.documentElement) document.documentElement.lang = current;
  return current;
}

// A guest's choice is kept in this browser; before any choice the browser's languages decide.
export function savedLanguage() {
  try { return globalThis.localStorage?.getItem(STORED) ?? null; } catch { return null; }
}
export function saveLanguage(code) {
  try { globalThis.localStorage?.setItem(STORED, code); } catch { /* private mode: kept for this page only */ }
  return setLanguage(code);
}
export function startLanguage() {
  return setLanguage(savedLanguage() ?? pickLanguage(globalThis.navigator?.languages ?? [globalThis.navigator?.language]));
}

const pluralRules = new Map();
const plurals = (code) => pluralRules.get(code) ?? pluralRules.set(code, new Intl.PluralRules(code)).get(code);

// The entry of `key` in the chosen catalogue; English when a catalogue lacks it (the catalogue
// test keeps that from happening), the key itself when nobody has it.
function entry(key) {
  return BY_CODE.get(current).strings[key] ?? en[key] ?? key;
}

// Whether the client has words for `key` (English has every key): words the server sends, such
// as an option's help, are shown as they come when it does not.
export const hasKey = (key) => key in en;

// t('room.watching', {count: 3}) -> "3 watching". Numbers in params are written the
// language's way (1.500 in German); a plural block is chosen by `count` ("=0" beats "zero").
export function t(key, params = {}) {
  let text = entry(key);
  if (typeof text === 'object') {
    const count = Number(params.count ?? 0);
    text = text[`=${count}`] ?? text[plurals(current).select(count)] ?? text.other;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? shown(params[name]) : whole));
}

const shown = (value) => (typeof value === 'number' ? formatNumber(value) : String(value));

// Grouped from five digits only (12,000): a rating reads 1500, not 1,500 or 1.500.
export const formatNumber = (n, options = {}) => new Intl.NumberFormat(current, { useGrouping: 'min2', ...options }).format(n);

// A list in the language's words: "Ada, Bo and Cy" / "Ada, Bo und Cy" / "Ada, Bo và Cy".
// English without the serial comma, as the client always wrote it.
export const formatList = (parts) => new Intl.ListFormat(current === 'en' ? 'en-GB' : current, { type: 'conjunction' }).format(parts.map(String));

export function formatDateTime(at, options = { dateStyle: 'medium', timeStyle: 'short' }) {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? '' : new Intl.DateTimeFormat(current, options).format(date);
}

export const formatTime = (at) => formatDateTime(at, { hour: '2-digit', minute: '2-digit' });

// "3 minutes ago", "vor 3 Minuten", "3 phút trước".
export function formatAgo(seconds) {
  const rtf = new Intl.RelativeTimeFormat(current, { numeric: 'auto' });
  const [value, unit] = roughly(seconds);
  return rtf.format(-value, unit);
}

// A span in the largest unit that says it well: 596 s -> 10 minutes, 5400 s -> 2 hours (rounded:
// a wait is told "about", never to the second).
function roughly(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return [s, 'second'];
  if (s < 3600) return [Math.round(s / 60), 'minute'];
  if (s < 172800) return [Math.round(s / 3600), 'hour'];
  return [Math.round(s / 86400), 'day'];
}

// "10 minutes", "10 Minuten", "10 phút" (Intl's units, long form).
export function formatSpan(seconds) {
  const [value, unit] = roughly(seconds);
  return new Intl.NumberFormat(current, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}

// "about 10 minutes" rather than "596 seconds"; under a minute the seconds are said exactly.
export const aboutSpan = (seconds) => (seconds < 60 ? formatSpan(seconds) : t('time.about', { span: formatSpan(seconds) }));

// Every element with data-i18n (index.html's header) gets its text from the catalogue;
// data-i18n-attr="title:key" sets an attribute.
export function translatePage(root = document) {
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of node.dataset.i18nAttr.split(';')) {
      const [name, key] = pair.split(':');
      node.setAttribute(name, t(key));
    }
  }
}
