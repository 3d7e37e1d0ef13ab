// What the account forms check before sending, and where each refusal of the accounts API is
// said (accounts contract): next to the field it is about, in words for people. Pure, so the
// mapping is tested in Node (tests/web/unit/account_rules.test.js).
import { t, aboutSpan } from './i18n/index.js';

export const MAX_NAME = 24;
export const MIN_PASSWORD = 10;

// An account's name: 1–24 characters after trimming, letters, digits, _ and - only (they go
// into profile addresses). Whether a name is free only the server knows.
export function accountNameProblem(name) {
  if (!name) return t('account_form.type_name');
  const length = [...name].length;
  if (length > MAX_NAME) return t('account_form.name_too_long', { max: MAX_NAME, length });
  if (!/^[\p{L}\p{N}_-]+$/u.test(name)) return t('account_form.name_chars');
  return '';
}

// The rules the client can see; the server also refuses common passwords and says so.
export function passwordProblem(password, name = '') {
  if ([...password].length < MIN_PASSWORD) return t('account_form.password_short', { min: MIN_PASSWORD });
  if (name && password.toLowerCase() === name.trim().toLowerCase()) return t('account_form.password_is_name');
  return '';
}

export const repeatProblem = (password, repeat) => (password === repeat ? '' : t('account_form.passwords_differ'));

// Where a refusal is shown, by form: {field, text}. Fields: 'name', 'password' (the password
// being chosen), 'current' (the password asked to prove who you are), 'form' (above the button).
// `error`: {status, code, message, retryAfterS} (account_api.js). Every refusal is said in the
// page's own words and language by its code; the server's English message is for other clients.
export function formProblem(form, error) {
  switch (error?.code) {
    case 'bad_name': return { field: 'name', text: t('account_form.bad_name') };
    case 'name_taken': return { field: 'name', text: t('account_form.name_taken') };
    case 'weak_password': return { field: 'password', text: t('account_form.weak_password') };
    case 'bad_credentials':
      return form === 'password'
        ? { field: 'current', text: t('account_form.not_current') }
        : { field: 'form', text: t('account_form.wrong_credentials') };
    case 'bad_code': return { field: 'form', text: t('account_form.bad_code') };
    case 'not_logged_in': return { field: 'form', text: t('account_form.not_logged_in') };
    case 'rate_limited': {
      // "wait about 10 minutes", not "wait 596 seconds" (issue 49).
      const wait = Number.isFinite(error.retryAfterS) && error.retryAfterS > 0 ? t('account.wait', { span: aboutSpan(Math.ceil(error.retryAfterS)) }) : t('account.wait_little');
      return { field: 'form', text: t('account.too_many_tries', { wait }) };
    }
    case 'offline': return { field: 'form', text: t('account_form.offline') };
    default: return { field: 'form', text: error?.status ? t('account_form.server_answered', { status: String(error.status) }) : t('account_form.server_error') };
  }
}
