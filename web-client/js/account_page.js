// The account's page (#/account): its name and profile, where it is logged in (each session's
// start and last use, this device marked), Log out, Log out everywhere and Change password. And
// the page of a password reset link (#/reset/<code>), which sets a new password and logs in.
import { h, toast } from './dom.js';
import { currentAccount, logOutEverywhere } from './account_api.js';
import { passwordForm, resetForm, openAccountDialog } from './account_forms.js';
import { leave } from './account_bar.js';
import { profileHref } from './players.js';
import { t, formatDateTime } from './i18n/index.js';

export function showAccountPage(main, app) {
  const sessions = h('ul', { class: 'sessions plain', dataset: { testid: 'sessions' } }, h('li', { class: 'muted' }, t('account_page.loading')));
  const page = h('section', { class: 'account-page', dataset: { testid: 'account-page' } }, h('h1', {}, t('account_page.title')));
  main.replaceChildren(page);

  async function load() {
    let who;
    try { who = await currentAccount(); } catch (error) { sessions.replaceChildren(h('li', { role: 'alert' }, error.message)); return; }
    if (!who) { notLoggedIn(page, app); return; }
    sessions.replaceChildren(...who.sessions.map(sessionItem));
  }

  const who = app.account();
  if (!who) { notLoggedIn(page, app); return; }
  page.append(
    h('p', { class: 'lead' }, t('account_page.logged_in_as'), ' ', h('strong', { dataset: { testid: 'account-name' } }, who.name), ' · ',
      h('a', { href: profileHref({ ...who, account: true }), dataset: { testid: 'account-profile' } }, t('account_page.profile_and_ratings'))),
    h('section', { class: 'account-card' },
      h('h2', {}, t('account_page.where')), sessions,
      h('div', { class: 'row' },
        h('button', { type: 'button', dataset: { testid: 'account-log-out' }, onclick: () => leave(app) }, t('account.log_out')),
        h('button', { type: 'button', class: 'quiet', dataset: { testid: 'log-out-everywhere' },
          onclick: () => window.confirm(t('account_page.everywhere_confirm')) && leave(app, logOutEverywhere) }, t('account_page.everywhere')))),
    h('section', { class: 'account-card' },
      h('h2', {}, t('account_form.change_password')),
      h('p', { class: 'muted' }, t('account_page.password_note')),
      passwordForm(app, { done: () => { toast(t('account_page.password_changed'), 'notice'); load(); } })));
  load();
}

function sessionItem(session) {
  const when = (iso) => (iso ? formatDateTime(iso) : t('account_page.unknown'));
  return h('li', { class: `session${session.current ? ' current' : ''}`, dataset: { testid: `session-${session.id}` } },
    h('span', {}, t('account_page.session_start', { when: when(session.created) })),
    h('span', { class: 'muted' }, t('account_page.session_used', { when: when(session.last_used) })),
    session.current ? h('span', { class: 'tag here', dataset: { testid: 'this-device' } }, t('account_page.this_device')) : null);
}

function notLoggedIn(page, app) {
  page.replaceChildren(h('h1', {}, t('account_page.title')),
    h('p', { dataset: { testid: 'not-logged-in' } }, t('account_page.not_logged_in')),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'primary', onclick: () => openAccountDialog(app, 'login') }, t('account.log_in')),
      h('button', { type: 'button', class: 'quiet', onclick: () => openAccountDialog(app, 'signup') }, t('account_page.create'))));
}

export function showResetPage(main, app, code) {
  main.replaceChildren(h('section', { class: 'welcome', dataset: { testid: 'reset-page' } },
    h('h1', {}, t('account_page.reset_title')),
    h('p', { class: 'muted' }, t('account_page.reset_note')),
    resetForm(code, { done: (who) => app.enterAccount(who, { go: '#/account' }) })));
  main.querySelector('input').focus();
}
