// The lobby: the live list of public rooms, the player's own rooms, and the room creation form
// with every host option of the chosen game.
import { h, clear, toast } from './dom.js';
import { GAMES, gameIds, gameName, seatLabels } from './games.js';
import { gameOptions, optionField, readOptions, refreshFields, describeOptions } from './options.js';
import { describeError } from './errors.js';
import { rulesButton } from './rules.js';

export function showLobby(main, app) {
  const conn = app.conn;
  const mine = h('div', { class: 'my-rooms', dataset: { testid: 'my-rooms' } });
  const list = h('div', { class: 'room-list', dataset: { testid: 'room-list' } }, h('p', { class: 'muted' }, 'Loading rooms…'));
  main.replaceChildren(h('section', { class: 'lobby' },
    h('div', { class: 'lobby-rooms' },
      mine,
      h('h2', {}, 'Open rooms'), list),
    createForm(app)));

  function renderRooms(rooms) {
    clear(list);
    if (!rooms.length) list.append(h('p', { class: 'muted' }, 'No public rooms right now. Create one!'));
    for (const room of rooms) list.append(roomCard(room, app));
  }

  function renderMine() {
    const rooms = [...app.roomsSeen.values()].filter((room) => room.status !== 'finished' &&
      room.seats.some((seat) => seat.player_id === app.me()?.player_id));
    clear(mine);
    if (!rooms.length) return;
    mine.append(h('h2', {}, 'Your games'), h('ul', { class: 'plain' }, rooms.map((room) =>
      h('li', {}, h('a', { href: `#/room/${room.id}`, dataset: { testid: `my-room-${room.id}` } },
        `${gameName(room.game)} with ${room.seats.map((seat) => seat.name).filter(Boolean).join(', ')}`)))));
  }

  const offRooms = conn.on('rooms', (message) => renderRooms(message.rooms));
  const offRoom = conn.on('room', renderMine);
  renderMine();
  // Asked now when online, else (and after every reconnect) as soon as the server welcomes us.
  const subscribe = () => {
    conn.request({ type: 'watch_lobby' }).catch(() => {});
    conn.request({ type: 'list_rooms' }).catch((error) => toast(describeError(error)));
  };
  if (conn.online) subscribe();
  const offWelcome = conn.on('welcome', subscribe);
  return () => { offRooms(); offRoom(); offWelcome(); };
}

function roomCard(room, app) {
  const labels = seatLabels(room.game, room.options);
  const free = room.seats.some((seat) => !seat.player_id);
  const notes = describeOptions(room.game, room.options);
  return h('article', { class: 'room-card', dataset: { testid: `room-${room.id}` } },
    h('h3', {}, gameName(room.game)),
    notes.length ? h('p', { class: 'muted' }, notes.join(' · ')) : null,
    h('ul', { class: 'plain seat-names' }, labels.map((label, i) => {
      const seat = room.seats[i];
      return h('li', {}, `${label}: `, h('span', { class: seat?.player_id ? 'name' : 'muted' }, seat?.player_id ? seat.name : 'free'));
    })),
    h('p', { class: 'muted' }, room.status === 'playing' ? `Playing · ${room.spectators ?? 0} watching` : 'Waiting for players'),
    h('div', { class: 'row' },
      free ? h('a', { class: 'button', href: `#/room/${room.id}`, dataset: { testid: `join-${room.id}` },
        onclick: (e) => { e.preventDefault(); joinAndOpen(app, room.id); } }, 'Join') : null,
      h('a', { class: 'button quiet', href: `#/room/${room.id}`, dataset: { testid: `watch-${room.id}` } }, 'Watch')));
}

async function joinAndOpen(app, roomId) {
  try {
    const reply = await app.conn.request({ type: 'join_room', room: roomId });
    app.rememberRoom(reply.room);
    app.navigate(`#/room/${roomId}`);
  } catch (error) { toast(describeError(error)); }
}

// --- the creation form --------------------------------------------------------------------
function createForm(app) {
  const gameSelect = h('select', { id: 'new-game', name: 'game', dataset: { testid: 'new-game' } },
    gameIds().map((id) => h('option', { value: id }, gameName(id))));
  const optionsBox = h('fieldset', { class: 'options' });
  const blurb = h('p', { class: 'muted' });
  const rules = h('span');
  const privateBox = h('input', { type: 'checkbox', id: 'new-private', dataset: { testid: 'new-private' } });
  const grace = h('input', { type: 'number', id: 'new-grace', min: 30, max: 3600, value: 120, required: true,
    dataset: { testid: 'new-grace' } });
  const seatSelect = h('select', { id: 'new-seat', dataset: { testid: 'new-seat' } });
  const submit = h('button', { type: 'submit', class: 'primary', dataset: { testid: 'create-room' } }, 'Create room');

  function showOptions() {
    const game = gameSelect.value;
    blurb.textContent = GAMES[game]?.blurb ?? '';
    rules.replaceChildren(GAMES[game] ? rulesButton(game, 'How to play') : '');
    const fields = gameOptions(game).map((option) => optionField(game, option));
    optionsBox.replaceChildren(h('legend', {}, `${gameName(game)} options`),
      ...(fields.length ? fields : [h('p', { class: 'muted' }, 'This game has no options.')]));
    showSeats();
  }

  // The seats (and the lists that depend on them) follow the options chosen.
  function showSeats() {
    refreshFields(gameSelect.value, optionsBox);
    const options = readOptions(gameSelect.value, optionsBox, { all: true });
    const labels = seatLabels(gameSelect.value, options);
    const kept = seatSelect.value;
    seatSelect.replaceChildren(...labels.map((label, i) => h('option', { value: i },
      label === `Seat ${i + 1}` ? label : `Seat ${i + 1} (${label})`)),
    h('option', { value: 'spectate' }, 'Just watch'));
    if ([...seatSelect.options].some((item) => item.value === kept)) seatSelect.value = kept;
  }

  gameSelect.addEventListener('change', showOptions);
  optionsBox.addEventListener('change', showSeats);
  showOptions();

  async function create(event) {
    event.preventDefault();
    const game = gameSelect.value;
    const message = { type: 'create_room', game, options: readOptions(game, optionsBox),
      private: privateBox.checked, grace_seconds: Number(grace.value) };
    if (seatSelect.value === 'spectate') message.spectate = true;
    else if (seatSelect.value !== '0') message.seat = Number(seatSelect.value);
    submit.disabled = true;
    try {
      const reply = await app.conn.request(message, { resend: false });
      app.rememberRoom(reply.room);
      app.navigate(`#/room/${reply.room.id}`);
    } catch (error) {
      toast(describeError(error));
    } finally { submit.disabled = false; }
  }

  return h('form', { class: 'create', onsubmit: create, dataset: { testid: 'create-form' } },
    h('h2', {}, 'New room'),
    h('div', { class: 'field' }, h('label', { for: 'new-game' }, 'Game'), gameSelect), blurb, rules,
    optionsBox,
    h('fieldset', { class: 'options' }, h('legend', {}, 'Room'),
      h('div', { class: 'field' }, h('label', { for: 'new-seat' }, 'Your seat'), seatSelect,
        h('small', {}, 'Where you sit; the others join by the link or from the list.')),
      h('div', { class: 'field check' }, privateBox, h('label', { for: 'new-private' }, 'Private'),
        h('small', {}, 'Not listed; only people with the invite link can join.')),
      h('div', { class: 'field' }, h('label', { for: 'new-grace' }, 'Grace time (seconds)'), grace,
        h('small', {}, 'How long a disconnected player may be away before the opponent can claim the game.'))),
    submit);
}
