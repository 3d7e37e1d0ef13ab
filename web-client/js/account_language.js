// An account's language (issue 49) is kept by the server, so that it follows the account to
// every browser: once the account is known (the page's start, a log-in) a language it stored
// wins over this browser's. A guest's stays in the browser (i18n/index.js).
import { LANGUAGES, language, saveLanguage, savedLanguage, translatePage } from './i18n/index.js';

// Switches the page to the account's language as the chooser does (kept in this browser, the
// page reloaded), and only when it differs from the page's: after the reload the page is in it
// already, so it does not reload again; `at` is the address to reload at (a reset link's page
// would be the link again, used up). Where the browser refuses to keep it (private mode) the
// page goes on in it without a reload, which would come back in the old one. Returns whether the
// page is reloading.
export function followAccountLanguage(who, { at = null } = {}) {
  const wanted = who?.language;
  if (!LANGUAGES.some(({ code }) => code === wanted) || wanted === language()) return false;
  saveLanguage(wanted);
  if (savedLanguage() === wanted) {
    if (at) history.replaceState(null, '', at);
    location.reload();
    return true;
  }
  translatePage();
  const chooser = document.getElementById('language');
  if (chooser) chooser.value = wanted;
  return false;
}
