// Stored games: a search by player name or game, and the viewer of one (replay_view.js) that
// steps through it, with its analysis, what-if play and its record as text.
import { h, clear, toast } from './dom.js';
import { t, formatDateTime } from './i18n/index.js';
import { gameIds, gameName } from './catalog.js';
import { getJson, fetchGame } from './api.js';
import { ratedBadge } from './players.js';
import { showViewer, playerNames } from './replay_view.js';

// --- the search ---------------------------------------------------------------------------------
export function showHistoryList(main, app) {
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '');
  const player = h('input', { id: 'history-player', name: 'player', value: params.get('player') ?? app.me()?.name ?? '',
    dataset: { testid: 'history-player' } });
  const game = gameSelect('history-game', params.get('game'));
  const status = h('select', { id: 'history-status', name: 'status' },
    h('option', { value: '' }, t('history.finished_and_playing')), h('option', { value: 'finished' }, t('history.finished')), h('option', { value: 'playing' }, t('history.playing')));
  const list = createGameList('history');

  function search() {
    const query = {};
    if (player.value.trim()) query.player = player.value.trim();
    if (game.value) query.game = game.value;
    if (status.value) query.status = status.value;
    list.show(query);
  }

  main.replaceChildren(h('section', { class: 'history' },
    h('div', { class: 'row history-head' }, h('h1', {}, t('history.title')),
      h('a', { class: 'button quiet small', href: '#/import', dataset: { testid: 'history-import' } }, t('history.import_as_text'))),
    h('form', { class: 'search row', onsubmit: (e) => { e.preventDefault(); search(); } },
      h('div', { class: 'field' }, h('label', { for: 'history-player' }, t('history.player_name')), player),
      h('div', { class: 'field' }, h('label', { for: 'history-game' }, t('lobby.game')), game),
      h('div', { class: 'field' }, h('label', { for: 'history-status' }, t('history.status')), status),
      h('button', { type: 'submit', class: 'primary', dataset: { testid: 'history-search' } }, t('history.search'))),
    list.elements));
  search();
}

// A choice of game, "Any game" first.
export function gameSelect(id, chosen = null) {
  return h('select', { id, name: 'game', dataset: { testid: id } },
    h('option', { value: '' }, t('history.any_game')), gameIds().map((game) => h('option', { value: game, selected: chosen === game || undefined }, gameName(game))));
}

// Stored games matching a query of `GET /api/games`, newest first, 20 at a time with "Older
// games" for the next page. `show(query)` starts again from the newest. Test ids: <testid>-results
// and <testid>-more.
export function createGameList(testid) {
  const results = h('ol', { class: 'games plain', dataset: { testid: `${testid}-results` } });
  const more = h('button', { class: 'quiet', hidden: true, dataset: { testid: `${testid}-more` } }, t('history.older'));
  let query = {};
  let next = null;
  async function load(append) {
    const params = new URLSearchParams({ limit: '20', ...query });
    if (append && next) params.set('before', next);
    try {
      const page = await getJson(`/api/games?${params}`);
      if (!append) clear(results);
      if (!page.games.length && !append) results.append(h('li', { class: 'muted' }, t('history.none')));
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
  const outcome = summary.status !== 'finished' ? t('history.in_progress')
    : winner === null || winner === undefined ? t('history.draw') : t('history.won', { name: names[winner] ?? '?' });
  return h('li', { class: 'game-summary' },
    h('a', { href: `#/history/${summary.id}`, dataset: { testid: `history-game-${summary.id}` } },
      h('strong', {}, gameName(summary.game)), ' · ', names.join(t('history.vs'))),
    summary.rated ? [' ', ratedBadge()] : null,
    h('span', { class: 'muted' }, ` — ${outcome}${when ? `, ${formatDateTime(when)}` : ''}`));
}

// --- the viewer ---------------------------------------------------------------------------------
// #/history/<id>, and #/history/<id>?analyse from the room's result banner, which asks for the
// analysis at once. Returns the function that stops the page when it is left.
export function showReplay(main, app, gameId) {
  main.replaceChildren(h('p', { class: 'muted' }, t('history.loading')));
  const analyse = new URLSearchParams(location.hash.split('?')[1] ?? '').has('analyse');
  let stop = null;
  let left = false;
  fetchGame(gameId).then(({ record, source, positions }) => {
    if (left) return;
    stop = showViewer(main, { record, positions, source, analyse,
      links: [h('a', { href: '#/history' }, t('history.all_games'))] });
  }, (error) => {
    if (!left) main.replaceChildren(h('p', { role: 'alert' }, error.message), h('a', { href: '#/history' }, t('history.back')));
  });
  return () => { left = true; stop?.(); };
}
