// The first page of a new visitor: pick a name and play as a guest, or log in (or create an
// account). A visitor who came by an invite or room link reads what it leads to first, and lands
// in that room after choosing (app.js routes there once a name or an account is known).
import { h } from './dom.js';
import { t } from './i18n/index.js';
import { getJson } from './api.js';
import { call } from './http.js';
import { gameName } from './catalog.js';
import { timeControlText } from './clock.js';
import { inviteSentence } from './invite.js';
import { openAccountDialog } from './account_forms.js';
import { MAX_NAME } from './account_rules.js';

// `link`: {invite} or {roomId} when the address was one; `problem`: why the last name was
// refused (an account's name, for instance); `play(name)` starts as a guest.
export function showNamePage(main, app, { link = null, problem: refused = '', play }) {
  const input = h('input', { id: 'player-name', required: true, autocomplete: 'nickname',
    'aria-describedby': 'name-problem', dataset: { testid: 'name-input' } });
  const problem = h('p', { id: 'name-problem', class: 'field-problem', role: 'alert', dataset: { testid: 'name-problem' } });
  const say = (text) => {
    problem.textContent = text;
    if (text) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
  };
  input.addEventListener('input', () => say(''));
  const invited = link ? h('p', { class: 'invited', dataset: { testid: 'invite-sentence' } }, inviteSentence(null, { invite: Boolean(link.invite) })) : null;
  main.replaceChildren(h('section', { class: 'welcome', dataset: { testid: 'name-page' } },
    h('h1', {}, t('name.welcome')),
    invited,
    h('p', {}, t(link ? 'name.straight_there' : 'name.intro')),
    h('form', { class: 'row', onsubmit: (event) => {
      event.preventDefault();
      const name = input.value.trim();
      const wrong = nameProblem(name);
      if (wrong) { say(wrong); input.focus(); return; }
      play(name);
    } },
    h('label', { for: 'player-name' }, t('name.your_name')), input,
    h('button', { type: 'submit', class: 'primary', dataset: { testid: 'name-submit' } }, t('name.play_as_guest'))), problem,
    h('p', { class: 'account-offer row' }, h('span', { class: 'muted' }, t('name.have_account')),
      h('button', { type: 'button', dataset: { testid: 'name-login' }, onclick: () => openAccountDialog(app, 'login') }, t('account.log_in')),
      h('span', { class: 'muted' }, t('name.or')),
      h('button', { type: 'button', class: 'quiet', dataset: { testid: 'name-signup' }, onclick: () => openAccountDialog(app, 'signup') },
        t('name.create_account')))));
  say(refused);
  input.focus();
  if (link) describeLink(link, invited);
}

// What the link leads to, before any hello: the history API knows a public room by its id and
// a private one by its invite (whoever holds the invite may join, so may also read what it is).
async function describeLink(link, line) {
  // The invite goes in the body, never in a URL that proxies log.
  const lookUp = link.invite ? () => call('POST', '/api/invites', { body: { invite: link.invite } })
    : () => getJson(`/api/games/${encodeURIComponent(link.roomId)}`);
  let record;
  try { record = await lookUp(); } catch (error) {
    if (line.isConnected && error?.status === 404) {
      line.textContent = t(link.invite ? 'name.invite_unknown' : 'name.room_unknown');
      line.dataset.unknown = 'true';
    }
    return;
  }
  if (!line.isConnected) return;
  const players = (record.players ?? []).map((player) => (typeof player === 'string' ? player : player?.name)).filter(Boolean);
  // Whoever reads this page has no name yet, so is a guest: a rated room is told as watch-only now.
  line.textContent = inviteSentence({ host: record.host, game: gameName(record.game), clock: timeControlText(record.time_control),
    status: record.status, players, rated: record.rated === true, guest: true });
  const roomId = record.id ?? link.roomId;
  if (record.status === 'finished') line.append(' ', h('a', { href: `#/history/${encodeURIComponent(roomId)}` }, t('name.see_how_it_went')));
}

// The server's rule for guests' names (protocol README): 1 to 24 characters after trimming
// spaces, no control characters. Said before sending, instead of cutting the name or doing nothing.
export function nameProblem(name) {
  if (!name) return t('name.empty');
  const length = [...name].length;
  if (length > MAX_NAME) return t('name.too_long', { max: MAX_NAME, count: length });
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return t('name.control');
  return '';
}
