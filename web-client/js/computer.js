// Playing the computer. The lobby's "Play the computer" card has one button per game (first
// click); it opens a dialog where a click on a level starts the game (second click). Before that
// the player may say who starts, how many computer opponents sit at a table for more than two,
// and change the game's options behind "More options" (the same fields as the room form, from
// options.js). The room is created with every other seat given to a computer, so it starts at
// once. Also here: how rooms and room cards show a computer's seat.
import { h, s } from './dom.js';
import { t } from './i18n/index.js';
import { gameIds, gameName, gameType } from './catalog.js';
import { GAMES } from './boards/index.js';
import { gameOptions, optionsFieldset } from './options.js';
import { describeError } from './errors.js';

// The protocol's five levels: 1 plays random legal moves, each level above beats the one below,
// 5 is the strongest the server offers.
export const LEVELS = [
  { level: 1, get word() { return t('computer.level_1'); }, get hint() { return t('computer.hint_1'); } },
  { level: 2, get word() { return t('computer.level_2'); }, get hint() { return t('computer.hint_2'); } },
  { level: 3, get word() { return t('computer.level_3'); }, get hint() { return t('computer.hint_3'); } },
  { level: 4, get word() { return t('computer.level_4'); }, get hint() { return t('computer.hint_4'); } },
  { level: 5, get word() { return t('computer.level_5'); }, get hint() { return t('computer.hint_5'); } },
];
export const levelWord = (level) => LEVELS[level - 1]?.word ?? t('computer.computer');
export const levelLabel = (level) => `${level} · ${levelWord(level)}`;

// A seat's `bot` field is the computer's level (1–5), or false for a person.
export const botLevel = (seat) => (Number.isInteger(seat?.bot) && seat.bot > 0 ? seat.bot : 0);
export const occupied = (seat) => Boolean(seat?.player_id) || botLevel(seat) > 0;
// A computer is named here, in the player's language, from its level: the server's name for it
// ("Computer, level 3") is English.
export const seatName = (seat) => (botLevel(seat) ? t('computer.at_level', { n: botLevel(seat) }) : seat?.name || '');

// A name of a stored game's players, where a computer has no level field, only the server's
// name, which is always "Computer, level <n>" (engine/src/bot.cpp).
export function playerName(name) {
  const level = /^Computer, level (\d)$/.exec(name ?? '')?.[1];
  return level ? t('computer.at_level', { n: Number(level) }) : name;
}

export function computerIcon() {
  return s('svg', { class: 'bot-icon', viewBox: '0 0 16 16', width: 18, height: 18, 'aria-hidden': 'true' },
    s('rect', { x: 1.5, y: 2, width: 13, height: 9, rx: 1.5 }),
    s('rect', { x: 3.5, y: 4, width: 9, height: 5, rx: .5, class: 'bot-screen' }),
    s('path', { d: 'M5.5 14h5M8 11v3' }));
}

// --- who starts -----------------------------------------------------------------------------
const STARTERS = [
  { value: 'you', label: 'computer.starts_you' },
  { value: 'computer', label: 'computer.starts_computer' },
  { value: 'random', label: 'computer.starts_random' },
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
    h('h2', { id: 'play-computer-title' }, t('computer.title')),
    h('p', { class: 'muted' }, t('computer.intro')),
    h('div', { class: 'game-buttons' }, gameIds().map((game) => h('button', {
      type: 'button', class: 'game-button', 'aria-label': t('computer.play_game', { game: gameName(game) }),
      dataset: { testid: `play-computer-${game}` }, onclick: () => openPlayComputer(app, game),
    }, computerIcon(), h('span', {}, gameName(game)), playerCount(game)))));
}

function playerCount(game) {
  const type = gameType(game);
  if (!type || type.max_players <= 2) return null;
  return h('small', {}, t('computer.players', { min: type.min_players, max: type.max_players }));
}

// --- the dialog -----------------------------------------------------------------------------
export function openPlayComputer(app, game) {
  const type = gameType(game);
  const players = playersOption(game);
  const manySeats = players && type && type.max_players > type.min_players;
  let starter = 'you';

  const starterGroup = h('fieldset', { class: 'segmented', dataset: { testid: 'bot-starter' } },
    h('legend', {}, t('computer.who_starts')),
    STARTERS.map(({ value, label }) => h('label', {},
      h('input', { type: 'radio', name: 'bot-starter', value, checked: value === starter || undefined,
        dataset: { testid: `bot-starter-${value}` }, onchange: () => { starter = value; fields.refresh(); } }),
      h('span', {}, t(label)))));

  const opponents = manySeats ? h('select', { id: 'bot-opponents', dataset: { testid: 'bot-opponents' } },
    Array.from({ length: type.max_players - type.min_players + 1 }, (_, i) => {
      const n = type.min_players - 1 + i;
      return h('option', { value: n }, t('computer.computers', { count: n }));
    })) : null;
  const seatTotal = () => (opponents ? Number(opponents.value) + 1 : Number(players?.default ?? type?.min_players ?? 2));

  // The options asked above (players, first player) are left out of the fold and fixed here.
  // A random start the game cannot draw itself is drawn here, once per dialog.
  const draw = Math.random();
  const seatAndStart = () => seating(game, starter, seatTotal(), () => draw);
  const fixed = () => ({ ...(manySeats ? { players: seatTotal() } : {}), ...seatAndStart().fixed });
  const fields = optionsFieldset(game, { omit: ['players', 'first_player'], fixed, idPrefix: 'bot-opt',
    empty: t('computer.no_other_options') });
  opponents?.addEventListener('change', () => fields.refresh());

  const error = h('p', { class: 'dialog-error', role: 'alert', dataset: { testid: 'bot-error' } });
  const levelButtons = LEVELS.map(({ level, hint }) => h('button', {
    type: 'button', class: 'level', dataset: { testid: `bot-level-${level}` }, onclick: () => start(level),
  }, h('strong', {}, levelLabel(level)), h('small', {}, hint)));

  const dialog = h('dialog', { class: 'bot-dialog', 'aria-labelledby': 'bot-dialog-title', dataset: { testid: 'bot-dialog' } },
    h('form', { class: 'bot-form', onsubmit: (event) => event.preventDefault() },
      h('h2', { id: 'bot-dialog-title' }, t('computer.play_game', { game: gameName(game) })),
      GAMES[game] ? h('p', { class: 'muted' }, GAMES[game].rules.blurb) : null,
      starterGroup,
      opponents ? h('div', { class: 'field' }, h('label', { for: 'bot-opponents' }, t('computer.opponents')), opponents,
        h('small', {}, t('computer.opponents_help'))) : null,
      h('details', { class: 'more-options', dataset: { testid: 'bot-more-options' } },
        h('summary', {}, t('computer.more_options')), fields.element),
      h('fieldset', { class: 'levels' }, h('legend', {}, t('computer.level_legend')), levelButtons),
      error,
      h('div', { class: 'dialog-actions' },
        h('button', { type: 'button', class: 'quiet', dataset: { testid: 'bot-cancel' }, onclick: () => dialog.close() }, t('computer.cancel')))));

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
