// The header's part about the player: their name (a link to their profile); for a guest a
// "guest" mark with Sign up and Log in; for an account, its page and Log out. Nothing is shown
// before the player is known (the name page offers logging in itself).
import { h, toast } from './dom.js';
import { t } from './i18n/index.js';
import { profileHref, guestMark } from './players.js';
import { openAccountDialog } from './account_forms.js';
import { logOut } from './account_api.js';

export function renderAccountBar(box, app) {
  const me = app.me();
  const account = app.account();
  const who = me ?? account;
  if (!who) { box.replaceChildren(); return; }
  const isAccount = app.isAccount();
  const name = h('a', { class: 'my-name', href: profileHref({ ...who, account: isAccount }), title: t('account.your_profile'),
    dataset: { testid: 'my-name' } }, who.name);
  const button = (text, testid, onclick, primary = false) =>
    h('button', { type: 'button', class: `small${primary ? ' primary' : ''}`, dataset: { testid }, onclick }, text);
  box.replaceChildren(name, ...(isAccount
    ? [h('a', { class: 'button small', href: '#/account', dataset: { testid: 'nav-account' } }, t('account.account')),
      button(t('account.log_out'), 'log-out', () => leave(app))]
    : [guestMark(),
      button(t('account.sign_up'), 'sign-up', () => openAccountDialog(app, 'signup'), true),
      button(t('account.log_in'), 'log-in', () => openAccountDialog(app, 'login'))]));
}

// Log out here: the cookie is cleared and the browser starts again as a new visitor. A session
// that had ended already (401) is left all the same.
export async function leave(app, end = logOut) {
  try { await end(); } catch (error) {
    if (error.status !== 401) { toast(t('account.log_out_failed', { why: error.message })); return; }
  }
  app.leaveAccount();
}
