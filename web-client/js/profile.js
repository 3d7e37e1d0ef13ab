// A player's profile (#/player/<account name or player id>): the name (a guest marked so), for
// each game played rated the rating ("1500?" while provisional), its deviation, the number of
// games and a graph of the rating over time whose points open the games; the totals played, won,
// drawn and lost; the tournaments won; and the player's games, a page at a time, filtered by game.
import { h } from './dom.js';
import { t } from './i18n/index.js';
import { gameName } from './catalog.js';
import { playerProfile } from './account_api.js';
import { ratingLabel, ratingTitle, deviationLabel } from './ratings.js';
import { ratingGraph } from './rating_graph.js';
import { guestMark } from './players.js';
import { createGameList, gameSelect } from './history.js';
import { openAccountDialog } from './account_forms.js';
import { tournamentsWon } from './profile_tournaments.js';

export function showProfile(main, app, nameOrId) {
  const page = h('section', { class: 'profile', dataset: { testid: 'profile' } }, h('p', { class: 'muted' }, t('profile.loading')));
  main.replaceChildren(page);
  // Each graph is drawn at its box's width, and again when that changes.
  const observer = new ResizeObserver((entries) => {
    for (const entry of entries) entry.target.redraw?.();
  });
  playerProfile(nameOrId).then((profile) => {
    if (!page.isConnected) return;
    page.replaceChildren(...profileParts(profile, app, (box) => observer.observe(box)).filter(Boolean));
  }, (error) => {
    page.replaceChildren(h('h1', {}, t('profile.title')), h('p', { role: 'alert', dataset: { testid: 'profile-missing' } },
      error.status === 404 ? t('profile.missing', { name: nameOrId }) : t('profile.cannot_load', { why: error.message })),
    h('a', { href: '#/' }, t('profile.to_lobby')));
  });
  return () => observer.disconnect();
}

function profileParts(profile, app, watch) {
  const mine = app.me()?.player_id === profile.player_id;
  const rated = Object.entries(profile.ratings ?? {});
  const totals = profile.games ?? {};
  return [
    h('header', { class: 'profile-head' },
      h('h1', { dataset: { testid: 'profile-name' } }, profile.name),
      profile.account ? null : guestMark(),
      h('p', { class: 'profile-totals', dataset: { testid: 'profile-totals' } },
        t('profile.totals', { count: totals.played ?? 0, won: totals.won ?? 0, drawn: totals.drawn ?? 0, lost: totals.lost ?? 0 }))),
    profile.account ? null : h('p', { class: 'muted' }, t('profile.guest'),
      mine ? [' ', h('button', { type: 'button', class: 'primary small', onclick: () => openAccountDialog(app, 'signup') }, t('profile.sign_up'))] : null),
    rated.length ? h('div', { class: 'rating-cards' }, rated.map(([game, rating]) =>
      ratingCard(game, rating, profile.rating_history?.[game] ?? [], watch)))
      : profile.account ? h('p', { class: 'muted', dataset: { testid: 'no-ratings' } }, t('profile.no_ratings')) : null,
    tournamentsWon(profile.tournaments_won),
    gamesSection(profile),
  ];
}

function ratingCard(game, rating, history, watch) {
  const box = h('div', { class: 'graph-box' });
  let drawn = 0;
  // Drawn at the box's width (labels keep their size on a phone); again when it changes.
  box.redraw = () => {
    const width = Math.floor(box.clientWidth);
    if (!width || Math.abs(width - drawn) < 2) return;
    drawn = width;
    box.replaceChildren(ratingGraph(history, { width, height: width < 400 ? 180 : 220,
      label: t('profile.graph_label', { game: gameName(game) }), testid: `rating-graph-${game}` }));
  };
  watch(box);
  return h('article', { class: 'rating-card', dataset: { testid: `rating-${game}` } },
    h('h2', {}, h('a', { href: `#/leaderboard/${encodeURIComponent(game)}`, title: t('leaderboard.title', { game: gameName(game) }) }, gameName(game))),
    h('p', { class: 'rating-line' },
      h('strong', { class: 'rating-big', title: ratingTitle(rating), dataset: { testid: `rating-value-${game}` } }, ratingLabel(rating)),
      h('span', { class: 'muted' }, ` ${deviationLabel(rating.deviation)} · ${t('profile.rated_games', { count: rating.games ?? 0 })}`)),
    // The "?" and the "±" in words, not only in a tooltip (issue 49).
    h('p', { class: 'muted rating-words', dataset: { testid: `rating-words-${game}` } },
      t(rating.provisional ? 'ratings.words_provisional' : 'ratings.words', { deviation: Math.round(rating.deviation ?? 0) })),
    box);
}

function gamesSection(profile) {
  const list = createGameList('profile-games');
  const game = gameSelect('profile-game');
  const show = () => list.show({ player_id: profile.player_id, ...(game.value ? { game: game.value } : {}) });
  game.addEventListener('change', show);
  show();
  return h('section', { class: 'profile-games' },
    h('div', { class: 'row games-head' }, h('h2', {}, t('profile.games')),
      h('label', { for: 'profile-game', class: 'visually-hidden' }, t('profile.game')), game),
    list.elements);
}
