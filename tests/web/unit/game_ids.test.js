// The client learns its games from the server and from its game modules in web-client/js/boards/:
// no other module may name a game (issue "A house you can read from the door", part 4).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GAMES } from '../../../web-client/js/boards/index.js';

const client = fileURLToPath(new URL('../../../web-client/js/', import.meta.url));
const ids = Object.keys(GAMES);
// A game's id as a word of code ('cups', game.cups, coin_duel: …); comments may speak of games.
const naming = new RegExp(`\\b(${ids.join('|')})\\b`);
const withoutComment = (line) => line.replace(/(^|\s)\/\/.*$/, '');

function modules(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'boards' ? [] : modules(file);
    // The catalogues are prose: "two rows of cups" speaks of cups, it does not name the game.
    if (/^i18n\/(en|vi|de)\.js$/.test(path.relative(client, file))) return [];
    return entry.name.endsWith('.js') ? [file] : [];
  });
}

test('the game modules know the five games', () => {
  assert.deepEqual(ids.sort(), ['coin_duel', 'cups', 'duovallis', 'njaka', 'oanquan']);
});

test('no module outside boards/ names a game', () => {
  const named = modules(client).flatMap((file) => fs.readFileSync(file, 'utf8').split('\n')
    .map((line, i) => (naming.test(withoutComment(line)) ? `${path.relative(client, file)}:${i + 1}: ${line.trim()}` : null))
    .filter(Boolean));
  assert.deepEqual(named, []);
});
