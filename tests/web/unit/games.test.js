// Each game's module under web-client/js/boards/ speaks for its game: the hooks the room and
// the move list consult, without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GAMES, seatLabels } from '../../../web-client/js/boards/index.js';
import { describeUpdate } from '../../../web-client/js/moves.js';
import { seatScore } from '../../../web-client/js/scores.js';

const names = ['Ada', 'Bo'];
const turn = (game, event) => describeUpdate(game, { events: [{ event: 'turn', player: 0, ...event }] }, names);

test('every game has its rules in our words', () => {
  for (const [id, game] of Object.entries(GAMES)) {
    assert.ok(game.rules.blurb && game.rules.card.length === 4 && game.rules.intro && game.rules.sections.length, id);
  }
});

test('games with sides name them; the others number their seats', () => {
  assert.deepEqual(seatLabels('duovallis', {}), ['White', 'Black']);
  assert.deepEqual(seatLabels('njaka', { players: 3 }), ['Seat 1', 'Seat 2', 'Seat 3']);
});

test('turns are told in each game\'s words', () => {
  assert.equal(turn('cups', { move: { source: 'reserve', count: 3 }, trace: [{ dir: 'R' }] }), 'Ada sowed 3 beans from the reserve.');
  assert.equal(turn('coin_duel', { move: { source: 'reserve', count: 2, laps: [{ coins: ['Q', 'P'] }] }, trace: [{}],
    capture: { items: [2, 0, 1, 0], cup: 4 } }), 'Ada sowed 2 coins from the reserve (Quarter, Penny), capturing 2 pennies and 1 dime from cup 4.');
  assert.equal(turn('oanquan', { move: { pit: 3, dir: 'ccw' }, captures: [{ small: 4, large: true }] }),
    'Ada played square 3 counterclockwise, capturing 4 counters and a big stone.');
  assert.equal(turn('njaka', { move: { pit: 4 }, captures: [{ to: 0 }, { to: 1 }] }), 'Ada played hole 4: 1 set for Ada and 1 set for Bo.');
  assert.equal(turn('duovallis', { move: { pit: 2 }, laps: [{}, {}], capture: { from: 7, foreign: 4, exchanged: 1 } }),
    'Ada played hole 2, with 1 relay, capturing hole 7: 4 black stones (3 traded for 1 new white stone).');
});

test('a turn still being played is told in its game\'s words', () => {
  assert.equal(describeUpdate('coin_duel', { seat: 1, tokens: 'r3 Q L', events: [] }, names),
    'Bo is in the middle of a turn: 3 from the reserve, quarter, left…');
  assert.equal(describeUpdate('oanquan', { seat: 0, tokens: '4', events: [] }, names), 'Ada is in the middle of a turn: square 4…');
});

test('scores are read from the position vector by the game', () => {
  const state = { position: [0, 0, 0, 0, 7, 3, 1, 1, 1, 1, 2, 30] };
  assert.deepEqual(seatScore('cups', { cups_per_side: 4 }, state, 0), { value: 7, unit: 'in pot', by: 'cups_board.beans' });
  assert.deepEqual(seatScore('cups', { cups_per_side: 4 }, state, 1), { value: 2, unit: 'in pot', by: 'cups_board.beans' });
  assert.equal(seatScore('cups', {}, null, 0), null);
});

test('Coin Duel offers to concede a round in stage 3 only, the game of rounds', () => {
  const concede = GAMES.coin_duel.specialActions.concede;
  assert.equal(concede.offered({ options: { stage: 3 } }), true);
  assert.equal(concede.offered({ options: {} }), true, 'stage 3 is the default');
  assert.equal(concede.offered({ options: { stage: 2 } }), false);
  assert.equal(GAMES.coin_duel.roundShown({ stage: 3 }), true);
});

test('Njaka\'s Plex! race has its words, and says who won it', () => {
  const plex = GAMES.njaka.claims.plex;
  assert.equal(plex.button, 'Plex!');
  assert.equal(plex.resultText([{ event: 'plex_result', winner: 1, latency_ms: 420 }], names),
    'Bo called Plex! first (420 ms) and takes the last set.');
  assert.equal(plex.resultText([{ event: 'plex_result', winner: 0, fallback: true }], names),
    'Nobody called in time: the last set goes to Ada.');
  assert.equal(plex.resultText([{ event: 'turn' }], names), null);
});
