// The room page drawn from the room's state (room_state.js): its title and status, the invite,
// the seats and clocks, the board with its caption, guide and move list, the chat, the claim
// race, the round announcement, the actions, the scores and the result. `render(state)` draws it all again;
// each part keeps what did not change. `act` holds what the player's clicks ask for (room.js).
import { h } from './dom.js';
import { t } from './i18n/index.js';
import { seatLabels, GAMES } from './boards/index.js';
import { gameName } from './catalog.js';
import { describeError } from './errors.js';
import { createClocks, timeControlText } from './clock.js';
import { botLevel, seatName } from './computer.js';
import { animating, mySeat } from './room_state.js';
import { renderSeats, renderClockBar } from './room_seats.js';
import { renderActions, renderInvite } from './room_actions.js';
import { renderScores, renderRoundEnd, renderResult } from './room_result.js';
import { createClaimPanel } from './room_claim.js';
import { createRoomBoard } from './room_board.js';
import { createChatPanel } from './chat_panel.js';
import { ratedBadge } from './players.js';

export function createRoomView(main, act) {
  let current = null;          // the state drawn last
  let stopped = false;         // the page was left: updates still being played back draw nothing
  const timers = new Map();    // part -> the timer that draws it again
  const clocks = createClocks(() => current?.clock, (seat) => roomNames(current.room)[seat]);
  const title = h('h1', { dataset: { testid: 'room-title' } }, t('room.joining'));
  const status = h('p', { class: 'room-status', dataset: { testid: 'room-status' } });
  const inviteBox = h('div', { class: 'invite' });
  const seatList = h('ol', { class: 'seats', dataset: { testid: 'seats' } });
  const clockBar = h('div', { class: 'clock-bar', hidden: true, dataset: { testid: 'clock-bar' } });
  const roundBox = h('p', { class: 'round-end', role: 'status', hidden: true, dataset: { testid: 'round-announcement' } });
  const claimPanel = createClaimPanel();
  const actions = h('div', { class: 'actions' });
  const scoreBox = h('div', { class: 'score-box' });
  const resultSlot = h('div', { class: 'result-slot' });
  const body = h('div', { class: 'room-body', dataset: { testid: 'room-body' } });
  const section = h('section', { class: 'room', dataset: { testid: 'room' } },
    h('header', { class: 'room-head' }, title, status, inviteBox), resultSlot, body);
  const board = createRoomBoard({ section, act });
  const chat = createChatPanel(act);
  const { boardWrap, caption, guideWrap, moveList } = board.elements;
  body.append(h('div', { class: 'play-area' }, clockBar, roundBox, boardWrap, caption, guideWrap, claimPanel.element),
    h('aside', { class: 'side' }, seatList, actions, moveList, chat.element, scoreBox));
  main.replaceChildren(section);

  // The parts, each drawn from the view {state, room, names, me, act, clocks, later}; `later(ms)`
  // draws that part again after ms (a countdown, a race's timer).
  const parts = [
    ['invite', (view) => renderInvite(inviteBox, view)],
    ['seats', (view) => renderSeats(seatList, view)],
    ['clock bar', (view) => renderClockBar(clockBar, view)],
    ['actions', (view) => renderActions(actions, view)],
    ['scores', (view) => renderScores(scoreBox, view)],
    ['result', (view) => renderResult(resultSlot, view)],
    ['board', (view) => board.render(view)],
    ['chat', (view) => chat.render(view)],
    ['claim', (view) => claimPanel.render(view)],
    ['round end', (view) => renderRoundEnd(roundBox, view)],
  ];

  function render(state) {
    current = state;
    if (stopped) return;
    if (state.joinError) { renderJoinError(state.joinError); return; }
    if (!state.room) return;
    const view = viewOf(state);
    title.replaceChildren(gameName(state.room.game), ...(state.room.rated ? [' ', ratedBadge('room-rated')] : []));
    status.textContent = statusText(state, view.names);
    section.dataset.viewing = state.viewing === null ? '' : String(state.viewing);
    for (const [name, draw] of parts) drawPart(name, draw, view);
    later('grace', graceEnd(state.room), () => render(current));
    clocks.tick();
  }

  const viewOf = (state) => ({ state, room: state.room, names: roomNames(state.room), me: mySeat(state), act, clocks });

  function drawPart(name, draw, view = viewOf(current)) {
    clearTimeout(timers.get(name));
    draw({ ...view, later: (ms) => later(name, ms, () => drawPart(name, draw)) });
  }

  function later(name, ms, fn) {
    clearTimeout(timers.get(name));
    if (ms !== null) timers.set(name, setTimeout(fn, Math.max(0, ms)));
  }

  // Nothing to show but why: no empty board or seat cards (issue 17, bug 2).
  function renderJoinError(error) {
    body.hidden = true;
    section.dataset.error = error.code;
    const badInvite = error.invite && ['not_found', 'forbidden', 'bad_request'].includes(error.code);
    title.textContent = t(badInvite ? 'room.bad_invite' : 'room.not_available');
    status.textContent = badInvite ? t('room.bad_invite_why') : describeError(error);
    if (!section.querySelector('[data-testid=to-lobby]')) {
      status.after(h('a', { class: 'button', href: '#/', dataset: { testid: 'to-lobby' } }, t('link.to_lobby')));
    }
  }

  return {
    render,
    play: board.play,
    resetGuide: board.resetGuide,
    stop() {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      clocks.stop();
    },
  };
}

// Names by seat. Computers of the same level share the server's name ("Computer, level 3"), so
// those say their seat instead (the seat list still shows their level).
export function roomNames(room) {
  const labels = seatLabels(room.game, room.options);
  const plain = labels.map((label, i) => seatName(room.seats[i]) || label);
  return plain.map((name, i) => (botLevel(room.seats[i]) && plain.filter((other) => other === name).length > 1
    ? t('room.computer_at', { label: labels[i] }) : name));
}

// Said of the position on the board: while moves are played back it is behind the server's,
// and the status must agree with the prompt under the board (issue 17, bug 8).
function statusText(state, names) {
  const { room } = state;
  const watchers = room.spectators ? ` · ${t('room.watching', { count: room.spectators })}` : '';
  const control = room.time_control ? ` · ${timeControlText(room.time_control)}` : '';
  const position = animating(state) && state.shownState ? state.shownState : room.state;
  if (room.status === 'waiting') return `${t('room.waiting')}${control}${watchers}`;
  if (room.status === 'finished' && (!animating(state) || position?.phase === 'over')) return `${t('room.game_over')}${watchers}`;
  const game = GAMES[room.game];
  const round = position?.round > 1 || game?.roundShown?.(room.options) ? `${t('room.round', { n: position.round })} · ` : '';
  const claim = game?.claims?.[position?.phase];
  if (claim) return `${round}${claim.banner}${watchers}`;
  return `${round}${t('room.to_move', { name: names[position?.to_move] ?? '' })}${control}${watchers}`;
}

// When the next player who left may be claimed against: the page is drawn again then.
function graceEnd(room) {
  const ends = room.seats.filter((seat) => !seat.connected && seat.grace_until)
    .map((seat) => Date.parse(seat.grace_until) - Date.now() + 200).filter((ms) => ms > 0);
  return ends.length ? Math.min(...ends) : null;
}
