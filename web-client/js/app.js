// Starts the client: who the player is, the connection, and which page the address shows.
//   #/                 lobby            #/room/<id>      a room
//   #/join/<invite>    private invite   #/history        search stored games
//   #/history/<id>     replay viewer
import { h, toast } from './dom.js';
import { Connection } from './connection.js';
import { identity, animation } from './storage.js';
import { showLobby } from './lobby.js';
import { showRoom } from './room.js';
import { showHistoryList, showReplay } from './history.js';
import { describeError } from './errors.js';
import { loadCatalog } from './catalog.js';

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

function route() {
  leavePage?.();
  leavePage = null;
  const hash = location.hash || '#/';
  const [, page, arg] = hash.split('?')[0].split('/');
  if (page === 'history') {
    leavePage = null;
    if (arg) showReplay(main, app, decodeURIComponent(arg)); else showHistoryList(main, app);
    return;
  }
  if (!identity.get() && !me) { askName(); return; }
  if (page === 'room' && arg) leavePage = showRoom(main, app, { roomId: decodeURIComponent(arg) });
  else if (page === 'join' && arg) leavePage = showRoom(main, app, { invite: decodeURIComponent(arg) });
  else leavePage = showLobby(main, app);
}

// The name is asked once; the server's token is kept with it in localStorage.
function askName() {
  const input = h('input', { id: 'player-name', maxlength: 24, required: true, autocomplete: 'nickname',
    dataset: { testid: 'name-input' } });
  main.replaceChildren(h('section', { class: 'welcome' },
    h('h1', {}, 'Welcome to Mancala Online'),
    h('p', {}, 'Five rare mancala games to play with friends in the browser. Pick a name to start.'),
    h('form', { class: 'row', onsubmit: (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      identity.set({ name });
      conn.start({ name });
      route();
    } },
    h('label', { for: 'player-name' }, 'Your name'), input,
    h('button', { type: 'submit', class: 'primary', dataset: { testid: 'name-submit' } }, 'Play'))));
  input.focus();
}

function setupSpeed() {
  const select = document.getElementById('speed');
  select.value = animation.get();
  select.addEventListener('change', () => animation.set(select.value));
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
