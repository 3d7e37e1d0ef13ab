// The client's catalogues (issue 49), in Node alone: every key is in every language with the
// same {placeholders} and the plural forms its language has; every key the client names is in
// the catalogues and every catalogue key is named somewhere in the client; and the modules
// already moved to the catalogues keep no user-visible English of their own.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import en from '../../../web-client/js/i18n/en.js';
import vi from '../../../web-client/js/i18n/vi.js';
import de from '../../../web-client/js/i18n/de.js';
import { t, setLanguage, pickLanguage, aboutSpan, formatList, LANGUAGES } from '../../../web-client/js/i18n/index.js';

const CLIENT = fileURLToPath(new URL('../../../web-client/', import.meta.url));
const CATALOGUES = { en, vi, de };

const placeholders = (entry) => [...new Set(Object.values(typeof entry === 'object' ? entry : { other: entry })
  .flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort();

function clientFiles(dir = join(CLIENT, 'js')) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return clientFiles(path);
    // The catalogues themselves name every key: not a use.
    return entry.name.endsWith('.js') && !/i18n\/(en|vi|de)\.js$/.test(path) ? [path] : [];
  });
}
const sources = [...clientFiles(), join(CLIENT, 'index.html')].map((path) => ({ path, text: readFileSync(path, 'utf8') }));
const NAMESPACES = [...new Set(Object.keys(en).map((key) => key.split('.')[0]))];
const keyShaped = new RegExp(`^(${NAMESPACES.join('|')})\\.[a-z0-9_]+$`);

// Every quoted string in the client that looks like a key ('lobby.join', data-i18n="nav.lobby").
const namedKeys = new Set(sources.flatMap(({ text }) => [...text.matchAll(/['"`:]([a-z_]+\.[a-z0-9_]+)['"`:;]/g)]
  .map((m) => m[1]).filter((key) => keyShaped.test(key))));
// Keys made up at run time: t(`error.${code}`) names every error.* key.
const dynamicPrefixes = [...new Set(sources.flatMap(({ text }) => [...text.matchAll(/t\(`([a-z_]+\.[a-z0-9_]*)\$\{/g)].map((m) => m[1])))];

describe('the catalogues', () => {
  it('have the same keys, placeholders and plural forms in every language', () => {
    for (const [code, catalogue] of Object.entries(CATALOGUES)) {
      assert.deepEqual(Object.keys(catalogue).sort(), Object.keys(en).sort(), `${code} has the keys of en`);
      const forms = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
      for (const [key, entry] of Object.entries(catalogue)) {
        assert.deepEqual(placeholders(entry), placeholders(en[key]), `${code} ${key}: the same placeholders as English`);
        assert.equal(typeof entry === 'object', typeof en[key] === 'object', `${code} ${key}: a plural block where English has one`);
        if (typeof entry === 'object') {
          for (const form of forms) assert.ok(entry[form] ?? entry.other, `${code} ${key}: the "${form}" form`);
          assert.ok(entry.other, `${code} ${key}: an "other" form`);
        } else assert.ok(entry.trim(), `${code} ${key} is not empty`);
      }
    }
  });

  it('have every key the client names', () => {
    const missing = [...namedKeys].filter((key) => !(key in en));
    assert.deepEqual(missing, [], 'keys named in web-client/ but in no catalogue');
  });

  it('hold no key the client never names', () => {
    const unused = Object.keys(en).filter((key) => !namedKeys.has(key) && !dynamicPrefixes.some((prefix) => key.startsWith(prefix)));
    assert.deepEqual(unused, [], 'catalogue keys nothing in web-client/ uses');
  });

  // options.js makes these keys from the game's id and the option's name, so a misspelt one
  // would be unused without the check above noticing (option.* is a made-up prefix).
  it('name a known game in every option help key', () => {
    const helps = Object.keys(en).filter((key) => key.startsWith('option.') && key.endsWith('.help'));
    assert.ok(helps.length > 0);
    for (const key of helps) {
      const [, game, name, ...rest] = key.split('.');
      assert.ok(`game_name.${game}` in en && /^[a-z0-9_]+$/.test(name) && rest.join() === 'help', `${key}: option.<game>.<name>.help of a known game`);
    }
  });

  it('choose plurals, lists, numbers and spans by the language', () => {
    setLanguage('en');
    assert.equal(t('chat.muted', { name: 'Bo', count: 1 }), 'Muted: Bo (1 message hidden)');
    assert.equal(t('chat.muted', { name: 'Bo', count: 2 }), 'Muted: Bo (2 messages hidden)');
    assert.equal(aboutSpan(596), 'about 10 minutes');
    assert.equal(aboutSpan(42), '42 seconds');
    assert.equal(t('replay.move_of', { n: 1, last: 12000 }), 'Move 1 of 12,000');
    assert.equal(formatList(['Ada', 'Bo', 'Cy']), 'Ada, Bo and Cy');
    assert.equal(t('result.wins_by', { name: 'Ada', margin: t('cups_board.beans', { count: 1 }) }), 'Ada wins by 1 bean');
    assert.equal(t('result.wins_by', { name: 'Ada', margin: t('coin_board.points', { count: 12 }) }), 'Ada wins by 12 points');
    setLanguage('de');
    assert.equal(t('lobby.days_ago', { count: 1 }), 'vor 1 Tag');
    assert.equal(t('lobby.days_ago', { count: 3 }), 'vor 3 Tagen');
    assert.equal(aboutSpan(596), 'etwa 10 Minuten');
    // A margin is a plural block of its own, in the dative "mit … Vorsprung" asks for.
    assert.equal(t('result.wins_by', { name: 'Ada', margin: t('oanquan_board.points', { count: 1 }) }), 'Ada gewinnt mit 1 Punkt Vorsprung');
    assert.equal(t('result.wins_by', { name: 'Ada', margin: t('oanquan_board.points', { count: 3 }) }), 'Ada gewinnt mit 3 Punkten Vorsprung');
    assert.equal(t('result.wins_by', { name: 'Ada', margin: t('njaka_board.sets_margin', { count: 2 }) }), 'Ada gewinnt mit 2 Vierern Vorsprung');
    assert.equal(t('coin_board.counters', { count: 0 }), 'keine Steine');
    setLanguage('vi');
    assert.equal(t('chat.muted', { name: 'Bo', count: 1 }), 'Đã ẩn: Bo (1 tin nhắn bị ẩn)');
    assert.equal(aboutSpan(596), 'khoảng 10 phút');
    assert.equal(formatList(['Ada', 'Bo', 'Cy']), 'Ada, Bo và Cy');
    assert.equal(t('result.wins_by', { name: 'Ada', margin: t('cups_board.beans', { count: 1 }) }), 'Ada thắng hơn 1 hạt');
    setLanguage('en');
  });

  it('start from the browser\'s languages', () => {
    assert.equal(pickLanguage(['de-AT', 'en']), 'de');
    assert.equal(pickLanguage(['fr', 'vi-VN']), 'vi');
    assert.equal(pickLanguage(['fr']), 'en');
    assert.deepEqual(LANGUAGES.map((language) => language.code), ['en', 'vi', 'de']);
  });
});

// --- no English left in the converted modules ---------------------------------------------------
// The modules moved to the catalogues: every module that shows words (an option's help sentence
// comes from the server only for an option no catalogue knows yet).
const CONVERTED = ['app.js', 'lobby.js', 'name_page.js', 'invite.js', 'room.js', 'room_view.js', 'room_actions.js',
  'room_seats.js', 'room_result.js', 'result.js', 'clock.js', 'chat_panel.js', 'errors.js', 'players.js', 'ratings.js',
  'account_bar.js', 'history.js', 'replay_view.js', 'rating_change.js', 'computer.js', 'quick_pairing.js', 'options.js',
  'guide.js', 'movelist.js', 'room_board.js', 'rules.js', 'rounds.js', 'moves.js', 'boards/oanquan.js', 'boards/duovallis.js',
  'boards/cups.js', 'boards/rows.js', 'boards/coin_duel.js', 'boards/coin_duel_panel.js', 'boards/coins.js', 'boards/njaka.js',
  'boards/view.js', 'boards/index.js', 'account_forms.js', 'account_rules.js', 'profile.js', 'profile_tournaments.js',
  'leaderboard.js', 'account_page.js', 'rating_graph.js', 'catalog.js', 'boards/names.js', 'import_page.js', 'analysis_panel.js', 'analysis_words.js', 'analysis_state.js', 'eval_graph.js',
  'rules_page.js', 'boards/cups_rules.js', 'boards/coin_duel_rules.js', 'boards/oanquan_rules.js', 'boards/njaka_rules.js',
  'boards/duovallis_rules.js',
  'tournaments_api.js', 'tournaments_list.js', 'tournaments_form.js', 'tournaments_page.js', 'tournaments_games.js',
  'account_language.js'];

// Literals that are not words for people, each with its reason.
const EXCEPTIONS = new Map([
  ["'\\u2713'", 'the account mark, a sign'],
  ["`presence ${away ? 'away' : 'here'}`", 'a class list'],
  ["`square ${i}`", "a place's name, which view.js reads its number from (placeNumber)"],
  ["`square ${i + 6}`", "a place's name, which view.js reads its number from (placeNumber)"],
  ["`hole ${h}`", "a place's name, which view.js reads its number from (placeNumber)"],
  ["`${token} ccw`", 'a move token of the protocol'],
  ["'Enter'", 'a key of the keyboard (event.key)'],
  ["`No board for ${ctx.game}`", "a programmer's error (a game with no board module), never shown to a player"],
  ["'textLength'", "an SVG attribute's name (a caption narrowed to its room: boards/names.js)"],
  ["'lengthAdjust'", "an SVG attribute's name (a caption narrowed to its room: boards/names.js)"],
  ["'spacingAndGlyphs'", "an SVG attribute's value (a caption narrowed to its room: boards/names.js)"],
]);

// A literal that reads as words: a capital and a small letter, or two words with a space, and no
// sign of being a class list, a selector, a test id, an address or a key.
function userVisible(literal) {
  // What a template puts in from code is not its own words.
  const body = literal.slice(1, -1).replace(/\$\{(?:[^{}]|\{[^{}]*\})*\}/g, '');
  if (keyShaped.test(body) || /^[a-z_]+\.[a-z0-9_]*$/.test(body) || /^[#/.[]|^https?:|=|^[a-z-]+( [a-z-]+)*$/.test(body)) return false;
  // A word put beside what the code fills in: `${n} points`.
  const besideValue = literal.startsWith('`') && body !== literal.slice(1, -1) && /(^|\s)[a-z]{3,}(\s|$)/i.test(body);
  return besideValue || /[A-Z][a-z]/.test(body) || /[a-z]{2,} [a-z]{2,}/i.test(body) || /[a-z]{3,}[.!?…]$/.test(body);
}

const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '').replace(/\s\/\/ .*$/gm, '');

export function leftovers(text) {
  const found = [];
  for (const line of withoutComments(text).split('\n')) {
    if (/^\s*import /.test(line)) continue;
    for (const [literal] of line.matchAll(/'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g)) {
      if (userVisible(literal) && !EXCEPTIONS.has(literal)) found.push(literal);
    }
  }
  return found;
}

describe('the converted modules', () => {
  for (const name of CONVERTED) {
    it(`${name} shows no string of its own`, () => {
      const text = readFileSync(join(CLIENT, 'js', name), 'utf8');
      assert.deepEqual(leftovers(text), [], `${relative(CLIENT, join(CLIENT, 'js', name))}: words outside the catalogues`);
    });
  }

  it('the scanner sees a sentence put back', () => {
    assert.deepEqual(leftovers("h('p', {}, 'Waiting for players');"), ["'Waiting for players'"]);
    assert.deepEqual(leftovers('toast(`Reported: ${name}.`);'), ['`Reported: ${name}.`']);
    assert.deepEqual(leftovers('return `${n + 10 * big} points`;'), ['`${n + 10 * big} points`']);
    assert.deepEqual(leftovers("h('a', { class: 'button quiet small', href: '#/history' }, t('history.all_games'));"), []);
  });
});
