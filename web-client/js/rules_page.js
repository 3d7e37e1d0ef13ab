// A rules page per game (#/rules/<game>): the rules in our own words (each game's module in
// boards/ has them), each section with a small board drawn by the game's own board module (the
// same pictures as in play), with the places a sentence speaks of highlighted.
import { h } from './dom.js';
import { createBoard, GAMES } from './boards/index.js';
import { gameName } from './catalog.js';
import { t } from './i18n/index.js';

function picture(game, { options = {}, position, mark = [] }) {
  const board = createBoard({ game, options, viewerSeat: 0, players: null });
  board.show({ position, to_move: 0, phase: 'play', round: 1, legal: [], pending: '', board: {} });
  board.highlight(mark);
  board.element.setAttribute('aria-hidden', 'true');     // the text says what the picture shows
  board.element.classList.add('rules-board');
  for (const node of board.element.querySelectorAll('[tabindex]')) node.removeAttribute('tabindex');
  return h('figure', { class: 'rules-figure' }, board.element);
}

export function showRulesPage(main, game) {
  const page = GAMES[game]?.rules;
  if (!page) {
    main.replaceChildren(h('section', { class: 'welcome', dataset: { testid: 'rules-page' } },
      h('h1', {}, t('rules_page.no_such_game')), h('p', {}, t('rules_page.games_with_rules')), gameLinks()));
    return;
  }
  main.replaceChildren(h('article', { class: 'rules-page', dataset: { testid: 'rules-page' } },
    h('p', { class: 'muted' }, h('a', { href: '#/' }, t('nav.lobby')), ' › ', t('rules_page.crumb')),
    h('h1', {}, t('rules_page.title', { game: gameName(game) })),
    h('p', { class: 'lead' }, page.intro),
    page.sections.map((section) => h('section', { class: 'rules-section' },
      h('div', {}, h('h2', {}, section.title), h('p', {}, section.text)),
      section.picture ? picture(game, section.picture) : null)),
    h('h2', {}, t('rules_page.four_lines')),
    h('ol', {}, page.card.map((line) => h('li', {}, line))),
    h('nav', { class: 'rules-others', 'aria-label': t('rules_page.other_games') },
      h('span', {}, `${t('rules_page.other_games')}: `), gameLinks(game))));
}

function gameLinks(except = null) {
  return h('span', { class: 'row' }, Object.keys(GAMES).filter((id) => id !== except)
    .map((id) => h('a', { href: `#/rules/${id}`, dataset: { testid: `rules-link-${id}` } }, gameName(id))));
}
