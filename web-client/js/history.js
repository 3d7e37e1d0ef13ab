// Stored games: a search by player name or game, and a viewer that steps through any game
// version by version, animating each move from its stored events, with the game's chat beside.
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
import { ratedBadge, nameLink, playerMarks } from './players.js';
import { playerProfile } from './account_api.js';
import { createReplayChat } from './replay_chat.js';

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

// The person at each seat as the record lists them, completed from their profile: an account or
// a guest, and their rating in this game now. The profile is asked by player id where the record
// gives one, else by name (which finds accounts only: their names are unique).
async function seatPeople(players, count, game) {
  return Promise.all(Array.from({ length: count }, async (_, seat) => {
    const entry = Array.isArray(players) ? players.find((p) => p?.seat === seat) ?? players[seat] : players?.[seat];
    const player = typeof entry === 'string' ? { name: entry } : entry;
    const key = player?.player_id ?? player?.name;
    if (!key || player.bot || String(player.player_id).startsWith('bot-')) return player ?? null;
    const profile = await playerProfile(key).catch(() => null);
    return profile ? { ...player, player_id: profile.player_id, name: profile.name, account: profile.account, ...profile.ratings?.[game] } : player;
  }));
}

// --- the search ---------------------------------------------------------------------------------
export function showHistoryList(main, app) {
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '');
  const player = h('input', { id: 'history-player', name: 'player', value: params.get('player') ?? app.me()?.name ?? '',
    dataset: { testid: 'history-player' } });
  const game = gameSelect('history-game', params.get('game'));
  const status = h('select', { id: 'history-status', name: 'status' },
    h('option', { value: '' }, 'Finished and playing'), h('option', { value: 'finished' }, 'Finished'), h('option', { value: 'playing' }, 'Playing'));
  const list = createGameList('history');

  function search() {
    const query = {};
    if (player.value.trim()) query.player = player.value.trim();
    if (game.value) query.game = game.value;
    if (status.value) query.status = status.value;
    list.show(query);
  }

  main.replaceChildren(h('section', { class: 'history' },
    h('h1', {}, 'Game history'),
    h('form', { class: 'search row', onsubmit: (e) => { e.preventDefault(); search(); } },
      h('div', { class: 'field' }, h('label', { for: 'history-player' }, 'Player name'), player),
      h('div', { class: 'field' }, h('label', { for: 'history-game' }, 'Game'), game),
      h('div', { class: 'field' }, h('label', { for: 'history-status' }, 'Status'), status),
      h('button', { type: 'submit', class: 'primary', dataset: { testid: 'history-search' } }, 'Search')),
    list.elements));
  search();
}

// A choice of game, "Any game" first.
export function gameSelect(id, chosen = null) {
  return h('select', { id, name: 'game', dataset: { testid: id } },
    h('option', { value: '' }, 'Any game'), gameIds().map((game) => h('option', { value: game, selected: chosen === game || undefined }, gameName(game))));
}

// Stored games matching a query of `GET /api/games`, newest first, 20 at a time with "Older
// games" for the next page. `show(query)` starts again from the newest. Test ids: <testid>-results
// and <testid>-more.
export function createGameList(testid) {
  const results = h('ol', { class: 'games plain', dataset: { testid: `${testid}-results` } });
  const more = h('button', { class: 'quiet', hidden: true, dataset: { testid: `${testid}-more` } }, 'Older games');
  let query = {};
  let next = null;
  async function load(append) {
    const params = new URLSearchParams({ limit: '20', ...query });
    if (append && next) params.set('before', next);
    try {
      const page = await getJson(`/api/games?${params}`);
      if (!append) clear(results);
      if (!page.games.length && !append) results.append(h('li', { class: 'muted' }, 'No games found.'));
      for (const summary of page.games) results.append(summaryItem(summary));
      next = page.next;
      more.hidden = !next;
    } catch (error) { toast(error.message); }
  }
  more.addEventListener('click', () => load(true));
  return { elements: [results, more], show(wanted) { query = wanted; next = null; return load(false); } };
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
    summary.rated ? [' ', ratedBadge()] : null,
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
  let people = [];             // by seat, once their profiles are known (seatPeople)
  // The chat its viewer could read live; none from a server before chat.
  const chat = Array.isArray(record.chat) ? createReplayChat(record, (target) => go(target)) : null;

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
      h('aside', { class: 'side' }, seatsBox, scoreBox, chat?.element))));
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
    chat?.show(version);
    seatsBox.replaceChildren(...names.map((name, seat) => {
      const score = seatScore(game, options, state, seat);
      // Each seat in its colour on the board, as in the room.
      return h('li', { class: `seat${state.to_move === seat ? ' to-move' : ''}`, style: `--seat: ${COLORS[seat]}` },
        h('span', { class: 'seat-name', dataset: { testid: `replay-name-${seat}` } }, people[seat] ? nameLink(people[seat], name) : name),
        people[seat] ? playerMarks(people[seat], { testid: `replay-rating-${seat}` }) : null,
        score ? h('span', { class: 'seat-score' }, h('strong', {}, score.value), ` ${score.unit}`) : null,
        // The clock as it stood right after this version.
        state.clock ? h('span', { class: 'clock', dataset: { testid: `replay-clock-${seat}` } }, clockText(state.clock.remaining_ms[seat])) : null);
    }));
    scoreBox.replaceChildren(...[state.result ? resultBanner({ game, options, state, names,
      lastUpdate: turns.get(version) ? historyUpdate(turns.get(version)) : null }) : null,
      roundsTable(state.rounds, names)].filter(Boolean));
  }

  renderInfo();
  seatPeople(record.players, names.length, game).then((found) => { people = found; renderInfo(); });
  board.show(states[0]);
  board.shown = true;
  caption.textContent = describeStep(0);
}
