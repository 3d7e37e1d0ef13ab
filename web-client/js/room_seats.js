// The room's seats, drawn from its state: who sits where (a person, a computer of some level, or
// nobody), who is online and to move, each seat's clock and score; in a waiting room, the buttons
// to sit down or to give a free seat to the computer. An account's name links to its profile and
// shows its rating for this game; a guest's has a "guest" mark; a rated room's seats are for
// accounts only. On phones the clocks are repeated in a bar above the board.
// `view`: {state, room, names, me, clocks, act} (room_view.js).
import { h } from './dom.js';
import { t } from './i18n/index.js';
import { seatLabels } from './boards/index.js';
import { seatScore } from './scores.js';
import { COLORS } from './boards/view.js';
import { LEVELS, levelLabel, levelWord, botLevel, occupied, seatName, computerIcon } from './computer.js';
import { accountMark, isAccount, nameLink, playerMarks } from './players.js';

export function renderSeats(list, view) {
  const { room, me } = view;
  list.replaceChildren(...seatLabels(room.game, room.options).map((label, i) => {
    const seat = room.seats[i] ?? { seat: i };
    const item = h('li', { class: `seat${toMove(room, i) ? ' to-move' : ''}${me === i ? ' mine' : ''}`,
      dataset: { testid: `seat-${i}` }, style: `--seat: ${COLORS[i]}` }, seatParts(view, seat, i, label));
    if (!occupied(seat) && room.status === 'waiting') {
      if (me === null) item.append(sitButton(view, i));
      else if (!room.rated) item.append(addComputer(view, i, label));   // no computers in a rated room
    }
    return item;
  }));
}

const toMove = (room, seat) => room.state?.to_move === seat && room.status === 'playing';

function seatParts({ room, me, state, clocks }, seat, i, label) {
  const taken = occupied(seat);
  const level = botLevel(seat);
  const away = seat.connected === false;
  const score = seatScore(room.game, room.options, room.state, i);
  return [
    h('span', { class: 'seat-side' }, label),
    level ? computerIcon() : null,
    h('span', { class: 'seat-name', dataset: { testid: `seat-name-${i}` } }, taken ? nameLink(seat, seatName(seat)) : t('room.free_seat')),
    taken && isAccount(seat) ? accountMark(`seat-account-${i}`) : null,
    ...(taken ? playerMarks(seat, { testid: `seat-rating-${i}` }) : []),
    me === i ? h('span', { class: 'tag you', dataset: { testid: 'you' } }, t('room.you')) : null,
    level ? h('span', { class: 'tag computer', title: t('room.computer_player', { hint: LEVELS[level - 1]?.hint }),
      dataset: { testid: `computer-${i}`, level } }, levelWord(level)) : null,
    taken && !level ? h('span', { class: `presence ${away ? 'away' : 'here'}`, title: t(away ? 'room.disconnected' : 'room.connected') },
      t(away ? 'room.away' : 'room.online')) : null,
    toMove(room, i) ? h('span', { class: 'turn-mark', dataset: { testid: 'to-move' } }, t('room.to_move_mark')) : null,
    state.clock ? clocks.face(i) : null,
    score ? h('span', { class: 'seat-score' }, h('strong', {}, score.value), ` ${score.unit}`) : null,
  ];
}

// A rated room seats accounts only: a guest is offered to sign up instead.
function sitButton({ act, room }, seat) {
  if (room.rated && !act.mayPlayRated()) {
    return h('span', { class: 'rated-only row' }, h('span', { class: 'muted' }, t('room.rated_accounts_only')),
      h('button', { type: 'button', class: 'small', dataset: { testid: `sign-up-to-sit-${seat}` }, onclick: act.signUp }, t('account.sign_up')));
  }
  return h('button', { dataset: { testid: `sit-${seat}` }, onclick: () => act.sit(seat) }, t('room.sit_here'));
}

// A seated player of a waiting room may give a free seat to the computer.
function addComputer({ act }, seat, label) {
  const id = `add-bot-level-${seat}`;
  const select = h('select', { id, 'aria-label': t('room.computer_level_for', { label }), dataset: { testid: id } },
    LEVELS.map(({ level }) => h('option', { value: level, selected: level === 2 || undefined }, levelLabel(level))));
  const add = h('button', { type: 'button', 'aria-label': t('room.add_computer_to', { label }), dataset: { testid: `add-bot-${seat}` },
    onclick: async () => {
      add.disabled = true;
      if (!await act.addBot(seat, Number(select.value))) add.disabled = false;
    } }, computerIcon(), t('room.add_computer'));
  return h('span', { class: 'add-computer row' }, select, add);
}

// On phones the seat list is below the board: the clocks are repeated above it.
export function renderClockBar(bar, { state, room, names, clocks }) {
  bar.hidden = !state.clock || room.status !== 'playing';
  if (bar.hidden) { bar.replaceChildren(); return; }
  bar.replaceChildren(...names.map((name, seat) => h('span', {
    class: `bar-seat${toMove(room, seat) ? ' to-move' : ''}`, style: `--seat: ${COLORS[seat]}` },
  h('span', { class: 'bar-name' }, name), clocks.face(seat, `clock-bar-${seat}`))));
}
