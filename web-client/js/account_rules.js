// What the account forms check before sending, and where each refusal of the accounts API is
// said (accounts contract): next to the field it is about, in words for people. Pure, so the
// mapping is tested in Node (tests/web/unit/account_rules.test.js).
import { t, aboutSpan } from './i18n/index.js';

export const MAX_NAME = 24;
export const MIN_PASSWORD = 10;

// An account's name: 1–24 characters after trimming, letters, digits, _ and - only (they go
// into profile addresses). Whether a name is free only the server knows.
export function accountNameProblem(name) {
  if (!name) return 'Type a name.';
  const length = [...name].length;
  if (length > MAX_NAME) return `Names are at most ${MAX_NAME} characters; this one has ${length}.`;
  if (!/^[\p{L}\p{N}_-]+$/u.test(name)) return 'An account\'s name has only letters, digits, _ and - (no spaces).';
  return '';
}

// The rules the client can see; the server also refuses common passwords and says so.
export function passwordProblem(password, name = '') {
  if ([...password].length < MIN_PASSWORD) return `Use at least ${MIN_PASSWORD} characters.`;
  if (name && password.toLowerCase() === name.trim().toLowerCase()) return 'Your password cannot be your name.';
  return '';
}

export const repeatProblem = (password, repeat) => (password === repeat ? '' : 'The two passwords differ.');

// Where a refusal is shown, by form: {field, text}. Fields: 'name', 'password' (the password
// being chosen), 'current' (the password asked to prove who you are), 'form' (above the button).
// `error`: {status, code, message, retryAfterS} (account_api.js).
export function formProblem(form, error) {
  const said = error?.message;
  switch (error?.code) {
    case 'bad_name': return { field: 'name', text: said || 'That name is not allowed for an account.' };
    case 'name_taken': return { field: 'name', text: 'That name is taken (names are compared without capitals). Pick another, or log in if it is yours.' };
    case 'weak_password': return { field: 'password', text: said || 'That password is too easy to guess.' };
    case 'bad_credentials':
      return form === 'password'
        ? { field: 'current', text: 'That is not your current password.' }
        : { field: 'form', text: 'Wrong name or password.' };
    case 'bad_code': return { field: 'form', text: 'This reset link is unknown, used already or expired. Ask for a new one.' };
    case 'not_logged_in': return { field: 'form', text: 'You are not logged in any more. Log in again.' };
    case 'rate_limited': {
      // "wait about 10 minutes", not "wait 596 seconds" (issue 49).
      const wait = Number.isFinite(error.retryAfterS) && error.retryAfterS > 0 ? t('account.wait', { span: aboutSpan(Math.ceil(error.retryAfterS)) }) : t('account.wait_little');
      return { field: 'form', text: t('account.too_many_tries', { wait }) };
    }
    case 'offline': return { field: 'form', text: 'The server cannot be reached. Check your connection and try again.' };
    default: return { field: 'form', text: said || `The server answered ${error?.status ?? 'with an error'}. Please try again.` };
  }
}
