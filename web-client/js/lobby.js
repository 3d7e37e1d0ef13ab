// The lobby: "Play a person" (quick_pairing.js), "Play the computer" (computer.js), the live list of public rooms, the player's own
// rooms, the links to each game's leaderboard, and the room creation form with every host
// option of the chosen game (and, for an account, "Rated").
import { h, clear, toast } from './dom.js';
import { t, formatDateTime } from './i18n/index.js';
import { gameIds, gameName } from './catalog.js';
import { GAMES, seatLabels } from './boards/index.js';
import { optionsFieldset, describeOptions } from './options.js';
import { describeError } from './errors.js';
import { rulesButton } from './rules.js';
import { playComputerCard, occupied, seatName, botLevel, computerIcon } from './computer.js';
import { CLOCK_PRESETS, timeControlText } from './clock.js';
import { nameLink, playerMarks, ratedBadge } from './players.js';
import { quickPairingCard } from './quick_pairing.js';

export function showLobby(main, app) {
  const conn = app.conn;
  const mine = h('div', { class: 'my-rooms', dataset: { testid: 'my-rooms' } });
  const list = h('div', { class: 'room-list', dataset: { testid: 'room-list' } }, h('p', { class: 'muted' }, t('lobby.loading')));
  const quick = quickPairingCard(app);
  // On a phone the column reads: play a person, play the computer, create a room, then the
  // rooms (style.css).
  main.replaceChildren(h('section', { class: 'lobby' },
    h('div', { class: 'lobby-rooms' },
      quick.element,
      playComputerCard(app),
      mine,
      h('section', { class: 'open-rooms' }, h('h2', {}, t('lobby.open_rooms')), list),
      leaderboardLinks()),
    createForm(app)));

  let shown = [];
  function renderRooms(rooms) {
    shown = rooms;
    clear(list);
    if (!rooms.length) list.append(h('p', { class: 'muted' }, t('lobby.no_rooms')));
    for (const room of rooms) list.append(roomCard(room, app));
  }
  // The cards say how long ago each room was created: redrawn every half minute.
  const ageTimer = setInterval(() => { if (shown.length) renderRooms(shown); }, 30000);

  function renderMine() {
    const rooms = [...app.roomsSeen.values()].filter((room) => room.status !== 'finished' &&
      room.seats.some((seat) => seat.player_id === app.me()?.player_id));
    clear(mine);
    if (!rooms.length) return;
    mine.append(h('h2', {}, t('lobby.your_games')), h('ul', { class: 'plain' }, rooms.map((room) =>
      h('li', {}, h('a', { href: `#/room/${room.id}`, dataset: { testid: `my-room-${room.id}` } },
        t('lobby.game_with', { game: gameName(room.game), players: room.seats.map(seatName).filter(Boolean).join(', ') }))))));
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
  return () => { offRooms(); offRoom(); offWelcome(); clearInterval(ageTimer); quick.stop(); };
}

// How long ago a room was created ("3 min ago"), from the server's ISO time. A client clock a
// little behind the server's must not say "in 1 min": a future time reads "just now".
function ageText(created, now = Date.now()) {
  const at = Date.parse(created);
  if (Number.isNaN(at)) return null;
  const minutes = Math.max(0, Math.floor((now - at) / 60000));
  if (minutes < 1) return t('lobby.just_now');
  if (minutes < 60) return t('lobby.minutes_ago', { count: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return t('lobby.hours_ago', { count: hours });
  return t('lobby.days_ago', { count: Math.floor(hours / 24) });
}

// "Hosted by Ada · 3 min ago"; older servers' rooms (no host, no time) say what is known.
function hostLine(room) {
  const age = room.created ? ageText(room.created) : null;
  const exact = age ? formatDateTime(room.created) : undefined;
  const parts = [];
  if (room.host) parts.push(t('lobby.hosted_by'), h('strong', {}, room.host));
  if (age) parts.push(room.host ? ` · ${age}` : t('lobby.created', { age }));
  return parts.length ? h('span', { title: exact, dataset: { testid: `room-host-${room.id}` } }, ...parts) : null;
}

function roomCard(room, app) {
  const labels = seatLabels(room.game, room.options);
  const free = room.seats.some((seat) => !occupied(seat));
  const mayJoin = free && (!room.rated || app.isAccount());
  const notes = describeOptions(room.game, room.options);
  return h('article', { class: 'room-card', dataset: { testid: `room-${room.id}` } },
    h('h3', {}, gameName(room.game), room.rated ? [' ', ratedBadge(`room-rated-${room.id}`)] : null),
    h('p', { class: 'room-facts', dataset: { testid: `room-facts-${room.id}` } },
      hostLine(room),
      h('span', { dataset: { testid: `room-clock-${room.id}` } }, room.time_control ? t('lobby.clock', { clock: timeControlText(room.time_control) }) : t('clock.none'))),
    notes.length ? h('p', { class: 'muted' }, notes.join(' · ')) : null,
    h('ul', { class: 'plain seat-names' }, labels.map((label, i) => {
      const seat = room.seats[i];
      return h('li', {}, `${label}: `, occupied(seat)
        ? h('span', { class: 'name' }, botLevel(seat) ? computerIcon() : null, nameLink(seat, seatName(seat)), ' ',
          playerMarks(seat, { testid: `room-${room.id}-rating-${i}` }))
        : h('span', { class: 'muted' }, t('lobby.free')));
    })),
    h('p', { class: 'muted' }, room.status === 'playing' ? t('lobby.playing_watching', { count: room.spectators ?? 0 }) : t('room.waiting')),
    h('div', { class: 'row' },
      mayJoin ? h('a', { class: 'button', href: `#/room/${room.id}`, dataset: { testid: `join-${room.id}` },
        onclick: (e) => { e.preventDefault(); joinAndOpen(app, room.id); } }, t('lobby.join')) : null,
      free && !mayJoin ? h('span', { class: 'muted' }, t('lobby.accounts_only')) : null,
      h('a', { class: 'button quiet', href: `#/room/${room.id}`, dataset: { testid: `watch-${room.id}` } }, t('lobby.watch'))));
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
  // "New game" in a finished room opens the lobby with its game chosen: #/?game=cups
  const wanted = new URLSearchParams(location.hash.split('?')[1] ?? '').get('game');
  const gameSelect = h('select', { id: 'new-game', name: 'game', dataset: { testid: 'new-game' } },
    gameIds().map((id) => h('option', { value: id, selected: id === wanted || undefined }, gameName(id))));
  const clock = clockField();
  const optionsSlot = h('div');
  let optionsBox = null;       // optionsFieldset of the chosen game
  const blurb = h('span', { class: 'muted' });
  const rules = h('span');
  const privateBox = h('input', { type: 'checkbox', id: 'new-private', 'aria-describedby': 'new-private-help', dataset: { testid: 'new-private' } });
  const rated = ratedField(app);
  const grace = h('input', { type: 'number', id: 'new-grace', min: 30, max: 3600, value: 120, required: true,
    dataset: { testid: 'new-grace' } });
  const seatSelect = h('select', { id: 'new-seat', dataset: { testid: 'new-seat' } });
  const submit = h('button', { type: 'submit', class: 'primary', dataset: { testid: 'create-room' } }, t('lobby.create'));

  function showOptions() {
    const game = gameSelect.value;
    blurb.textContent = GAMES[game]?.rules.blurb ?? '';
    rules.replaceChildren(GAMES[game] ? rulesButton(game, t('lobby.how_to_play')) : '');
    optionsBox = optionsFieldset(game, { onChange: showSeats, fold: true });
    optionsSlot.replaceChildren(optionsBox.element);
    showSeats();
  }

  // The seats follow the options chosen.
  function showSeats() {
    const options = optionsBox.read({ all: true });
    const labels = seatLabels(gameSelect.value, options);
    const kept = seatSelect.value;
    seatSelect.replaceChildren(...labels.map((label, i) => h('option', { value: i },
      label === t('lobby.seat', { n: i + 1 }) ? t('lobby.seat', { n: i + 1 }) : t('lobby.seat_named', { n: i + 1, label }))),
    h('option', { value: 'spectate' }, t('lobby.just_watch')));
    if ([...seatSelect.options].some((item) => item.value === kept)) seatSelect.value = kept;
  }

  gameSelect.addEventListener('change', showOptions);
  showOptions();

  async function create(event) {
    event.preventDefault();
    const game = gameSelect.value;
    const message = { type: 'create_room', game, options: optionsBox.read(),
      private: privateBox.checked, grace_seconds: Number(grace.value) };
    const chosenClock = clock.read();
    if (chosenClock) message.clock = chosenClock;
    if (rated.box.checked) message.rated = true;
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

  // What most rooms need comes first, with the button; the rest is folded away.
  return h('form', { class: 'create', onsubmit: create, dataset: { testid: 'create-form' } },
    h('h2', {}, t('lobby.new_room')),
    h('div', { class: 'field' }, h('label', { for: 'new-game' }, t('lobby.game')), gameSelect),
    h('p', { class: 'game-blurb row' }, blurb, rules),
    optionsSlot,
    clock.element,
    // Who may play, on one line with their help below (hidden on a phone, where the button must
    // stay in view).
    h('div', { class: 'checks' }, h('div', { class: 'field check' }, privateBox, h('label', { for: 'new-private' }, t('lobby.private'))), rated.element),
    h('small', { id: 'new-private-help', class: 'checks-help' }, t('lobby.private_help')),
    rated.help,
    submit,
    h('details', { class: 'more-options', dataset: { testid: 'more-room-options' } },
      h('summary', {}, t('lobby.seat_and_connection')),
      h('div', { class: 'field' }, h('label', { for: 'new-seat' }, t('lobby.your_seat')), seatSelect,
        h('small', {}, t('lobby.your_seat_help'))),
      h('div', { class: 'field' }, h('label', { for: 'new-grace' }, t('lobby.grace')), grace,
        h('small', {}, t('lobby.grace_help')))));
}

// "Rated": only an account may create a rated room (and only accounts sit in it); a guest sees
// the box off, with the reason.
function ratedField(app) {
  const account = app.isAccount();
  const box = h('input', { type: 'checkbox', id: 'new-rated', disabled: !account, 'aria-describedby': 'new-rated-help',
    dataset: { testid: 'new-rated' } });
  return { box,
    element: h('div', { class: 'field check' }, box, h('label', { for: 'new-rated' }, t(account ? 'lobby.rated' : 'lobby.rated_accounts_only'))),
    help: h('small', { id: 'new-rated-help', class: 'checks-help', dataset: { testid: 'rated-hint' } }, account
      ? t('lobby.rated_help') : t('lobby.rated_help_guest')) };
}

// A link to each game's leaderboard.
function leaderboardLinks() {
  return h('section', { class: 'leaderboard-links', dataset: { testid: 'leaderboard-links' } },
    h('h2', {}, t('nav.leaderboards')),
    h('p', { class: 'row' }, gameIds().map((id) => h('a', { href: `#/leaderboard/${encodeURIComponent(id)}`,
      dataset: { testid: `leaderboard-link-${id}` } }, gameName(id)))));
}

// The clock: presets, or custom values (minutes each plus seconds added per move, or hours per
// move). The server checks the ranges and names a field that is out of range.
function clockField() {
  const select = h('select', { id: 'new-clock', dataset: { testid: 'new-clock' } },
    CLOCK_PRESETS.map((preset) => h('option', { value: preset.id }, t(preset.label))));
  const number = (id, label, props) => h('div', { class: 'field' }, h('label', { for: id }, label),
    h('input', { type: 'number', id, required: true, dataset: { testid: id }, ...props }));
  const realTime = h('div', { class: 'clock-custom row', hidden: true },
    number('new-clock-minutes', t('lobby.clock_minutes'), { min: 0.2, max: 180, step: 'any', value: 5 }),
    number('new-clock-increment', t('lobby.clock_increment'), { min: 0, max: 60, value: 3 }));
  const perMove = h('div', { class: 'clock-custom row', hidden: true },
    number('new-clock-hours', t('lobby.clock_hours'), { min: 1, max: 336, value: 24 }));
  const value = (id) => Number(realTime.querySelector(`#${id}`)?.value ?? perMove.querySelector(`#${id}`)?.value);
  select.addEventListener('change', () => {
    realTime.hidden = select.value !== 'custom';
    perMove.hidden = select.value !== 'custom-move';
    for (const input of [...realTime.querySelectorAll('input'), ...perMove.querySelectorAll('input')]) {
      input.disabled = input.closest('[hidden]') !== null;
    }
  });
  select.dispatchEvent(new Event('change'));
  return {
    element: h('div', { class: 'field' }, h('label', { for: 'new-clock' }, t('lobby.clock_label')), select,
      h('small', {}, t('lobby.clock_help')), realTime, perMove),
    read() {
      if (select.value === 'custom') {
        return { initial_s: Math.round(value('new-clock-minutes') * 60), increment_s: value('new-clock-increment') };
      }
      if (select.value === 'custom-move') return { per_move_s: Math.round(value('new-clock-hours') * 3600) };
      return CLOCK_PRESETS.find((preset) => preset.id === select.value)?.clock ?? null;
    },
  };
}
