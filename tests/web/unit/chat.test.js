// The pure parts of the chat (issue 33): the room's reducer keeping the conversation (channels,
// muted players, the list capped), who may write and turn spectators' chat off, a stored game's
// chat placed among its turns, why a message was refused, and what the tab says while hidden.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useCatalog } from '../../../web-client/js/catalog.js';
import { initialState, reduce, chatLines, isMyMove } from '../../../web-client/js/room_state.js';
import { CHAT_KEPT, addChat, chatChannel, chatText, isHost, mayWrite, placeChat, visibleChat }
  from '../../../web-client/js/chat_state.js';
import { describeChatError } from '../../../web-client/js/errors.js';
import { roomEvents, attend, titleFor, faviconFor, BASE_TITLE } from '../../../web-client/js/attention.js';

before(() => useCatalog({ games: [
  { id: 'cups', name: 'Cups', min_players: 2, max_players: 2, options: {}, special_actions: [], claim_windows: [] },
] }));

const position = (toMove) => ({ position: [1], to_move: toMove, phase: 'play', round: 1, legal: ['r1'] });
const seats = [{ seat: 0, player_id: 'p-ada', name: 'Ada', connected: true }, { seat: 1, player_id: 'p-bo', name: 'Bo', connected: true }];
const roomMessage = (fields = {}) => ({ type: 'room', room: { id: 'r1', game: 'cups', options: {}, status: 'playing', version: 2,
  state: position(1), seats, ...fields } });
let clock = 0;
const said = (player_id, text, fields = {}) => ({ type: 'chat', room: 'r1', channel: player_id.startsWith('s-') ? 'spectators' : 'players',
  player_id, name: player_id[2].toUpperCase() + player_id.slice(3), text, at: new Date(Date.UTC(2026, 10, 27, 12, 0, clock++)).toISOString(), ...fields });

// A room seen by `playerId` (Ada sits at seat 0; anyone else watches), with the messages applied.
function room(playerId, ...messages) {
  return messages.reduce(reduce, reduce(initialState({ roomId: 'r1', playerId }), roomMessage()));
}
const texts = (state) => chatLines(state).lines.map((line) => line.text);

describe('the chat in the room state', () => {
  it('keeps whether a line\'s author is an account (issue 46), and only a true flag says so', () => {
    const state = room('p-ada', said('p-bo', 'gl', { account: true }), said('p-ada', 'hf'), said('p-bo', 'x', { account: 'yes' }));
    assert.deepEqual(chatLines(state).lines.map((line) => line.account), [true, false, false]);
  });

  it('keeps the messages in the order they came, once each, and only this room\'s', () => {
    const hello = said('p-bo', 'Good luck');
    const state = room('p-ada', hello, said('p-ada', 'Thanks'), hello, { ...said('p-bo', 'elsewhere'), room: 'r2' });
    assert.deepEqual(texts(state), ['Good luck', 'Thanks']);
    assert.deepEqual(chatLines(state).lines.map((line) => line.mine), [false, true]);
  });

  it('takes a room message\'s conversation so far, keeping older messages it no longer lists', () => {
    const first = said('p-bo', 'one'), second = said('p-ada', 'two'), third = said('p-bo', 'three');
    const state = room('p-ada', first, second);
    const again = reduce(state, roomMessage({ chat: [second, third].map(({ type, room: _, ...message }) => message) }));
    assert.deepEqual(texts(again), ['one', 'two', 'three']);
    const late = reduce(initialState({ roomId: 'r1', playerId: 's-cy' }), roomMessage({ chat: [first, second] }));
    assert.deepEqual(texts(late), ['one', 'two'], 'a late joiner reads the conversation so far');
    const older = reduce(state, roomMessage());
    assert.deepEqual(texts(older), ['one', 'two'], 'a room message without chat keeps it');
  });

  it('keeps the latest messages only', () => {
    let list = [];
    for (let i = 0; i < CHAT_KEPT + 20; i += 1) list = addChat(list, said('p-bo', `m${i}`));
    assert.equal(list.length, CHAT_KEPT);
    assert.equal(list[0].text, 'm20');
    assert.equal(list.at(-1).text, `m${CHAT_KEPT + 19}`);
  });

  it('shows spectators\' messages to seated players only once the game is over', () => {
    const messages = [said('p-bo', 'gl'), said('s-cy', 'nice move')];
    const playing = room('p-ada', ...messages);
    assert.deepEqual(texts(playing), ['gl']);
    const watching = room('s-dan', ...messages);
    assert.deepEqual(texts(watching), ['gl', 'nice move']);
    assert.equal(chatLines(watching).lines[1].channel, 'spectators');
    const over = reduce(playing, roomMessage({ status: 'finished', version: 3, state: { ...position(0), phase: 'over' } }));
    assert.deepEqual(texts(over), ['gl', 'nice move']);
  });

  it('hides muted players\' messages and says how many, and shows them again once unmuted', () => {
    const state = room('p-ada', said('p-bo', 'a'), said('s-cy', 'b'), said('p-bo', 'c'), said('p-ada', 'd'));
    const muted = reduce(state, { type: 'muted', players: [{ player_id: 'p-bo', name: 'Bo' }, { player_id: 'p-ada', name: 'Ada' }] });
    const { lines, hidden } = chatLines(muted);
    assert.deepEqual(lines.map((line) => line.text), ['d'], 'one\'s own messages are never hidden');
    assert.deepEqual(hidden, [{ player_id: 'p-bo', name: 'Bo', count: 2 }]);
    assert.deepEqual(texts(reduce(muted, { type: 'muted', players: [] })), ['a', 'c', 'd']);
  });

  it('keeps only the fields of the contract', () => {
    const state = room('p-ada', said('p-bo', '<b>hi</b> https://example.org', { html: '<script>', channel: 'weird' }));
    assert.deepEqual(Object.keys(state.chat[0]).sort(), ['account', 'at', 'channel', 'name', 'player_id', 'text']);
    assert.equal(state.chat[0].channel, 'players');
    assert.equal(state.chat[0].text, '<b>hi</b> https://example.org');
  });
});

describe('who writes where', () => {
  it('seated players write to the players, anyone else to the spectators', () => {
    assert.equal(chatChannel(true), 'players');
    assert.equal(chatChannel(false), 'spectators');
  });

  it('the host is the room\'s host_id, else seat 0\'s player', () => {
    assert.equal(isHost({ host_id: 'p-bo', seats }, 'p-bo'), true);
    assert.equal(isHost({ host_id: 'p-bo', seats }, 'p-ada'), false);
    assert.equal(isHost({ seats }, 'p-ada'), true);
    assert.equal(isHost({ seats }, null), false);
  });

  it('spectators write unless their chat is off; players always', () => {
    assert.equal(mayWrite({ spectator_chat: false }, false), false);
    assert.equal(mayWrite({ spectator_chat: false }, true), true);
    assert.equal(mayWrite({ spectator_chat: true }, false), true);
    assert.equal(mayWrite({}, false), true);
  });

  it('sends trimmed text, and nothing for blanks', () => {
    assert.equal(chatText('  Good game \n'), 'Good game');
    assert.equal(chatText('   '), null);
  });

  it('says why a message was refused in words, with the server\'s where it has them', () => {
    assert.equal(describeChatError({ code: 'rate_limited', message: 'at most 5 messages in 10 s' }), 'Slow down: at most 5 messages in 10 s');
    assert.equal(describeChatError({ code: 'rate_limited', message: 'rate_limited' }), 'Slow down: too many messages at once.');
    assert.equal(describeChatError({ code: 'silenced', message: 'You may not chat until 2026-11-28 12:00 UTC.' }), 'You may not chat until 2026-11-28 12:00 UTC.');
    assert.match(describeChatError({ code: 'bad_request' }), /280 characters/);
    assert.match(describeChatError({ code: 'not_allowed' }), /chat is off/);
  });
});

describe('a stored game\'s chat among its turns', () => {
  const at = (seconds) => new Date(Date.UTC(2026, 10, 27, 12, 0, seconds)).toISOString();
  const turns = [
    { seat: 0, tokens: 'r1', version: 1, at: at(10) },
    { event: 'capture' },                               // an event of the turn before: no version, no time
    { seat: 1, tokens: 'r2', version: 2, at: at(20) },
    { seat: 0, tokens: 'r3', version: 3, at: at(30) },
  ];
  const message = (seconds, text) => ({ channel: 'players', player_id: 'p-ada', name: 'Ada', text, at: at(seconds) });

  it('puts each message after the last turn played when it was sent', () => {
    const placed = placeChat([message(5, 'gl'), message(10, 'same time'), message(25, 'hm'), message(40, 'gg')], turns, at(30));
    assert.deepEqual(placed.map((line) => [line.text, line.version, line.afterEnd]),
      [['gl', 0, false], ['same time', 1, false], ['hm', 2, false], ['gg', 3, true]]);
  });

  it('copes with no chat, no turns and a game still being played', () => {
    assert.deepEqual(placeChat(undefined, turns), []);
    assert.deepEqual(placeChat([message(50, 'x')], [], null).map((line) => [line.version, line.afterEnd]), [[0, false]]);
  });
});

describe('the tab while the player looks elsewhere', () => {
  const state = (fields, playerId = 'p-ada') => reduce(initialState({ roomId: 'r1', playerId }), roomMessage(fields));

  it('tells a game that starts, ends, or becomes this player\'s move', () => {
    const waiting = state({ status: 'waiting', state: null, version: 0 });
    const myMove = state({ state: position(0) });
    const theirMove = state({ state: position(1) });
    assert.equal(isMyMove(myMove), true);
    assert.deepEqual(roomEvents(waiting, myMove), ['start', 'move']);
    assert.deepEqual(roomEvents(waiting, theirMove), ['start']);
    assert.deepEqual(roomEvents(theirMove, myMove), ['move']);
    assert.deepEqual(roomEvents(myMove, myMove), []);
    assert.deepEqual(roomEvents(theirMove, state({ status: 'finished', state: { ...position(0), phase: 'over' } })), ['end']);
    assert.deepEqual(roomEvents(initialState({ roomId: 'r1' }), myMove), [], 'the page just opened');
    assert.deepEqual(roomEvents(state({ state: position(1) }, 's-cy'), state({ state: position(0) }, 's-cy')), [], 'a spectator has no move');
  });

  it('changes only while hidden, lets no message hide a move, and clears once seen', () => {
    assert.equal(attend(null, 'move', false), null);
    assert.equal(attend(null, 'chat', true), 'chat');
    assert.equal(attend('chat', 'move', true), 'move');
    assert.equal(attend('move', 'chat', true), 'move');
    assert.equal(attend('move', 'end', true), 'end');
    assert.equal(attend('end', 'seen', false), null);
  });

  it('says it in the title and with a dot on the icon', () => {
    assert.equal(titleFor('move'), `● Your move — ${BASE_TITLE}`);
    assert.equal(titleFor('chat'), '● New message — Mancala Online');
    assert.equal(titleFor(null), 'Mancala Online');
    assert.match(faviconFor('move'), /^data:image\/svg\+xml,.*fill='%23d3263a'/);
    assert.doesNotMatch(faviconFor(null), /d3263a/);
    assert.doesNotMatch(faviconFor('move'), /[<>]/);
  });
});
