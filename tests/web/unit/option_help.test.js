// The sentence under a host option's field (issue 49): the catalogue's, in the player's language,
// for every option a catalogue knows; the server's own English only for one it does not (a game
// added on the server before the client has its words).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { optionHelp } from '../../../web-client/js/options.js';
import { setLanguage } from '../../../web-client/js/i18n/index.js';

test('an option the catalogues know is explained in the language', () => {
  setLanguage('de');
  assert.equal(optionHelp('cups', { name: 'first_player', help: 'Who moves first: South (0), North (1) or a random draw' }),
    'Wer zuerst zieht: Süd, Nord oder ausgelost.');
  setLanguage('vi');
  assert.equal(optionHelp('oanquan', { name: 'illegal_move_policy', help: 'An illegal move is refused (reject) or loses the match (forfeit)' }),
    'Nước đi sai luật bị từ chối, hoặc người đi sai thua cả trận.');
  setLanguage('en');
});

test('an option no catalogue knows keeps the server\'s sentence, made a sentence', () => {
  setLanguage('de');
  assert.equal(optionHelp('new_game', { name: 'castling', help: 'whether a king may castle' }), 'Whether a king may castle.');
  assert.equal(optionHelp('cups', { name: 'new_option', help: 'Ends early!' }), 'Ends early!');
  setLanguage('en');
});
