// The account forms: sign up (a guest takes a name and a password and keeps their games), log
// in, change the password and set a new one from a reset link. Each checks what it can before
// sending, says every refusal of the server next to the field it is about (account_rules.js),
// and hands a success to `done`. The header opens sign up and log in as dialogs.
import { h, toast } from './dom.js';
import { identity } from './storage.js';
import { signUp, logIn, changePassword, resetPassword } from './account_api.js';
import { getJson } from './api.js';
import { accountNameProblem, passwordProblem, repeatProblem, formProblem } from './account_rules.js';
import { t } from './i18n/index.js';

// A labelled input with its hint and the place for its problem (`say`).
function inputField(id, label, props = {}, hint = '') {
  const problem = h('p', { id: `${id}-problem`, class: 'field-problem', role: 'alert', dataset: { testid: `${id}-problem` } });
  const input = h('input', { id, name: id, 'aria-describedby': [hint ? `${id}-hint` : '', `${id}-problem`].join(' ').trim(),
    dataset: { testid: id }, ...props });
  const say = (text) => {
    problem.textContent = text;
    if (text) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
  };
  input.addEventListener('input', () => say(''));
  return { input, say, element: h('div', { class: 'field' }, h('label', { for: id }, label), input,
    hint ? h('small', { id: `${id}-hint` }, hint) : null, problem) };
}

const password = (id, label, autocomplete, hint) => inputField(id, label, { type: 'password', required: true, autocomplete }, hint);
const passwordHint = () => t('account_form.password_hint');

// A form of `fields` ({key: inputField}). `check()` returns [[key, problem], …] found before
// sending; `send()` the request's promise; `done(reply)` runs on success. A refusal goes next
// to its field by `kind` (formProblem), else above the button.
function accountForm({ kind, testid, fields, submit, check, send, done, before = [], after = [] }) {
  const problem = h('p', { class: 'field-problem', role: 'alert', dataset: { testid: `${testid}-problem` } });
  const button = h('button', { type: 'submit', class: 'primary', dataset: { testid: `${testid}-submit` } }, submit);
  const say = (key, text) => (fields[key] ?? { say: (words) => { problem.textContent = words; } }).say(text);
  async function onsubmit(event) {
    event.preventDefault();
    problem.textContent = '';
    for (const field of Object.values(fields)) field.say('');
    const found = check().filter(([, text]) => text);
    if (found.length) {
      for (const [key, text] of found) say(key, text);
      fields[found[0][0]]?.input.focus();
      return;
    }
    button.disabled = true;
    try {
      done(await send());
    } catch (error) {
      const { field, text } = formProblem(kind, error);
      say(field, text);
      fields[field]?.input.focus();
    } finally { button.disabled = false; }
  }
  // novalidate: the page says each problem in words next to its field, all at once.
  return h('form', { class: 'account-form', novalidate: true, onsubmit, dataset: { testid } },
    ...before, ...Object.values(fields).map((field) => field.element), problem, h('div', { class: 'row' }, button, ...after));
}

const value = (field) => field.input.value;

// Sign up: the guest's name is offered; their token goes along so the account keeps their
// player id, rooms and games.
export function signUpForm(app, { done }) {
  const fields = {
    name: inputField('signup-name', t('account_form.name'), { required: true, autocomplete: 'username', value: app.me()?.name ?? identity.get()?.name ?? '' },
      t('account_form.name_hint')),
    password: password('signup-password', t('account_form.password'), 'new-password', passwordHint()),
    repeat: password('signup-repeat', t('account_form.password_again'), 'new-password'),
  };
  return accountForm({ kind: 'signup', testid: 'signup', fields, submit: t('account_form.create'),
    check: () => [['name', accountNameProblem(value(fields.name).trim())],
      ['password', passwordProblem(value(fields.password), value(fields.name))],
      ['repeat', repeatProblem(value(fields.password), value(fields.repeat))]],
    send: () => signUp(value(fields.name).trim(), value(fields.password), identity.get()?.token),
    done });
}

export function logInForm(app, { done, after = [] }) {
  const fields = {
    name: inputField('login-name', t('account_form.name'), { required: true, autocomplete: 'username' }),
    password: password('login-password', t('account_form.password'), 'current-password'),
  };
  const guest = identity.get()?.name;
  // Logging in here leaves the guest of this browser behind (its token is forgotten).
  const note = guest ? [h('p', { class: 'muted' }, t('account_form.guest_note', { guest }))] : [];
  return accountForm({ kind: 'login', testid: 'login', fields, submit: t('account.log_in'), before: note, after,
    check: () => [['name', value(fields.name).trim() ? '' : t('account_form.type_your_name')], ['password', value(fields.password) ? '' : t('account_form.type_your_password')]],
    send: () => logIn(value(fields.name).trim(), value(fields.password)),
    done });
}

// Changing the password ends every other session of the account.
export function passwordForm(app, { done }) {
  const fields = {
    current: password('current-password', t('account_form.current_password'), 'current-password'),
    password: password('new-password', t('account_form.new_password'), 'new-password', passwordHint()),
    repeat: password('new-repeat', t('account_form.new_password_again'), 'new-password'),
  };
  return accountForm({ kind: 'password', testid: 'change-password', fields, submit: t('account_form.change_password'),
    check: () => [['current', value(fields.current) ? '' : t('account_form.type_current')],
      ['password', passwordProblem(value(fields.password), app.account()?.name)],
      ['repeat', repeatProblem(value(fields.password), value(fields.repeat))]],
    send: () => changePassword(value(fields.current), value(fields.password)),
    done: (reply) => { for (const field of Object.values(fields)) field.input.value = ''; done(reply); } });
}

export function resetForm(code, { done }) {
  const fields = {
    password: password('reset-password', t('account_form.new_password'), 'new-password', passwordHint()),
    repeat: password('reset-repeat', t('account_form.new_password_again'), 'new-password'),
  };
  return accountForm({ kind: 'reset', testid: 'reset', fields, submit: t('account_form.set_and_log_in'),
    check: () => [['password', passwordProblem(value(fields.password))], ['repeat', repeatProblem(value(fields.password), value(fields.repeat))]],
    send: () => resetPassword(code, value(fields.password)),
    done });
}

// Sign up or log in in a dialog over the current page; the page is drawn again for the account
// once the server welcomes it (app.enterAccount).
export function openAccountDialog(app, kind) {
  const close = () => dialog.close();
  const switchTo = (other, text) => h('button', { type: 'button', class: 'quiet', dataset: { testid: `switch-${other}` },
    onclick: () => { close(); openAccountDialog(app, other); } }, text);
  const form = kind === 'signup'
    // A new account is shown its page, unless the player signed up in a room: they stay there.
    ? signUpForm(app, { done: async (who) => {
      close();
      const kept = await hadGames(who.player_id);
      app.enterAccount(who, { created: true, kept, go: location.hash.startsWith('#/room/') ? null : '#/account' });
    } })
    : logInForm(app, { done: (who) => { close(); app.enterAccount(who); }, after: [switchTo('signup', t('account_form.no_account'))] });
  const title = kind === 'signup' ? t('account_form.create_title') : t('account.log_in');
  const dialog = h('dialog', { class: 'account-dialog', 'aria-labelledby': 'account-dialog-title', dataset: { testid: `${kind}-dialog` } },
    h('div', { class: 'account-dialog-body' },
      h('h2', { id: 'account-dialog-title' }, title),
      kind === 'signup' ? h('p', { class: 'muted' }, t('account_form.why')) : null,
      form,
      h('div', { class: 'dialog-actions' }, h('button', { type: 'button', class: 'quiet', dataset: { testid: 'account-cancel' }, onclick: close }, t('account_form.cancel')))));
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  dialog.querySelector('input').focus();
  if (kind === 'signup') dialog.querySelector('input').select();
  return dialog;
}

// Whether the guest who just became this account played any game (the account keeps the guest's
// player id, so its games are the guest's): only then does the welcome say they were kept. Asked
// with the new cookie, not the guest's token, which the sign-up ended.
async function hadGames(playerId) {
  const query = new URLSearchParams({ player_id: playerId, limit: '1' });
  try { return (await getJson(`/api/games?${query}`, null)).games.length > 0; } catch { return false; }
}

// Said once the account is in use.
export function welcomeNotice(who, { created = false, kept = false } = {}) {
  const key = created ? (kept ? 'account_form.created_kept' : 'account_form.created') : 'account_form.logged_in';
  toast(t(key, { name: who.name }), 'notice');
}
