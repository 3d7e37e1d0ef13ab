// Starts the client: who the player is, the connection, and which page the address shows.
//   #/                 lobby            #/room/<id>      a room
//   #/join/<invite>    private invite   #/history        search stored games
//   #/history/<id>     replay viewer    #/rules/<game>   how to play a game
import { h, toast } from './dom.js';
import { Connection } from './connection.js';
import { identity, animation, sound } from './storage.js';
import { showLobby } from './lobby.js';
import { showRoom } from './room.js';
import { showHistoryList, showReplay } from './history.js';
import { describeError } from './errors.js';
import { loadCatalog } from './catalog.js';
import { showRulesPage } from './rules_page.js';

const main = document.getElementById('main');
const conn = new Connection();
let me = null;                 // the `welcome` of this session
let leavePage = null;

const app = {
  conn,
  me: () => me,
  roomsSeen: new Map(),        // room id -> latest room message seen (own rooms after a reload)
  rememberRoom(room) { app.roomsSeen.set(room.id, room); },
  navigate(hash, { replace = false, keep = false } = {}) {
    if (keep) { history.replaceState(null, '', hash); return; }
    if (replace) history.replaceState(null, '', hash); else history.pushState(null, '', hash);
    route();
  },
};

conn.on('room', (message) => app.rememberRoom(message.room));
conn.on('welcome', (welcome) => {
  me = welcome;
  identity.set({ name: welcome.name, token: welcome.token, player_id: welcome.player_id });
  showWho();
});
conn.on('hello_refused', (error) => {
  const saved = identity.get();
  if (error.code === 'bad_token' && saved?.name) conn.restart({ name: saved.name });
  else { identity.forget(); toast(describeError(error)); askName(); }
});
conn.on('status', (status) => {
  const badge = document.getElementById('connection');
  badge.textContent = status === 'online' ? 'online' : status === 'connecting' ? 'connecting…' : 'reconnecting…';
  badge.dataset.status = status;
});

function showWho() {
  const who = document.getElementById('who');
  who.replaceChildren(me ? h('span', { dataset: { testid: 'my-name' } }, me.name) : '');
}

// A part of the address as text, or null when it is not valid percent-encoding (a link cut
// short or mistyped): such an address shows a message instead of throwing (issue 17, bug 1).
function decodePart(part) {
  try { return decodeURIComponent(part); } catch { return null; }
}

function route() {
  leavePage?.();
  leavePage = null;
  const hash = location.hash || '#/';
  const [, page, raw] = hash.split('?')[0].split('/');
  const arg = raw ? decodePart(raw) : '';
  if (arg === null) { showBadLink(page); return; }
  if (page === 'rules') { showRulesPage(main, arg); window.scrollTo(0, 0); return; }
  if (page === 'history') {
    if (arg) showReplay(main, app, arg); else showHistoryList(main, app);
    return;
  }
  if (!identity.get() && !me) { askName(); return; }
  if (page === 'room' && arg) leavePage = showRoom(main, app, { roomId: arg });
  else if (page === 'join' && arg) leavePage = showRoom(main, app, { invite: arg });
  else leavePage = showLobby(main, app);
}

function showBadLink(page) {
  const what = page === 'join' ? 'invite link' : 'link';
  main.replaceChildren(h('section', { class: 'welcome', dataset: { testid: 'bad-link' } },
    h('h1', {}, `This ${what} is broken`),
    h('p', { role: 'alert' }, `The address has characters that do not belong there; it may have been cut short when it was copied. Ask for the ${what} again.`),
    h('a', { class: 'button primary', href: '#/' }, 'Go to the lobby')));
}

// The name is asked once; the server's token is kept with it in localStorage.
function askName() {
  const input = h('input', { id: 'player-name', required: true, autocomplete: 'nickname',
    'aria-describedby': 'name-problem', dataset: { testid: 'name-input' } });
  const problem = h('p', { id: 'name-problem', class: 'field-problem', role: 'alert', dataset: { testid: 'name-problem' } });
  input.addEventListener('input', () => { problem.textContent = ''; input.removeAttribute('aria-invalid'); });
  main.replaceChildren(h('section', { class: 'welcome' },
    h('h1', {}, 'Welcome to Mancala Online'),
    h('p', {}, 'Five rare mancala games to play with friends in the browser. Pick a name to start.'),
    h('form', { class: 'row', onsubmit: (event) => {
      event.preventDefault();
      const name = input.value.trim();
      const wrong = nameProblem(name);
      if (wrong) { problem.textContent = wrong; input.setAttribute('aria-invalid', 'true'); input.focus(); return; }
      identity.set({ name });
      conn.start({ name });
      route();
    } },
    h('label', { for: 'player-name' }, 'Your name'), input,
    h('button', { type: 'submit', class: 'primary', dataset: { testid: 'name-submit' } }, 'Play')), problem));
  input.focus();
}

// The server's rule for names (protocol README): 1 to 24 characters after trimming spaces, no
// control characters. Said before sending, instead of cutting the name or doing nothing.
const MAX_NAME = 24;
export function nameProblem(name) {
  if (!name) return 'Type a name: spaces alone are not a name.';
  const length = [...name].length;
  if (length > MAX_NAME) return `Names are at most ${MAX_NAME} characters; this one has ${length}.`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'Names cannot contain control characters.';
  return '';
}

function setupSpeed() {
  const select = document.getElementById('speed');
  select.value = animation.get();
  select.addEventListener('change', () => animation.set(select.value));
  const beepBox = document.getElementById('sound');
  beepBox.checked = sound.get();
  beepBox.addEventListener('change', () => sound.set(beepBox.checked));
}

// The games and their options come from the server once; pages are drawn only after that.
async function start() {
  for (let attempt = 0; ; attempt += 1) {
    try { await loadCatalog(); break; } catch (error) {
      main.replaceChildren(h('p', { class: 'waiting', dataset: { testid: 'catalog-error' } },
        `Cannot load the list of games (${error.message}). Trying again…`));
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * 2 ** attempt, 8000)));
    }
  }
  window.addEventListener('popstate', route);
  route();
}

setupSpeed();
const saved = identity.get();
if (saved?.token) conn.start({ token: saved.token });
else if (saved?.name) conn.start({ name: saved.name });
start();
