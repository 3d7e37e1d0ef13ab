// A room as data: what the server said of it (`room`, `update`, `updates`, `presence`, claim
// windows, `rematch`) and what the page does with it (updates played back one at a time, an
// earlier version looked at, a move on its way, the history loaded), and its chat (the messages
// kept, oldest first, and the players this browser muted: chat_state.js). `reduce` is pure: the room
// page sends every message through it and draws the state it returns (room.js, room_view.js);
// it draws nothing itself, so Node tests call it directly.
import { holdClock } from './clock.js';
import { claimWindows } from './catalog.js';
import { historyUpdate } from './moves.js';
import { addChat, chatFromRoom, visibleChat } from './chat_state.js';

export function initialState({ roomId = null, playerId = null, muted = [] } = {}) {
  return {
    roomId,                // the room shown (an invite's comes with the reply to our join)
    playerId,              // who this browser is
    room: null,            // the latest room message, with its state, version and status kept current
    shownState: null,      // the state played back so far: behind room.state while updates play
    queue: [],             // updates still to play back, oldest first
    positions: new Map(),  // version -> state, for stepping back
    updates: new Map(),    // version -> {seat, action, tokens, events}, for the move list
    viewing: null,         // the version shown instead of the live one, or null
    caption: null,         // the version whose update the caption under the board tells
    clock: null,           // the latest clock, held (clock.js)
    rematchSeats: [],      // seats that asked for a rematch
    claim: null,           // {name, window, deadline, total, mover} while a claim race is open
    claimResult: null,     // {name, events, at}: the update that ended the last race, and when
    roundEnd: null,        // the events of the latest update that ended a round
    busy: false,           // a move of ours is on its way
    historyAsked: false,
    outOfStep: false,      // an update came after a gap: the page must ask for what it missed
    boardEpoch: 0,         // counts positions that replace the board's instead of following it
    joinError: null,       // {code, message, invite} when the room cannot be shown
    chat: [],              // the chat messages this member may read, oldest first (chat_state.js)
    muted,                 // [{player_id, name}]: players whose messages this browser hides
  };
}

// `now`: the local time the message arrived (clocks and claim deadlines count from it).
export function reduce(state, message, now = Date.now()) {
  const claimOpened = /^(.+)_open$/.exec(message.type)?.[1];
  if (claimOpened) return openClaim(state, claimOpened, message, now);
  const step = STEPS[message.type];
  return step ? step(state, message, now) : state;
}

const STEPS = {
  room: applyRoom,
  update: applyUpdate,
  updates: (state, { updates }, now) => updates.reduce((next, update) => applyUpdate(next, update, now), { ...state, outOfStep: false }),
  presence: applyPresence,
  rematch: (state, message) => (isOurs(state, message) ? { ...state, rematchSeats: message.seats ?? [] } : state),
  welcome: (state, message) => ({ ...state, playerId: message.player_id }),
  history_asked: askHistory,
  history: applyHistory,
  positions: (state, { states }) => ({ ...state, positions: withPositions(state.positions, states) }),
  played,
  view: viewVersion,
  live: goLive,
  sending: (state) => ({ ...state, busy: true }),
  sent: (state) => ({ ...state, busy: false }),
  join_failed: (state, { error, invite }) => ({ ...state, joinError: { code: error.code ?? 'error', message: error.message, invite } }),
  chat: (state, message) => (isOurs(state, message) ? { ...state, chat: addChat(state.chat, message) } : state),
  muted: (state, { players }) => ({ ...state, muted: players }),
};

const isOurs = (state, message) => Boolean(state.room) && message.room === state.room.id;

// --- selectors --------------------------------------------------------------------------------
export const mySeat = (state) => state.room?.seats.find((seat) => seat.player_id && seat.player_id === state.playerId)?.seat ?? null;

// Updates are being played back (the board is behind the server).
export const animating = (state) => state.queue.length > 0;

// What the board shows: the version looked at, else the position played back so far.
export const boardState = (state) => (state.viewing !== null ? state.positions.get(state.viewing) : state.shownState);

// The board shows the latest position: nothing to play back, nothing looked at.
export const isLatest = (state) => !animating(state) && state.shownState === state.room?.state && state.viewing === null;

// Versions before this page opened come from the history API, once the game has started.
export const wantsHistory = (state) => !state.historyAsked && Boolean(state.room?.state) &&
  !(state.room.version === 0 && state.room.status !== 'playing');

// It is this player's move in the game being played (the latest position, not the one shown).
export function isMyMove(state) {
  const { room } = state;
  const me = mySeat(state);
  return Boolean(room?.state) && room.status === 'playing' && me !== null && room.state.phase === 'play' && room.state.to_move === me;
}

// The chat lines this member is shown, and the muted writers left out (chat_state.js).
export const chatLines = (state) => visibleChat(state.chat, { playerId: state.playerId, seated: mySeat(state) !== null,
  status: state.room?.status, muted: state.muted });

// Everyone asked for a rematch: its room came in this room's message.
export const rematchStarted = (before, after) => Boolean(before.room && !before.room.rematch && after.room?.rematch);

const isPartial = (entry) => Boolean(entry && !entry.events.length && entry.tokens && (entry.action ?? 'move') === 'move');

// The move list, one line per version with an update (`entry`): a turn still being played is one
// line with its decisions so far (`tokens`, `partial`).
export function moveLines(state) {
  return [...state.updates.keys()].sort((a, b) => a - b).map((version) => {
    const entry = state.updates.get(version);
    const partial = isPartial(entry);
    let tokens = entry.tokens;
    for (let v = version - 1; partial && isPartial(state.updates.get(v)) && state.updates.get(v).seat === entry.seat; v -= 1) {
      tokens = `${state.updates.get(v).tokens} ${tokens}`;
    }
    return { version, entry, tokens, partial };
  });
}

// --- the server's messages ----------------------------------------------------------------------
const withEntry = (map, key, value) => new Map(map).set(key, value);

// `ours`: the reply to our own join (an invite names no room id until this reply).
function applyRoom(state, { room: next, ours = false }, now) {
  if (!ours && next.id !== state.roomId) return state;
  const old = state.room;
  const newer = !old || next.version > old.version || Boolean(next.state && !old.state);
  // Same version: the state already shown is kept (it is the same position).
  const room = { ...old, ...next, ...(newer ? {} : { state: old.state, version: old.version }) };
  return {
    ...state,
    roomId: room.id,
    room,
    outOfStep: false,
    // The conversation so far, as this member may see it: a room message without one (a server
    // before chat) keeps what the page has.
    chat: Array.isArray(next.chat) ? chatFromRoom(state.chat, next.chat) : state.chat,
    clock: 'clock' in next ? holdClock(next.clock ?? next.state?.clock ?? null, now) : state.clock,
    positions: room.state ? withEntry(state.positions, room.version, room.state) : state.positions,
    ...(newer ? { queue: [], shownState: room.state, boardEpoch: state.boardEpoch + (state.viewing === null ? 1 : 0) } : {}),
  };
}

function applyUpdate(state, update, now) {
  const { room } = state;
  if (!room || update.room !== room.id || update.version <= room.version) return state;
  if (update.version > room.version + 1) return { ...state, outOfStep: true };
  const status = update.state?.phase === 'over' ? 'finished' : room.status;
  return {
    ...state,
    room: { ...room, version: update.version, state: update.state, status },
    queue: [...state.queue, update],
    clock: update.state && 'clock' in update.state ? holdClock(update.state.clock, now) : state.clock,
    ...remember(state, update.version, update, update.state),
    ...endClaim(state, update, now),
    roundEnd: update.events?.some((event) => event.event === 'round_end') ? update.events : state.roundEnd,
  };
}

const entryOf = (update) => ({ seat: update.seat, action: update.action, tokens: update.tokens ?? '', events: update.events ?? [] });

function remember(state, version, update, position) {
  return {
    positions: position ? withEntry(state.positions, version, position) : state.positions,
    updates: withEntry(state.updates, version, entryOf(update)),
  };
}

function applyPresence(state, message) {
  if (!isOurs(state, message) || !state.room.seats[message.seat]) return state;
  const seats = state.room.seats.map((seat, i) => (i !== message.seat ? seat
    : { ...seat, connected: message.connected, grace_until: message.connected ? null : message.grace_until }));
  return { ...state, room: { ...state.room, seats } };
}

// A claim window of this room's game opens (`<name>_open`): the race lasts `deadline_ms`.
function openClaim(state, name, message, now) {
  if (!isOurs(state, message) || !claimWindows(state.room.game).includes(name)) return state;
  const claim = { name, window: message.window, deadline: now + message.deadline_ms, total: message.deadline_ms, mover: message.mover };
  return { ...state, claim };
}

// A claim won (action `<name>`) or its deadline passed (`<name>_timeout`) ends the race.
function endClaim(state, update, now) {
  const name = claimWindows(state.room.game).find((claim) => update.action === claim || update.action === `${claim}_timeout`);
  return name ? { claim: null, claimResult: { name, events: update.events ?? [], at: now } } : {};
}

// --- what the page does -----------------------------------------------------------------------
function askHistory(state) {
  const { room } = state;
  const positions = room.version === 0 ? withEntry(state.positions, 0, room.state) : state.positions;
  return { ...state, historyAsked: true, positions };
}

// States fetched ([version, state] pairs) that this page has not seen itself.
function withPositions(positions, states) {
  const out = new Map(positions);
  for (const [version, position] of states) if (!out.has(version)) out.set(version, position);
  return out;
}

// The stored game's record and the states fetched of it so far ([version, state] pairs; the
// others come with `positions` as they are looked at): the turns and positions this page has
// not seen.
function applyHistory(state, { record, states }) {
  const positions = withPositions(state.positions, states);
  const updates = new Map(state.updates);
  for (const turn of record.turns ?? []) {
    if (turn.version !== undefined && !updates.has(turn.version)) updates.set(turn.version, entryOf(historyUpdate(turn)));
  }
  const next = { ...state, positions, updates };
  const quiet = !animating(next) && next.viewing === null && next.room.version > 0 && next.caption === null;
  return quiet ? { ...next, caption: next.room.version } : next;
}

// The first update of the queue has been played back (or skipped while looking back).
function played(state, { version }) {
  const [update, ...rest] = state.queue;
  if (update?.version !== version) return state;
  return { ...state, queue: rest, shownState: update.state, caption: state.viewing === null ? version : state.caption };
}

function viewVersion(state, { version }) {
  if (!state.positions.has(version)) return state;
  if (version === state.room.version && !animating(state)) return goLive(state);
  return { ...state, viewing: version, caption: version };
}

function goLive(state) {
  if (animating(state)) return { ...state, viewing: null };
  return { ...state, viewing: null, shownState: state.room.state, caption: state.room.version };
}
