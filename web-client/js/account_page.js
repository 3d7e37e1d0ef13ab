// The account's page (#/account): its name and profile, where it is logged in (each session's
// start and last use, this device marked), Log out, Log out everywhere and Change password. And
// the page of a password reset link (#/reset/<code>), which sets a new password and logs in.
import { h, toast } from './dom.js';
import { currentAccount, logOutEverywhere } from './account_api.js';
import { passwordForm, resetForm, openAccountDialog } from './account_forms.js';
import { leave } from './account_bar.js';
import { profileHref } from './players.js';

export function showAccountPage(main, app) {
  const sessions = h('ul', { class: 'sessions plain', dataset: { testid: 'sessions' } }, h('li', { class: 'muted' }, 'Loading…'));
  const page = h('section', { class: 'account-page', dataset: { testid: 'account-page' } }, h('h1', {}, 'Your account'));
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
    h('p', { class: 'lead' }, 'Logged in as ', h('strong', { dataset: { testid: 'account-name' } }, who.name), ' · ',
      h('a', { href: profileHref({ ...who, account: true }), dataset: { testid: 'account-profile' } }, 'Your profile and ratings')),
    h('section', { class: 'account-card' },
      h('h2', {}, 'Where you are logged in'), sessions,
      h('div', { class: 'row' },
        h('button', { type: 'button', dataset: { testid: 'account-log-out' }, onclick: () => leave(app) }, 'Log out'),
        h('button', { type: 'button', class: 'quiet', dataset: { testid: 'log-out-everywhere' },
          onclick: () => window.confirm('Log out on every device, this one too?') && leave(app, logOutEverywhere) }, 'Log out everywhere'))),
    h('section', { class: 'account-card' },
      h('h2', {}, 'Change password'),
      h('p', { class: 'muted' }, 'Your other devices are logged out when the password changes.'),
      passwordForm(app, { done: () => { toast('Password changed. Your other devices are logged out.', 'notice'); load(); } })));
  load();
}

function sessionItem(session) {
  const when = (iso) => (iso ? new Date(iso).toLocaleString() : 'unknown');
  return h('li', { class: `session${session.current ? ' current' : ''}`, dataset: { testid: `session-${session.id}` } },
    h('span', {}, `Logged in ${when(session.created)}`),
    h('span', { class: 'muted' }, `last used ${when(session.last_used)}`),
    session.current ? h('span', { class: 'tag here', dataset: { testid: 'this-device' } }, 'this device') : null);
}

function notLoggedIn(page, app) {
  page.replaceChildren(h('h1', {}, 'Your account'),
    h('p', { dataset: { testid: 'not-logged-in' } }, 'You are not logged in on this device.'),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'primary', onclick: () => openAccountDialog(app, 'login') }, 'Log in'),
      h('button', { type: 'button', class: 'quiet', onclick: () => openAccountDialog(app, 'signup') }, 'Create an account')));
}

export function showResetPage(main, app, code) {
  main.replaceChildren(h('section', { class: 'welcome', dataset: { testid: 'reset-page' } },
    h('h1', {}, 'Choose a new password'),
    h('p', { class: 'muted' }, 'This link sets the password of one account, once. You are logged in afterwards.'),
    resetForm(code, { done: (who) => app.enterAccount(who, { go: '#/account' }) })));
  main.querySelector('input').focus();
}
