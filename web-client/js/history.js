// Stored games: a search by player name or game, and a viewer that steps through any game
// version by version, animating each move from its stored events.
import { h, clear, toast } from './dom.js';
import { gameIds, gameName } from './catalog.js';
import { createBoard, seatLabels } from './boards/index.js';
import { COLORS } from './boards/view.js';
import { seatScore } from './scores.js';
import { roundsTable } from './rounds.js';
import { resultBanner } from './result.js';
import { describeUpdate, historyUpdate } from './moves.js';
import { getJson, fetchGame } from './api.js';
import { clockText } from './clock.js';

const playerNames = (players, game, options) => {
  const labels = seatLabels(game, options);
  const byName = (seat) => (Array.isArray(players) ? players.find((p) => p?.seat === seat)?.name ?? players[seat] : players?.[seat]);
  const plain = labels.map((label, seat) => {
    const name = byName(seat);
    return typeof name === 'string' && name ? name : label;
  });
  // Computers of the same level share a name: they say their seat too, as in the room.
  return plain.map((name, seat) => (plain.filter((other) => other === name).length > 1 ? `${name} (${labels[seat]})` : name));
};

// --- the search ---------------------------------------------------------------------------------
export function showHistoryList(main, app) {
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '');
  const player = h('input', { id: 'history-player', name: 'player', value: params.get('player') ?? app.me()?.name ?? '',
    dataset: { testid: 'history-player' } });
  const game = h('select', { id: 'history-game', name: 'game', dataset: { testid: 'history-game' } },
    h('option', { value: '' }, 'Any game'), gameIds().map((id) => h('option', { value: id, selected: params.get('game') === id || undefined }, gameName(id))));
  const status = h('select', { id: 'history-status', name: 'status' },
    h('option', { value: '' }, 'Finished and playing'), h('option', { value: 'finished' }, 'Finished'), h('option', { value: 'playing' }, 'Playing'));
  const results = h('ol', { class: 'games plain', dataset: { testid: 'history-results' } });
  const more = h('button', { class: 'quiet', hidden: true, dataset: { testid: 'history-more' } }, 'Older games');
  let next = null;

  async function search(append = false) {
    const query = new URLSearchParams({ limit: '20' });
    if (player.value.trim()) query.set('player', player.value.trim());
    if (game.value) query.set('game', game.value);
    if (status.value) query.set('status', status.value);
    if (append && next) query.set('before', next);
    try {
      const page = await getJson(`/api/games?${query}`);
      if (!append) clear(results);
      if (!page.games.length && !append) results.append(h('li', { class: 'muted' }, 'No games found.'));
      for (const summary of page.games) results.append(summaryItem(summary));
      next = page.next;
      more.hidden = !next;
    } catch (error) { toast(error.message); }
  }
  more.addEventListener('click', () => search(true));

  main.replaceChildren(h('section', { class: 'history' },
    h('h1', {}, 'Game history'),
    h('form', { class: 'search row', onsubmit: (e) => { e.preventDefault(); search(); } },
      h('div', { class: 'field' }, h('label', { for: 'history-player' }, 'Player name'), player),
      h('div', { class: 'field' }, h('label', { for: 'history-game' }, 'Game'), game),
      h('div', { class: 'field' }, h('label', { for: 'history-status' }, 'Status'), status),
      h('button', { type: 'submit', class: 'primary', dataset: { testid: 'history-search' } }, 'Search')),
    results, more));
  search();
}

function summaryItem(summary) {
  const names = playerNames(summary.players, summary.game, summary.options);
  const when = summary.finished ?? summary.started;
  const winner = summary.result?.winner;
  const outcome = summary.status !== 'finished' ? 'in progress'
    : winner === null || winner === undefined ? 'draw' : `${names[winner] ?? '?'} won`;
  return h('li', { class: 'game-summary' },
    h('a', { href: `#/history/${summary.id}`, dataset: { testid: `history-game-${summary.id}` } },
      h('strong', {}, gameName(summary.game)), ' · ', names.join(' vs ')),
    h('span', { class: 'muted' }, ` — ${outcome}${when ? `, ${new Date(when).toLocaleString()}` : ''}`));
}

// --- the viewer ---------------------------------------------------------------------------------
export async function showReplay(main, app, gameId) {
  main.replaceChildren(h('p', { class: 'muted' }, 'Loading the game…'));
  let record, states;
  try {
    ({ record, states } = await fetchGame(gameId));
  } catch (error) {
    main.replaceChildren(h('p', { role: 'alert' }, error.message), h('a', { href: '#/history' }, 'Back to the history'));
    return;
  }
  const game = record.game;
  const options = record.options ?? {};
  const names = playerNames(record.players, game, options);
  const turns = new Map((record.turns ?? []).filter((t) => t.version !== undefined).map((t) => [t.version, t]));
  const last = states.length - 1;
  const board = createBoard({ game, options, viewerSeat: null, players: names });
  let version = 0, playing = false;

  const slider = h('input', { type: 'range', min: 0, max: last, value: 0, id: 'replay-slider',
    dataset: { testid: 'replay-slider' }, 'aria-label': 'Version' });
  const where = h('p', { class: 'replay-where', dataset: { testid: 'replay-where' }, 'aria-live': 'polite' });
  const caption = h('p', { class: 'caption', dataset: { testid: 'replay-caption' } });
  const seatsBox = h('ol', { class: 'seats' });
  const scoreBox = h('div', { class: 'score-box' });
  const control = (text, testid, target) => h('button', { dataset: { testid }, 'aria-label': text,
    onclick: () => go(target()) }, text);
  board.onCaption = (text) => { caption.textContent = text; };

  main.replaceChildren(h('section', { class: 'replay' },
    h('header', { class: 'room-head' }, h('h1', {}, `${gameName(game)}: ${names.join(' vs ')}`),
      h('a', { href: '#/history' }, 'All games')),
    h('div', { class: 'room-body' },
      h('div', { class: 'play-area' }, board.element, caption,
        h('div', { class: 'replay-controls row' },
          control('« First', 'replay-first', () => 0),
          control('‹ Previous', 'replay-prev', () => version - 1),
          control('Next ›', 'replay-next', () => version + 1),
          control('Last »', 'replay-last', () => last)),
        slider, where),
      h('aside', { class: 'side' }, seatsBox, scoreBox))));
  slider.addEventListener('input', () => go(Number(slider.value)));

  async function go(target) {
    target = Math.max(0, Math.min(last, target));
    if (playing || target === version && board.shown) return;
    const step = target === version + 1;
    version = target;
    slider.value = String(version);
    renderInfo();
    if (step) {
      playing = true;
      await board.play(turns.get(version)?.events ?? [], states[version - 1], states[version]);
      playing = false;
    } else board.show(states[version]);
    board.shown = true;
    caption.textContent = describeStep(version);
  }

  function describeStep(v) {
    if (v === 0) return 'The starting position.';
    const turn = turns.get(v);
    return turn ? describeUpdate(game, historyUpdate(turn), names) : '';
  }

  function renderInfo() {
    const state = states[version];
    where.textContent = `Move ${version} of ${last}`;
    seatsBox.replaceChildren(...names.map((name, seat) => {
      const score = seatScore(game, options, state, seat);
      // Each seat in its colour on the board, as in the room.
      return h('li', { class: `seat${state.to_move === seat ? ' to-move' : ''}`, style: `--seat: ${COLORS[seat]}` },
        h('span', { class: 'seat-name' }, name),
        score ? h('span', { class: 'seat-score' }, h('strong', {}, score.value), ` ${score.unit}`) : null,
        // The clock as it stood right after this version.
        state.clock ? h('span', { class: 'clock', dataset: { testid: `replay-clock-${seat}` } }, clockText(state.clock.remaining_ms[seat])) : null);
    }));
    scoreBox.replaceChildren(...[state.result ? resultBanner({ game, options, state, names,
      lastUpdate: turns.get(version) ? historyUpdate(turns.get(version)) : null }) : null,
      roundsTable(state.rounds, names)].filter(Boolean));
  }

  renderInfo();
  board.show(states[0]);
  board.shown = true;
  caption.textContent = describeStep(0);
}
