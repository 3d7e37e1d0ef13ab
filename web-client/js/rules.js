// A short rules card per game, in a dialog.
import { h } from './dom.js';
import { t } from './i18n/index.js';
import { GAMES } from './boards/index.js';
import { gameName } from './catalog.js';

export function rulesCard(game) {
  const { rules } = GAMES[game];
  return h('article', { class: 'rules-card', dataset: { testid: `rules-${game}` } },
    h('h2', {}, gameName(game)),
    h('p', { class: 'blurb' }, rules.blurb),
    h('ol', {}, rules.card.map((line) => h('li', {}, line))));
}

export function rulesButton(game, text = t('rules.button')) {
  return h('button', { class: 'quiet', dataset: { testid: `show-rules-${game}` }, onclick: () => openRules(game) }, text);
}

export function openRules(game) {
  const dialog = h('dialog', { class: 'rules-dialog', 'aria-label': t('rules.title', { game: gameName(game) }) },
    rulesCard(game),
    h('form', { method: 'dialog', class: 'row' },
      h('a', { href: `#/rules/${game}`, target: '_blank', dataset: { testid: `rules-page-link-${game}` } }, t('rules.full')),
      h('button', { dataset: { testid: 'close-rules' } }, t('rules.close'))));
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}
