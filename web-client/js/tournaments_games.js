// A tournament player's way to their games (issue 48). When the server pairs a player of a
// running tournament it sends an unsolicited `room` (playing, version 0), as for a quick-pairing
// seek; a player waiting on the tournament page is taken there. The room's data does not say it
// is a tournament game, so this tab keeps which rooms belong to which tournament (sessionStorage),
// and a room page of one shows a bar above it: back to the tournament, or on to the next game
// the server has paired meanwhile.
import { h } from './dom.js';
import { t } from './i18n/index.js';

const KEY = 'mancala.tournament_rooms';   // room id -> tournament id, this tab only

function remembered() {
  try { return JSON.parse(sessionStorage.getItem(KEY) ?? '{}') ?? {}; } catch { return {}; }
}
export const tournamentOfRoom = (roomId) => remembered()[roomId] ?? null;
export function rememberRoom(roomId, tournamentId) {
  const rooms = remembered();
  if (rooms[roomId] === tournamentId) return;
  rooms[roomId] = tournamentId;
  // A long arena's rooms: only the latest hundred are worth a link back.
  const kept = Object.entries(rooms).slice(-100);
  try { sessionStorage.setItem(KEY, JSON.stringify(Object.fromEntries(kept))); } catch { /* storage full or off */ }
}

const state = {
  app: null,
  showing: null,       // {id, view} of the tournament page on screen, or null
  roomShown: null,     // the room page on screen, or null
  next: null,          // {room, tournament}: a game paired while the player was in another room
};

// After the page that called has drawn (a navigation inside a page's drawing would run the next
// page's route before this one's has returned).
const go = (app, hash) => queueMicrotask(() => { if (location.hash !== hash) app.navigate(hash); });

const seatsMe = (app, room) => room?.seats?.some((seat) => seat.player_id === app.me()?.player_id);
const meIn = (app, view) => view?.players?.find((player) => player.player_id === app.me()?.player_id) ?? null;

// Once per page load.
export function installTournamentGames(app) {
  if (state.app) return;
  state.app = app;
  app.conn.on('room', (message) => {
    const room = message.room;
    if (message.id !== undefined || !room || room.status !== 'playing' || room.version !== 0 || !seatsMe(app, room)) return;
    const here = state.showing;
    const me = meIn(app, here?.view);
    if (here && me && !me.paused && here.view.status === 'running') {
      rememberRoom(room.id, here.id);
      go(app, `#/room/${room.id}`);
      return;
    }
    // In a room of a tournament (its game over, the result read): the next game is offered.
    const from = state.roomShown && tournamentOfRoom(state.roomShown);
    if (from) {
      // Not remembered yet: a new game, which the tournament page takes the player to.
      state.next = { room: room.id, tournament: from };
      drawBar();
    }
  });
}

// My game being played in this view of a tournament, as this tab knows its rooms, or null.
export function myGame(view) {
  const app = state.app;
  if (!app || !meIn(app, view)?.playing) return null;
  return (view.rooms ?? []).find((roomId) => {
    const room = app.roomsSeen.get(roomId);
    return room && room.status === 'playing' && seatsMe(app, room);
  }) ?? null;
}

// Called by the tournament page with every view it shows: a game of mine that this tab has not
// been to yet is where I go (the next one, paired while I read the last one's result). A game I
// have been to and left for this page is only offered (the page's link), so that I can pause.
export function showingTournament(id, view) {
  const app = state.app;
  state.showing = view ? { id, view } : null;
  const roomId = view ? myGame(view) : null;
  if (!roomId || tournamentOfRoom(roomId)) return;
  rememberRoom(roomId, id);
  go(app, `#/room/${roomId}`);
}

export const leftTournament = () => { state.showing = null; };

// The bar above a room page of a tournament; app.js calls this on every route.
export function routeTournamentBar(page, arg) {
  state.roomShown = page === 'room' && arg ? arg : null;
  if (state.next && state.next.room === state.roomShown) {
    rememberRoom(state.next.room, state.next.tournament);
    state.next = null;
  }
  drawBar();
}

function barElement() {
  let bar = document.getElementById('tournament-bar');
  if (!bar) {
    bar = h('div', { id: 'tournament-bar', class: 'tournament-bar', dataset: { testid: 'tournament-bar' }, hidden: true });
    document.getElementById('main')?.before(bar);
  }
  return bar;
}

function drawBar() {
  const bar = barElement();
  const tournament = state.roomShown && tournamentOfRoom(state.roomShown);
  bar.hidden = !tournament;
  if (!tournament) { bar.replaceChildren(); return; }
  const next = state.next?.tournament === tournament ? state.next.room : null;
  // replaceChildren writes a null as the text "null": only the nodes there are.
  bar.replaceChildren(...[
    h('span', {}, t('tournaments.bar_game_of')),
    h('a', { class: 'button quiet small', href: `#/tournaments/${encodeURIComponent(tournament)}`, dataset: { testid: 'tournament-back' } },
      t('tournaments.back')),
    next ? h('a', { class: 'button primary small', href: `#/room/${encodeURIComponent(next)}`, dataset: { testid: 'tournament-next-game' } },
      t('tournaments.next_game')) : null].filter(Boolean));
}
