// The profile's "Tournaments won" (issue 48): each finished tournament where the player's score
// was the best (the server's tournaments_won, latest first), with a trophy, its game, kind and
// end, linked to its page. Nothing at all for a player who has won none.
import { h, s } from './dom.js';
import { t, formatDateTime } from './i18n/index.js';
import { gameName } from './catalog.js';
import { kindName } from './tournaments_api.js';

export function tournamentsWon(won) {
  if (!won?.length) return null;
  return h('section', { class: 'tournaments-won', dataset: { testid: 'profile-tournaments-won' } },
    h('h2', {}, trophy(20), t('profile.tournaments_won')),
    h('ul', { class: 'plain' }, won.map(wonItem)));
}

function wonItem(tournament) {
  const when = tournament.ends_at || tournament.starts_at;
  return h('li', { class: 'tournament-won', dataset: { testid: `won-${tournament.id}` } },
    trophy(16),
    h('span', { class: 'tournament-won-text' },
      h('a', { href: `#/tournaments/${encodeURIComponent(tournament.id)}`, dataset: { testid: `won-link-${tournament.id}` } },
        tournament.name),
      h('span', { class: 'muted' },
        ` · ${[gameName(tournament.game), kindName(tournament.kind)].join(' · ')}`,
        tournament.rated ? ` · ${t('players.rated')}` : '', ' · ',
        h('time', { datetime: when }, t('profile.tournaments_won_ended', { when: formatDateTime(when, { dateStyle: 'medium' }) })))));
}

// Drawn, not an emoji: not every device has a font with one (headless Chromium has none).
function trophy(size) {
  return s('svg', { class: 'trophy', viewBox: '0 0 16 16', width: size, height: size, 'aria-hidden': 'true' },
    s('path', { class: 'trophy-cup', d: 'M4 1.5h8v4.2a4 4 0 0 1-8 0z' }),
    s('path', { class: 'trophy-handles', d: 'M4 2.8H1.8v1.4A2.6 2.6 0 0 0 4.4 6.8M12 2.8h2.2v1.4a2.6 2.6 0 0 1-2.6 2.6',
      fill: 'none', 'stroke-width': 1.3 }),
    s('path', { class: 'trophy-cup', d: 'M7.1 9.5h1.8v2.6H7.1zM4.8 12.1h6.4v2.4H4.8z' }));
}
