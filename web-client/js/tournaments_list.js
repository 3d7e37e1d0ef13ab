// The tournaments' list (#/tournaments, issue 48): upcoming, running and finished, each with its
// game, kind, clock, start in the viewer's own time and language, and how many have joined; and
// for a signed-in account the form that creates one (tournaments_form.js).
import { h } from './dom.js';
import { t, formatDateTime } from './i18n/index.js';
import { gameName } from './catalog.js';
import { listTournaments, describeTournamentError, kindName, clockWords } from './tournaments_api.js';
import { tournamentForm } from './tournaments_form.js';

const SECTIONS = ['running', 'upcoming', 'finished'];

export function showTournamentList(main, app) {
  let stopped = false;
  const sections = SECTIONS.map((status) => {
    const body = h('div', { class: 'tournament-list', dataset: { testid: `tournaments-${status}` } },
      h('p', { class: 'muted' }, t('tournaments.loading')));
    const element = h('section', { class: 'tournament-section' }, h('h2', {}, t(`tournaments.section_${status}`)), body);
    return { status, body, element };
  });
  main.replaceChildren(h('section', { class: 'tournaments', dataset: { testid: 'tournaments' } },
    h('div', { class: 'tournaments-lists' }, h('h1', {}, t('tournaments.title')), h('p', { class: 'muted' }, t('tournaments.intro')),
      ...sections.map((section) => section.element)),
    app.isAccount() ? tournamentForm(app)
      : h('aside', { class: 'create tournament-form-off', dataset: { testid: 'tournament-form-off' } },
        h('h2', {}, t('tournaments.create_title')), h('p', { class: 'muted' }, t('tournaments.create_accounts_only')))));

  for (const section of sections) {
    listTournaments(section.status).then(({ tournaments }) => {
      if (stopped) return;
      section.body.replaceChildren(tournaments.length
        ? h('ul', { class: 'plain' }, tournaments.map(card))
        : h('p', { class: 'muted' }, t(`tournaments.none_${section.status}`)));
    }).catch((error) => {
      if (!stopped) section.body.replaceChildren(h('p', { role: 'alert' }, describeTournamentError(error)));
    });
  }
  return () => { stopped = true; };
}

function card(tournament) {
  const when = tournament.status === 'finished' && tournament.ends_at ? tournament.ends_at : tournament.starts_at;
  return h('li', { class: 'tournament-card', dataset: { testid: `tournament-${tournament.id}` } },
    h('a', { class: 'tournament-card-name', href: `#/tournaments/${encodeURIComponent(tournament.id)}`,
      dataset: { testid: `tournament-link-${tournament.id}` } }, tournament.name),
    h('span', { class: 'tournament-card-facts' },
      [gameName(tournament.game), kindName(tournament.kind), clockWords(tournament.clock)].join(' · '),
      tournament.rated ? ` · ${t('players.rated')}` : ''),
    h('span', { class: 'tournament-card-when' },
      h('time', { datetime: when }, t(tournament.status === 'finished' ? 'tournaments.ended_at' : tournament.status === 'running'
        ? 'tournaments.started_at' : 'tournaments.starts_at', { when: formatDateTime(when) })),
      ' · ', h('span', { dataset: { testid: `tournament-entrants-${tournament.id}` } }, t('tournaments.entrants', { count: tournament.entrants ?? 0 }))));
}
