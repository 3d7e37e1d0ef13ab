// Playing the computer. The lobby's "Play the computer" card has one button per game (first
// click); it opens a dialog where a click on a level starts the game (second click). Before that
// the player may say who starts, how many computer opponents sit at a table for more than two,
// and change the game's options behind "More options" (the same fields as the room form, from
// options.js). The room is created with every other seat given to a computer, so it starts at
// once. Also here: how rooms and room cards show a computer's seat.
import { h, s } from './dom.js';
import { gameIds, gameName, gameType } from './catalog.js';
import { GAMES } from './boards/index.js';
import { gameOptions, optionsFieldset } from './options.js';
import { describeError } from './errors.js';

// The protocol's five levels: 1 plays random legal moves, each level above beats the one below,
// 5 is the strongest the server offers.
export const LEVELS = [
  { level: 1, word: 'Beginner (random)', hint: 'Plays random legal moves' },
  { level: 2, word: 'Easy', hint: 'Takes what it can see right away' },
  { level: 3, word: 'Intermediate', hint: 'Thinks a few moves ahead' },
  { level: 4, word: 'Advanced', hint: 'Thinks longer and deeper' },
  { level: 5, word: 'Strongest', hint: 'Up to two seconds a move' },
];
export const levelWord = (level) => LEVELS[level - 1]?.word ?? 'Computer';
export const levelLabel = (level) => `${level} · ${levelWord(level)}`;

// A seat's `bot` field is the computer's level (1–5), or false for a person.
export const botLevel = (seat) => (Number.isInteger(seat?.bot) && seat.bot > 0 ? seat.bot : 0);
export const occupied = (seat) => Boolean(seat?.player_id) || botLevel(seat) > 0;
export const seatName = (seat) => seat?.name || (botLevel(seat) ? `Computer, level ${botLevel(seat)}` : '');

export function computerIcon() {
  return s('svg', { class: 'bot-icon', viewBox: '0 0 16 16', width: 18, height: 18, 'aria-hidden': 'true' },
    s('rect', { x: 1.5, y: 2, width: 13, height: 9, rx: 1.5 }),
    s('rect', { x: 3.5, y: 4, width: 9, height: 5, rx: .5, class: 'bot-screen' }),
    s('path', { d: 'M5.5 14h5M8 11v3' }));
}

// --- who starts -----------------------------------------------------------------------------
const STARTERS = [
  { value: 'you', label: 'You' },
  { value: 'computer', label: 'The computer' },
  { value: 'random', label: 'Random' },
];

const firstPlayerOption = (game) => gameOptions(game).find((option) => option.name === 'first_player');
const playersOption = (game) => gameOptions(game).find((option) => option.name === 'players');

// The person sits at seat 0 and the computers after. Where the game has a first-player option,
// "who starts" sets it (the computer: the first computer seat). Where it has none, the game
// starts with seat 0, so "who starts" chooses the person's seat instead.
export function seating(game, starter, seats, random = Math.random) {
  const option = firstPlayerOption(game);
  const draw = () => Math.floor(random() * seats);
  if (!option) {
    return { seat: starter === 'you' ? 0 : starter === 'computer' ? 1 : draw(), fixed: {} };
  }
  let value = starter === 'you' ? 0 : starter === 'computer' ? 1 : 'random';
  if (!option.choices?.includes(value)) value = value === 'random' ? draw() : option.default;
  return { seat: 0, fixed: { first_player: value } };
}

// --- the lobby card -------------------------------------------------------------------------
export function playComputerCard(app) {
  return h('section', { class: 'play-computer', 'aria-labelledby': 'play-computer-title', dataset: { testid: 'play-computer' } },
    h('h2', { id: 'play-computer-title' }, 'Play the computer'),
    h('p', { class: 'muted' }, 'Nobody around? Pick a game, then a level from 1 to 5: the game starts at once.'),
    h('div', { class: 'game-buttons' }, gameIds().map((game) => h('button', {
      type: 'button', class: 'game-button', 'aria-label': `Play ${gameName(game)} against the computer`,
      dataset: { testid: `play-computer-${game}` }, onclick: () => openPlayComputer(app, game),
    }, computerIcon(), h('span', {}, gameName(game)), playerCount(game)))));
}

function playerCount(game) {
  const type = gameType(game);
  if (!type || type.max_players <= 2) return null;
  return h('small', {}, `${type.min_players}–${type.max_players} players`);
}

// --- the dialog -----------------------------------------------------------------------------
export function openPlayComputer(app, game) {
  const type = gameType(game);
  const players = playersOption(game);
  const manySeats = players && type && type.max_players > type.min_players;
  let starter = 'you';

  const starterGroup = h('fieldset', { class: 'segmented', dataset: { testid: 'bot-starter' } },
    h('legend', {}, 'Who starts'),
    STARTERS.map(({ value, label }) => h('label', {},
      h('input', { type: 'radio', name: 'bot-starter', value, checked: value === starter || undefined,
        dataset: { testid: `bot-starter-${value}` }, onchange: () => { starter = value; fields.refresh(); } }),
      h('span', {}, label))));

  const opponents = manySeats ? h('select', { id: 'bot-opponents', dataset: { testid: 'bot-opponents' } },
    Array.from({ length: type.max_players - type.min_players + 1 }, (_, i) => {
      const n = type.min_players - 1 + i;
      return h('option', { value: n }, n === 1 ? '1 computer' : `${n} computers`);
    })) : null;
  const seatTotal = () => (opponents ? Number(opponents.value) + 1 : Number(players?.default ?? type?.min_players ?? 2));

  // The options asked above (players, first player) are left out of the fold and fixed here.
  // A random start the game cannot draw itself is drawn here, once per dialog.
  const draw = Math.random();
  const seatAndStart = () => seating(game, starter, seatTotal(), () => draw);
  const fixed = () => ({ ...(manySeats ? { players: seatTotal() } : {}), ...seatAndStart().fixed });
  const fields = optionsFieldset(game, { omit: ['players', 'first_player'], fixed, idPrefix: 'bot-opt',
    empty: 'This game has no other options.' });
  opponents?.addEventListener('change', () => fields.refresh());

  const error = h('p', { class: 'dialog-error', role: 'alert', dataset: { testid: 'bot-error' } });
  const levelButtons = LEVELS.map(({ level, hint }) => h('button', {
    type: 'button', class: 'level', dataset: { testid: `bot-level-${level}` }, onclick: () => start(level),
  }, h('strong', {}, levelLabel(level)), h('small', {}, hint)));

  const dialog = h('dialog', { class: 'bot-dialog', 'aria-labelledby': 'bot-dialog-title', dataset: { testid: 'bot-dialog' } },
    h('form', { class: 'bot-form', onsubmit: (event) => event.preventDefault() },
      h('h2', { id: 'bot-dialog-title' }, `Play ${gameName(game)} against the computer`),
      GAMES[game] ? h('p', { class: 'muted' }, GAMES[game].rules.blurb) : null,
      starterGroup,
      opponents ? h('div', { class: 'field' }, h('label', { for: 'bot-opponents' }, 'Computer opponents'), opponents,
        h('small', {}, 'Every seat but yours is played by the computer.')) : null,
      h('details', { class: 'more-options', dataset: { testid: 'bot-more-options' } },
        h('summary', {}, 'More options'), fields.element),
      h('fieldset', { class: 'levels' }, h('legend', {}, 'Level: click one to start'), levelButtons),
      error,
      h('div', { class: 'dialog-actions' },
        h('button', { type: 'button', class: 'quiet', dataset: { testid: 'bot-cancel' }, onclick: () => dialog.close() }, 'Cancel'))));

  async function start(level) {
    const { seat } = seatAndStart();
    const bots = Array.from({ length: seatTotal() }, (_, k) => k).filter((k) => k !== seat).map((k) => ({ seat: k, level }));
    // Private: games against the computer would otherwise fill the lobby's list of open rooms.
    const message = { type: 'create_room', game, options: fields.read(), private: true, seat, bots };
    for (const button of levelButtons) button.disabled = true;
    error.textContent = '';
    try {
      const reply = await app.conn.request(message, { resend: false });
      app.rememberRoom(reply.room);
      dialog.close();
      app.navigate(`#/room/${reply.room.id}`);
    } catch (failure) {
      error.textContent = describeError(failure);
      for (const button of levelButtons) button.disabled = false;
    }
  }

  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  // Focus on the first question, not on a level: Enter alone should not start a game.
  starterGroup.querySelector('input:checked').focus();
  return dialog;
}
