// Starts the client: who the player is (an account, by the session cookie the server set, or a
// guest, by the name and token kept in localStorage), the connection, and which page the
// address shows.
//   #/                 lobby            #/room/<id>      a room
//   #/join/<invite>    private invite   #/history        search stored games
//   #/history/<id>     replay viewer    #/rules/<game>   how to play a game
//   #/history/<id>?analyse  the viewer, asking for the analysis   #/import  a game as text
//   #/player/<name or id>  a profile    #/leaderboard/<game>  a game's best rated players
//   #/account          your account     #/reset/<code>   set a new password (an operator's link)
//   #/tournaments      the tournaments  #/tournaments/<id>  one tournament
import { h, toast } from './dom.js';
import { t, LANGUAGES, language, saveLanguage, startLanguage, translatePage } from './i18n/index.js';
import { Connection } from './connection.js';
import { identity, seats, animation, sound } from './storage.js';
import { showLobby } from './lobby.js';
import { showRoom } from './room.js';
import { showHistoryList, showReplay } from './history.js';
import { showImportPage } from './import_page.js';
import { describeError } from './errors.js';
import { loadCatalog } from './catalog.js';
import { showRulesPage } from './rules_page.js';
import { currentAccount, setAccountLanguage } from './account_api.js';
import { followAccountLanguage } from './account_language.js';
import { renderAccountBar } from './account_bar.js';
import { welcomeNotice } from './account_forms.js';
import { showNamePage } from './name_page.js';
import { showAccountPage, showResetPage } from './account_page.js';
import { showProfile } from './profile.js';
import { showLeaderboard } from './leaderboard.js';
import { showTournamentList } from './tournaments_list.js';
import { showTournamentPage } from './tournaments_page.js';
import { installTournamentGames, routeTournamentBar } from './tournaments_games.js';
import { pushSupported, serverKey, currentSubscription, subscribe, unsubscribe, followWorker } from './push.js';

const main = document.getElementById('main');
const conn = new Connection();
let me = null;                 // the `welcome` of this session
let account = null;            // {player_id, name} of the session cookie's account, or null
let leavePage = null;

const app = {
  conn,
  me: () => me,
  account: () => account,
  // Whether an account plays here (rated rooms are for accounts only).
  isAccount: () => me?.account === true || Boolean(account),
  roomsSeen: new Map(),        // room id -> latest room message seen (own rooms after a reload)
  rememberRoom(room) { app.roomsSeen.set(room.id, room); },
  navigate(hash, { replace = false, keep = false } = {}) {
    if (keep) { history.replaceState(null, '', hash); return; }
    if (replace) history.replaceState(null, '', hash); else history.pushState(null, '', hash);
    route();
  },
  // After a sign-up, a log-in or a password reset the session cookie is set: the guest token
  // (if any) is forgotten, and a new WebSocket carries the cookie to the server. The page is
  // drawn again (or `go` opened) once the server welcomes the account. A sign-up keeps the
  // guest's player id, so the seats this browser holds stay its own.
  enterAccount(who, { created = false, kept = false, go = null } = {}) {
    account = { player_id: who.player_id, name: who.name };
    identity.forget();
    if (!created) seats.forgetAll();
    // The account's own language, if it chose one elsewhere: the page comes back in it, logged in.
    if (followAccountLanguage(who, { at: go })) return;
    me = null;
    showWho();
    const off = conn.on('welcome', () => {
      off();
      welcomeNotice(who, { created, kept });
      if (go) app.navigate(go); else route();
    });
    conn.restart({});
  },
  // The name page, from a page anyone may read (a tournament's Join): the address stays, so
  // once named the visitor is back on that page.
  askName() {
    leavePage?.();
    leavePage = null;
    askName();
  },
  // After logging out: a new visitor, on the name page.
  leaveAccount() {
    account = null;
    me = null;
    identity.forget();
    seats.forgetAll();
    app.roomsSeen.clear();
    conn.stop();
    showWho();
    app.navigate('#/');
  },
};

conn.on('room', (message) => app.rememberRoom(message.room));
installTournamentGames(app);     // after rememberRoom: a paired room is known when it is acted on
conn.on('welcome', (welcome) => {
  const before = me?.player_id;
  me = welcome;
  // An account's welcome has no token: the cookie is its proof, and nothing is stored.
  if (welcome.account) {
    identity.forget();
    account = { player_id: welcome.player_id, name: welcome.name };
  } else identity.set({ name: welcome.name, token: welcome.token, player_id: welcome.player_id });
  showWho();
  // Someone else now (another tab logged in, so the reconnection carried its cookie).
  if (before && before !== welcome.player_id) route();
});
conn.on('hello_refused', (error) => {
  // An account's session ended elsewhere (log out everywhere, a new password): a new visitor.
  if (account) { toast(t('app.session_ended')); app.leaveAccount(); return; }
  const saved = identity.get();
  if (error.code === 'bad_token' && saved?.name) { conn.restart({ name: saved.name }); return; }
  identity.forget();
  conn.stop();
  // A name an account holds is refused with the server's words ("… log in, or pick another name").
  askName(error.code === 'bad_name' && error.message ? error.message : describeError(error));
});
conn.on('status', (status) => {
  const badge = document.getElementById('connection');
  // Idle is a visitor who has not chosen a name yet (or just logged out): nothing was tried, so
  // "not connected" would be news of a failure that did not happen.
  badge.hidden = status === 'idle';
  badge.textContent = status === 'idle' ? '' : t(`connection.${status === 'online' || status === 'connecting' ? status : 'reconnecting'}`);
  badge.dataset.status = status;
});

function showWho() {
  renderAccountBar(document.getElementById('who'), app);
}

// A part of the address as text, or null when it is not valid percent-encoding (a link cut
// short or mistyped): such an address shows a message instead of throwing (issue 17, bug 1).
function decodePart(part) {
  try { return decodeURIComponent(part); } catch { return null; }
}

// Pages anyone may read, before choosing a name too.
const OPEN_PAGES = {
  rules: (arg) => { showRulesPage(main, arg); window.scrollTo(0, 0); },
  history: (arg) => (arg ? showReplay(main, app, arg) : showHistoryList(main, app)),
  import: () => showImportPage(main),
  player: (arg) => showProfile(main, app, arg),
  leaderboard: (arg) => showLeaderboard(main, app, arg),
  account: () => showAccountPage(main, app),
  reset: (arg) => showResetPage(main, app, arg),
  tournaments: (arg) => (arg ? showTournamentPage(main, app, arg) : showTournamentList(main, app)),
};

function route() {
  leavePage?.();
  leavePage = null;
  const hash = location.hash || '#/';
  const [, page, raw] = hash.split('?')[0].split('/');
  const arg = raw ? decodePart(raw) : '';
  if (arg === null) { showBadLink(page); return; }
  routeTournamentBar(page, arg);   // the way back above a tournament's room
  if (OPEN_PAGES[page]) {
    const leave = OPEN_PAGES[page](arg);     // a page that keeps something going says how to stop it
    leavePage = typeof leave === 'function' ? leave : null;
    return;
  }
  if (!identity.get() && !me && !account) { askName(); return; }
  if (page === 'room' && arg) leavePage = showRoom(main, app, { roomId: arg });
  else if (page === 'join' && arg) leavePage = showRoom(main, app, { invite: arg });
  else leavePage = showLobby(main, app);
}

function showBadLink(page) {
  const invite = page === 'join';
  main.replaceChildren(h('section', { class: 'welcome', dataset: { testid: 'bad-link' } },
    h('h1', {}, t(invite ? 'link.broken_invite' : 'link.broken')),
    h('p', { role: 'alert' }, t(invite ? 'link.broken_invite_why' : 'link.broken_why')),
    h('a', { class: 'button primary', href: '#/' }, t('link.to_lobby'))));
}

// The name is asked once; the server's token is kept with it in localStorage. An invite or room
// link in the address is kept: after the name the page routes there.
function askName(problem = '') {
  const [, page, raw] = (location.hash || '#/').split('?')[0].split('/');
  const arg = raw ? decodePart(raw) : null;
  const link = !arg ? null : page === 'join' ? { invite: arg } : page === 'room' ? { roomId: arg } : null;
  showNamePage(main, app, { link, problem, play: (name) => {
    identity.set({ name });
    conn.start({ name });
    route();
  } });
}

function setupSpeed() {
  const select = document.getElementById('speed');
  select.value = animation.get();
  select.addEventListener('change', () => animation.set(select.value));
  const beepBox = document.getElementById('sound');
  beepBox.checked = sound.get();
  beepBox.addEventListener('change', () => sound.set(beepBox.checked));
}

// The opt-in for Web Push, shown only when the server sends pushes and the browser can receive
// them. Permission is asked for only on the click. A guest's pushes go to its token's player,
// an account's to the session's.
async function setupPush() {
  const button = document.getElementById('push');
  // data-state, for the browser tests: why the button is hidden, or that it is shown.
  if (!pushSupported()) { button.dataset.state = 'unsupported'; return; }
  const key = await serverKey();
  if (!key) { button.dataset.state = 'off'; return; }
  let subscribed = Boolean(await currentSubscription().catch(() => null));
  const draw = () => {
    // Short when on: the longer words wrapped the header onto a second row on a laptop.
    button.textContent = t(subscribed ? 'push.off' : 'push.on');
    button.setAttribute('aria-pressed', String(subscribed));
  };
  draw();
  button.hidden = false;
  button.dataset.state = 'ready';
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      if (subscribed) await unsubscribe(identity.get()?.token);
      else await subscribe(key, identity.get()?.token);
      subscribed = !subscribed;
      toast(t(subscribed ? 'push.subscribed' : 'push.unsubscribed'), 'notice');
    } catch (error) {
      toast(t('push.failed', { why: error.message }));
    } finally {
      button.disabled = false;
      draw();
    }
  });
}

// Who this browser is: the session cookie's account (its hello carries neither name nor token;
// a guest token kept from before is forgotten), else the guest kept in localStorage.
function connect(who) {
  const saved = identity.get();
  if (who) {
    account = { player_id: who.player_id, name: who.name };
    identity.forget();
    conn.start({});
  } else if (saved?.token) conn.start({ token: saved.token });
  else if (saved?.name) conn.start({ name: saved.name });
  else conn.stop();            // a new visitor: no connection until a name or an account
  showWho();
}

// The games and their options, and who is logged in, come from the server once; pages are
// drawn only after that.
async function start() {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const [who] = await Promise.all([currentAccount(), loadCatalog()]);
      if (followAccountLanguage(who)) return;
      connect(who);
      break;
    } catch (error) {
      main.replaceChildren(h('p', { class: 'waiting', dataset: { testid: 'catalog-error' } },
        t('app.catalog_error', { why: error.message })));
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * 2 ** attempt, 8000)));
    }
  }
  window.addEventListener('popstate', route);
  route();
}

// The language: the one chosen in this browser, else the browser's own (an account's stored one
// wins once the account is known: start, enterAccount); the chooser reloads the page in the new
// one (every page draws its words as it opens). An account's choice is kept by the server too,
// before the reload, so that the page after it (and every other browser) keeps it.
function setupLanguage() {
  startLanguage();
  translatePage();
  const select = document.getElementById('language');
  select.replaceChildren(...LANGUAGES.map(({ code, name }) => h('option', { value: code, lang: code, selected: code === language() || undefined }, name)));
  select.addEventListener('change', async () => {
    const code = select.value;
    if (account) {
      select.disabled = true;
      try {
        await setAccountLanguage(code);
      } catch (error) {
        // A session that ended makes this a guest's choice; anything else keeps the old language.
        if (error.status !== 401) {
          toast(t('app.language_not_kept', { why: error.message }));
          select.value = language();
          select.disabled = false;
          return;
        }
      }
    }
    saveLanguage(code);
    location.reload();
  });
}

setupLanguage();
setupSpeed();
setupPush();
followWorker((route) => app.navigate(route));
start();
