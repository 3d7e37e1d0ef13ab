// Quick pairing (protocol "Quick pairing", issue 47): the lobby's card of one-click set-ups per
// game (a quick clock, a longer one, a day per move, and "Custom" for the room form), how many
// players are here per game, the seeks waiting now (one click seeks the same), and the player's
// own waiting seek with its Cancel button and, after a while, the offer to play the computer
// meanwhile. The seeks live in this module, not the page: a player who plays the computer while
// waiting is taken to the paired game when it starts.
import { h, morph, toast } from './dom.js';
import { t, aboutSpan } from './i18n/index.js';
import { gameIds, gameName, gameType } from './catalog.js';
import { GAMES } from './boards/index.js';
import { describeError } from './errors.js';
import { openPlayComputer } from './computer.js';
import { timeControlText } from './clock.js';

// After this long without an opponent the card offers the computer meanwhile.
export const OFFER_COMPUTER_AFTER_MS = 20000;

// Each game's set-ups: a quick clock, a longer one, a day per move; a game module may have its
// own (`pairingClocks`, boards/).
const CLOCKS = [
  { id: 'quick', clock: { initial_s: 180, increment_s: 2 } },
  { id: 'long', clock: { initial_s: 600, increment_s: 5 } },
  { id: 'daily', clock: { per_move_s: 86400 } },
];
const presetsOf = (game) => GAMES[game]?.pairingClocks ?? CLOCKS;
const shortClock = (clock) => (clock.per_move_s ? t('clock.days', { count: clock.per_move_s / 86400 }) : `${clock.initial_s / 60}+${clock.increment_s}`);

// A seek's kind as the list shows it: game, clock, rated (the server lists options resolved,
// with their defaults, so a seek sent with none would not match its own entry).
const kindOf = (seek) => JSON.stringify([seek.game, seek.clock ?? null, Boolean(seek.rated)]);

const state = {
  app: null,
  seeks: new Map(),   // seek id -> { message, since, heldUntil }
  latest: null,       // the last `seeks` message
  redraws: new Set(), // the cards on screen
};
const redraw = () => { for (const draw of state.redraws) draw(); };

// Once per page: the paired room, the seeks list, and the seeks again after a reconnect (the
// server ends a player's seeks when their last connection closes).
function install(app) {
  if (state.app) return;
  state.app = app;
  app.conn.on('seeks', (message) => { state.latest = message; redraw(); });
  app.conn.on('room', (message) => {
    const room = message.room;
    const mine = room?.seats?.some((seat) => seat.player_id === app.me()?.player_id);
    // The pairing's room comes unsolicited, started, at version 0; every seek of ours ended.
    if (message.id !== undefined || !state.seeks.size || !mine || room.status !== 'playing' || room.version !== 0) return;
    state.seeks.clear();
    redraw();
    app.navigate(`#/room/${room.id}`);
  });
  // The pairing's room could not be made: the seeks ended with it; the player seeks again.
  app.conn.on('error', (message) => {
    if (message.id !== undefined || !message.paired) return;
    state.seeks.clear();
    redraw();
    toast(message.message);
  });
  app.conn.on('welcome', () => {
    const again = [...state.seeks.values()];
    state.seeks.clear();
    for (const { message, since } of again) startSeek(app, message, since);
    app.conn.request({ type: 'watch_seeks' }).catch(() => {});
  });
  if (app.conn.online) app.conn.request({ type: 'watch_seeks' }).catch(() => {});
}

async function startSeek(app, message, since = Date.now()) {
  try {
    const reply = await app.conn.request(message, { resend: false });
    // Paired at once: the room may have come before this reply (then nothing is waiting).
    // The mild playban holds a seek back (`delayed_s`): the card says why and for how long.
    const heldUntil = reply.delayed_s ? Date.now() + reply.delayed_s * 1000 : 0;
    state.seeks.set(reply.seek, { message, since, heldUntil });
    redraw();
  } catch (error) { toast(describeError(error)); }
}

async function cancelSeek(app, id) {
  state.seeks.delete(id);
  redraw();
  try { await app.conn.request({ type: 'cancel_seek', seek: id }); } catch (error) {
    if (error.code !== 'not_found') toast(describeError(error));  // not_found: it ended already
  }
}

export function quickPairingCard(app) {
  install(app);
  const rated = h('input', { type: 'checkbox', id: 'qp-rated', disabled: !app.isAccount(), dataset: { testid: 'qp-rated' } });
  const seekMessage = (game, clock) => ({ type: 'seek', game, options: {}, clock, rated: rated.checked });

  const here = new Map();  // game -> its "N here" node
  const rows = gameIds().map((game) => {
    const count = h('small', { class: 'qp-here', dataset: { testid: `qp-here-${game}` } });
    here.set(game, count);
    return h('div', { class: 'qp-game', dataset: { testid: `qp-game-${game}` } },
      h('span', { class: 'qp-name' }, gameName(game), ' ', count),
      h('span', { class: 'qp-presets' },
        presetsOf(game).map(({ id, clock }) => h('button', {
          type: 'button', class: 'qp-preset', title: `${gameName(game)}, ${timeControlText(clock)}`,
          'aria-label': t('pairing.seek', { game: gameName(game), clock: timeControlText(clock) }), dataset: { testid: `qp-${game}-${id}` },
          onclick: () => startSeek(app, seekMessage(game, clock)),
        }, shortClock(clock))),
        h('button', { type: 'button', class: 'qp-preset quiet', dataset: { testid: `qp-${game}-custom` },
          'aria-label': t('pairing.custom_label', { game: gameName(game) }), onclick: () => openRoomForm(game) }, t('pairing.custom'))));
  });

  const waiting = h('div', { class: 'qp-waiting', 'aria-live': 'polite', dataset: { testid: 'qp-waiting' } });
  const open = h('div', { class: 'qp-open', dataset: { testid: 'qp-open-seeks' } });

  function drawWaiting() {
    const now = Date.now();
    // Redrawn every second for its clock: morph keeps the focused Cancel button in place.
    morph(waiting, [...state.seeks].map(([id, { message, since, heldUntil }]) => {
      const seconds = Math.floor((now - since) / 1000);
      const offer = now - since >= OFFER_COMPUTER_AFTER_MS;
      const held = heldUntil > now ? h('p', { class: 'muted', dataset: { testid: 'qp-held' } },
        t('pairing.held_back', { span: aboutSpan(Math.ceil((heldUntil - now) / 1000)) })) : null;
      return h('div', { class: 'qp-seek', dataset: { testid: `qp-seek-${id}` } },
        h('p', { class: 'row' },
          h('span', { class: 'spinner', 'aria-hidden': 'true' }),
          h('span', {}, t(message.rated ? 'pairing.looking_rated' : 'pairing.looking', { game: gameName(message.game),
            clock: timeControlText(message.clock), time: `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}` })),
          h('button', { type: 'button', class: 'quiet', dataset: { testid: 'qp-cancel' }, onclick: () => cancelSeek(app, id) }, t('computer.cancel'))),
        held,
        offer ? h('p', { class: 'qp-offer', dataset: { testid: 'qp-offer' } },
          `${t('pairing.nobody_yet')} `,
          h('button', { type: 'button', dataset: { testid: 'qp-play-computer' }, onclick: () => openPlayComputer(app, message.game) },
            t('pairing.play_computer_meanwhile'))) : null);
    }));
  }

  function drawOpen() {
    const latest = state.latest;
    for (const [game, node] of here) {
      const n = latest?.online?.[game] ?? 0;
      node.textContent = latest ? t('pairing.here', { count: n }) : '';
    }
    const ours = new Set([...state.seeks.values()].map(({ message }) => kindOf(message)));
    const entries = (latest?.seeks ?? []).filter((entry) => !ours.has(kindOf(entry)));
    // replaceChildren writes a null as the text "null": only the nodes there are.
    open.replaceChildren(...[entries.length ? h('h3', {}, t('pairing.waiting_now')) : null,
      entries.length ? h('ul', { class: 'plain' }, entries.map((entry, i) => h('li', { class: 'row' },
        h('span', {}, `${gameName(entry.game)} · ${entry.clock ? timeControlText(entry.clock) : t('clock.none')}`,
          entry.rated ? ` · ${t('players.rated')}` : '', tableWords(entry), ` · ${t('pairing.waiting', { count: entry.waiting })}`),
        h('button', { type: 'button', dataset: { testid: `qp-accept-${i}` },
          disabled: entry.rated && !app.isAccount(),
          onclick: () => startSeek(app, { type: 'seek', game: entry.game, options: entry.options, clock: entry.clock,
            rated: entry.rated, seats: entry.seats }) }, t('pairing.play'))))) : null].filter(Boolean));
  }

  const draw = () => { drawWaiting(); drawOpen(); };
  state.redraws.add(draw);
  const ticker = setInterval(() => { if (state.seeks.size) drawWaiting(); }, 1000);
  draw();

  const element = h('section', { class: 'quick-pairing', 'aria-labelledby': 'qp-title', dataset: { testid: 'quick-pairing' } },
    h('div', { class: 'qp-head' }, h('h2', { id: 'qp-title' }, t('pairing.title')),
      h('span', { class: 'field check' }, rated, h('label', { for: 'qp-rated' }, t(app.isAccount() ? 'lobby.rated' : 'lobby.rated_accounts_only')))),
    h('p', { class: 'muted qp-help' }, t('pairing.help')),
    h('div', { class: 'qp-games' }, rows),
    tableRules(),
    waiting, open);
  return { element, stop: () => { state.redraws.delete(draw); clearInterval(ticker); } };
}

const tableGame = (game) => (gameType(game)?.max_players ?? 2) > (gameType(game)?.min_players ?? 2);

function tableWords(entry) {
  if (!tableGame(entry.game) || !entry.seats?.length) return '';
  const sizes = entry.seats;
  return ` · ${sizes.length === 1 ? t('pairing.table_of', { n: sizes[0] }) : t('pairing.tables_of', { min: sizes[0], max: sizes[sizes.length - 1] })}`;
}

// The table rule of the games for more than two (protocol README "Quick pairing"), in words.
function tableRules() {
  return gameIds().filter(tableGame).map((game) => {
    const { min_players: min, max_players: max } = gameType(game);
    return h('p', { class: 'muted qp-tables', dataset: { testid: `qp-table-rule-${game}` } },
      t('pairing.table_rule', { game: gameName(game), min, max, fewer: max - 1, after: 15 * (max - min) }));
  });
}

// "Custom": the room form below, with this game chosen.
function openRoomForm(game) {
  const select = document.getElementById('new-game');
  if (!select) return;
  select.value = game;
  select.dispatchEvent(new Event('change'));
  select.closest('form')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  select.focus({ preventScroll: true });
}
