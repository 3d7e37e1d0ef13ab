// The room's reducer (web-client/js/room_state.js) without a browser: messages in, state out.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useCatalog } from '../../../web-client/js/catalog.js';
import { initialState, reduce, mySeat, animating, boardState, isLatest, moveLines, wantsHistory, rematchStarted }
  from '../../../web-client/js/room_state.js';

const NOW = Date.parse('2026-11-27T12:00:00Z');

// What /api/game-types says of two games: Njaka has a claim window, Cups none.
before(() => useCatalog({ games: [
  { id: 'cups', name: 'Cups', min_players: 2, max_players: 2, options: {}, special_actions: [], claim_windows: [] },
  { id: 'njaka', name: 'Njaka', min_players: 2, max_players: 4, options: {}, special_actions: [], claim_windows: ['plex'] },
] }));

const position = (n) => ({ position: [n], to_move: n % 2, phase: 'play', round: 1, legal: ['r1'] });
const seats = [{ seat: 0, player_id: 'p-ada', name: 'Ada', connected: true }, { seat: 1, player_id: 'p-bo', name: 'Bo', connected: true }];
const roomMessage = (fields = {}) => ({ type: 'room', room: { id: 'r1', game: 'cups', options: {}, status: 'playing', version: 2,
  state: position(2), seats, ...fields } });
const update = (version, fields = {}) => ({ type: 'update', room: 'r1', version, seat: (version + 1) % 2, action: 'move',
  tokens: 'r1', events: [{ event: 'turn', player: (version + 1) % 2 }], state: position(version), ...fields });

// A room at version 2 seen by Ada, with the given messages applied in order.
function room(...messages) {
  return messages.reduce((state, message) => reduce(state, message, NOW),
    reduce(initialState({ roomId: 'r1', playerId: 'p-ada' }), roomMessage(), NOW));
}

// Plays back everything queued, as the page does once each update is drawn.
const playAll = (state) => state.queue.reduce((next, { version }) => reduce(next, { type: 'played', version }), state);

describe('room messages', () => {
  it('take the room, its position and seats', () => {
    const state = room();
    assert.equal(state.room.version, 2);
    assert.deepEqual(state.shownState, position(2));
    assert.deepEqual(state.positions.get(2), position(2));
    assert.equal(mySeat(state), 0);
    assert.equal(isLatest(state), true);
  });

  it('of another room are ignored, unless they answer our join by invite', () => {
    const state = room();
    assert.equal(reduce(state, roomMessage({ id: 'r2' })), state);
    const joined = reduce(initialState({ playerId: 'p-ada' }), { ...roomMessage({ id: 'r9' }), ours: true });
    assert.equal(joined.roomId, 'r9');
  });

  it('keep the position already shown when the version is the same', () => {
    const state = room();
    const again = reduce(state, roomMessage({ spectators: 3, state: { ...position(2) } }));
    assert.equal(again.shownState, state.shownState);
    assert.equal(again.room.spectators, 3);
    assert.equal(again.boardEpoch, state.boardEpoch, 'the board is not drawn anew');
  });

  it('with a newer version replace the board and drop the updates not yet played back', () => {
    const state = room(update(3));
    const next = reduce(state, roomMessage({ version: 9, state: position(9) }));
    assert.deepEqual(next.queue, []);
    assert.deepEqual(next.shownState, position(9));
    assert.equal(next.boardEpoch, state.boardEpoch + 1);
  });

  it('hold the clock from the moment it came', () => {
    const clock = { remaining_ms: [60000, 60000], running: 0, as_of: '2020-01-01T00:00:00Z' };
    const state = room(roomMessage({ clock }));
    assert.deepEqual(state.clock, { clock, anchor: NOW });
  });

  it('from the server that bring a rematch room are told apart', () => {
    const before = room();
    assert.equal(rematchStarted(before, reduce(before, roomMessage({ rematch: 'r2' }))), true);
    assert.equal(rematchStarted(before, reduce(before, roomMessage({ spectators: 1 }))), false);
  });
});

describe('updates', () => {
  it('with the next version replace the state, record the position and wait to be played back', () => {
    const state = room(update(3));
    assert.equal(state.room.version, 3);
    assert.deepEqual(state.room.state, position(3));
    assert.deepEqual(state.positions.get(3), position(3));
    assert.deepEqual(state.updates.get(3), { seat: 0, action: 'move', tokens: 'r1', events: [{ event: 'turn', player: 0 }] });
    assert.deepEqual(state.shownState, position(2), 'the board is behind until the update is played back');
    assert.equal(animating(state), true);
    assert.equal(isLatest(state), false);
  });

  it('played back move the board on and name the caption', () => {
    const state = playAll(room(update(3), update(4)));
    assert.deepEqual(state.shownState, position(4));
    assert.equal(state.caption, 4);
    assert.equal(animating(state), false);
    assert.equal(isLatest(state), true);
  });

  it('with an older or the same version are ignored', () => {
    const state = room(update(3));
    assert.equal(reduce(state, update(3, { state: position(99) })), state);
    assert.equal(reduce(state, update(2)), state);
  });

  it('after a gap are not applied: the page is out of step until it catches up', () => {
    const state = room(update(5));
    assert.equal(state.room.version, 2);
    assert.equal(state.outOfStep, true);
    const caught = reduce(state, { type: 'updates', updates: [update(3), update(4), update(5)] });
    assert.equal(caught.outOfStep, false);
    assert.equal(caught.room.version, 5);
    assert.deepEqual(caught.queue.map((u) => u.version), [3, 4, 5]);
  });

  it('of another room are ignored', () => {
    const state = room();
    assert.equal(reduce(state, update(3, { room: 'r2' })), state);
  });

  it('that end the game finish the room', () => {
    const state = room(update(3, { state: { ...position(3), phase: 'over', result: { winner: 0 } } }));
    assert.equal(state.room.status, 'finished');
  });

  it('that end a round are kept for the announcement', () => {
    const events = [{ event: 'round_end', round: 1 }, { event: 'round_start', round: 2 }];
    const state = room(update(3, { events }), update(4));
    assert.deepEqual(state.roundEnd, events);
  });

  it('bring the clock of their state', () => {
    const clock = { remaining_ms: [1000, 2000], running: 1, as_of: new Date(NOW).toISOString() };
    const state = room(update(3, { state: { ...position(3), clock } }));
    assert.deepEqual(state.clock, { clock, anchor: NOW });
  });

  it('leave the given state untouched', () => {
    const state = room();
    const positions = [...state.positions];
    reduce(state, update(3));
    assert.deepEqual([...state.positions], positions);
    assert.equal(state.room.version, 2);
    assert.deepEqual(state.queue, []);
  });
});

describe('the move list', () => {
  it('shows a turn still being played as one line with its decisions so far', () => {
    const half = (version, tokens) => update(version, { seat: 0, tokens, events: [] });
    const state = room(half(3, 'r3'), half(4, 'Q'), half(5, 'P'));
    const lines = moveLines(state);
    assert.deepEqual(lines.map((line) => [line.version, line.tokens, line.partial]),
      [[3, 'r3', true], [4, 'r3 Q', true], [5, 'r3 Q P', true]]);
  });

  it('is filled from the history API with what the page has not seen', () => {
    let state = room(update(3));
    assert.equal(wantsHistory(state), true);
    state = reduce(state, { type: 'history_asked' });
    assert.equal(wantsHistory(state), false);
    const record = { turns: [{ version: 1, seat: 0, tokens: 'r2', events: [] }, { version: 2, seat: 1, tokens: 'c4', events: [] },
      { version: 3, seat: 0, tokens: 'other', events: [] }] };
    state = reduce(state, { type: 'history', record, states: [[0, position(0)], [1, position(1)], [3, 'another']] });
    assert.deepEqual([...state.updates.keys()].sort(), [1, 2, 3]);
    assert.equal(state.updates.get(3).tokens, 'r1', 'what the page saw itself stays');
    assert.deepEqual(state.positions.get(0), position(0));
    assert.deepEqual(state.positions.get(3), position(3), 'the position the page saw itself stays');
  });

  it('takes the positions fetched later, when an earlier version is looked at', () => {
    let state = reduce(room(update(3)), { type: 'history_asked' });
    state = reduce(state, { type: 'history', record: { turns: [] }, states: [[0, position(0)]] });
    assert.equal(reduce(state, { type: 'view', version: 1 }).viewing, null, 'no position, nothing to show');
    state = reduce(state, { type: 'positions', states: [[0, 'other'], [1, position(1)], [2, position(2)]] });
    assert.deepEqual(state.positions.get(0), position(0));
    state = reduce(state, { type: 'view', version: 1 });
    assert.equal(state.viewing, 1);
    assert.deepEqual(boardState(state), position(1));
  });
});

describe('looking back', () => {
  it('shows an earlier version while the game goes on', () => {
    let state = reduce(playAll(room(update(3))), { type: 'view', version: 2 });
    assert.equal(state.viewing, 2);
    assert.equal(state.caption, 2);
    assert.deepEqual(boardState(state), position(2));
    state = playAll(reduce(state, update(4)));
    assert.equal(state.viewing, 2, 'an update does not end it');
    assert.deepEqual(boardState(state), position(2));
    state = reduce(state, { type: 'live' });
    assert.equal(state.viewing, null);
    assert.deepEqual(boardState(state), position(4));
    assert.equal(state.caption, 4);
  });

  it('of the live version, or of a version not known, does nothing more', () => {
    const state = room();
    assert.equal(reduce(state, { type: 'view', version: 2 }).viewing, null);
    assert.equal(reduce(state, { type: 'view', version: 7 }), state);
  });
});

describe('claim windows', () => {
  const njaka = () => room(roomMessage({ game: 'njaka', version: 3, state: { ...position(3), phase: 'plex' } }));
  const plexOpen = { type: 'plex_open', room: 'r1', window: 'w1', deadline_ms: 3000, mover: 1 };

  it('open a race with its deadline', () => {
    const state = reduce(njaka(), plexOpen, NOW);
    assert.deepEqual(state.claim, { name: 'plex', window: 'w1', deadline: NOW + 3000, total: 3000, mover: 1 });
  });

  it('open only for a game that has them, in this room', () => {
    assert.equal(reduce(room(), plexOpen, NOW).claim, null);
    assert.equal(reduce(njaka(), { ...plexOpen, room: 'r2' }, NOW).claim, null);
  });

  it('close with the update that settles the race, which is kept for a while', () => {
    const events = [{ event: 'plex_result', winner: 1, latency_ms: 300 }];
    for (const action of ['plex', 'plex_timeout']) {
      const state = reduce(reduce(njaka(), plexOpen, NOW), update(4, { action, events }), NOW + 500);
      assert.equal(state.claim, null);
      assert.deepEqual(state.claimResult, { name: 'plex', events, at: NOW + 500 });
    }
  });

  it('stay open through other updates', () => {
    const state = reduce(reduce(njaka(), plexOpen, NOW), update(4, { action: 'move' }), NOW);
    assert.equal(state.claim.window, 'w1');
  });
});

describe('seats and players', () => {
  it('follow presence: a player who leaves may come back until the grace time ends', () => {
    const until = '2026-11-27T12:02:00Z';
    let state = room({ type: 'presence', room: 'r1', seat: 1, connected: false, grace_until: until });
    assert.deepEqual([state.room.seats[1].connected, state.room.seats[1].grace_until], [false, until]);
    state = reduce(state, { type: 'presence', room: 'r1', seat: 1, connected: true });
    assert.deepEqual([state.room.seats[1].connected, state.room.seats[1].grace_until], [true, null]);
  });

  it('record who asked for a rematch', () => {
    const state = room({ type: 'rematch', room: 'r1', seats: [1] });
    assert.deepEqual(state.rematchSeats, [1]);
    assert.deepEqual(room({ type: 'rematch', room: 'r2', seats: [1] }).rematchSeats, []);
  });

  it('know which seat is ours once the server welcomes us', () => {
    const state = reduce(reduce(initialState({ roomId: 'r1' }), roomMessage()), { type: 'welcome', player_id: 'p-bo' });
    assert.equal(mySeat(state), 1);
  });
});

describe('the page', () => {
  it('is busy while a move is on its way', () => {
    const state = reduce(room(), { type: 'sending' });
    assert.equal(state.busy, true);
    assert.equal(reduce(state, { type: 'sent' }).busy, false);
  });

  it('says why the room cannot be shown', () => {
    const state = reduce(initialState({ roomId: 'r1' }), { type: 'join_failed', error: { code: 'not_found', message: 'no room' }, invite: true });
    assert.deepEqual(state.joinError, { code: 'not_found', message: 'no room', invite: true });
  });

  it('ignores messages it does not know', () => {
    const state = room();
    assert.equal(reduce(state, { type: 'rooms', rooms: [] }), state);
  });
});
