// A game's leaderboard (#/leaderboard/<game>): the best rated accounts whose rating has
// settled (the server lists the top 50), with rank, name (a link to the profile), rating,
// deviation and rated games; a tab per game. The player's own line is marked.
import { h } from './dom.js';
import { gameIds, gameName } from './catalog.js';
import { leaderboard } from './account_api.js';
import { ratingLabel, deviationLabel } from './ratings.js';
import { nameLink } from './players.js';
import { t } from './i18n/index.js';

export function showLeaderboard(main, app, wanted) {
  const game = gameIds().includes(wanted) ? wanted : gameIds()[0];
  const body = h('div', { class: 'leaderboard-body' }, h('p', { class: 'muted' }, t('leaderboard.loading')));
  main.replaceChildren(h('section', { class: 'leaderboard', dataset: { testid: 'leaderboard' } },
    h('h1', {}, t('leaderboard.title', { game: gameName(game) })),
    h('nav', { class: 'tabs', 'aria-label': t('leaderboard.games_nav') }, gameIds().map((id) => h('a', { href: `#/leaderboard/${encodeURIComponent(id)}`,
      class: 'tab', 'aria-current': id === game ? 'page' : undefined, dataset: { testid: `leaderboard-tab-${id}` } }, gameName(id)))),
    body));
  leaderboard(game).then(({ players }) => {
    body.replaceChildren(players.length ? table(players, app) : h('p', { class: 'muted', dataset: { testid: 'leaderboard-empty' } },
      t('leaderboard.empty', { game: gameName(game) })));
  }, (error) => body.replaceChildren(h('p', { role: 'alert' }, t('leaderboard.cannot_load', { why: error.message }))));
}

function table(players, app) {
  const me = app.me()?.player_id;
  return h('table', { class: 'leaderboard-table', dataset: { testid: 'leaderboard-table' } },
    h('caption', { class: 'muted' }, t('leaderboard.caption')),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, t('leaderboard.player')),
      h('th', { scope: 'col', class: 'number' }, t('leaderboard.rating')), h('th', { scope: 'col', class: 'number' }, '±'),
      h('th', { scope: 'col', class: 'number' }, t('leaderboard.games')))),
    h('tbody', {}, players.map((player, i) => h('tr', { class: player.player_id === me ? 'mine' : undefined,
      dataset: { testid: `leader-${player.player_id}` } },
    h('td', { class: 'rank' }, String(i + 1)),
    h('td', { class: 'player' }, nameLink({ ...player, account: true })),
    h('td', { class: 'number' }, ratingLabel({ rating: player.rating, provisional: false })),
    h('td', { class: 'number muted' }, deviationLabel(player.deviation).slice(1)),
    h('td', { class: 'number' }, String(player.games))))));
}
