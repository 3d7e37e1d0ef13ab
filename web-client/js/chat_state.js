// The room's chat as data (issue 33): the messages this member may read, who writes to which
// channel, who may turn spectators' chat off, and what the page shows once muted players are
// left out. Pure, like the room's reducer that keeps the list (room_state.js): Node tests call it.
//
// The server decides who receives what (a seated player gets no spectators' message while the
// game is being played); the page still leaves out what it should not show, for a `room`
// message's list that was made before a spectator sat down.

export const CHAT_MAX = 280;           // characters, as the server counts them
export const CHAT_KEPT = 100;          // messages kept in the page: the server's room message sends 50
export const QUICK_PHRASES = ['Good luck', 'Good game', 'Thanks', 'Well played'];

// Only the fields the contract names: nothing else of a message reaches the page.
const entry = ({ channel, player_id, name, account, text, at }) => ({
  channel: channel === 'spectators' ? 'spectators' : 'players', player_id, name: name ?? '', account: account === true,
  text: String(text ?? ''), at,
});

// A message is the same one when its writer, time and words are (the server refuses the same
// text twice in a row, so two of them never share all three).
const sameMessage = (a, b) => a.player_id === b.player_id && a.at === b.at && a.text === b.text;

const capped = (list) => (list.length > CHAT_KEPT ? list.slice(list.length - CHAT_KEPT) : list);

// One `chat` message from the server, after those already kept (the sender receives theirs too).
export function addChat(list, message) {
  const next = entry(message);
  return list.some((old) => sameMessage(old, next)) ? list : capped([...list, next]);
}

// A `room` message's `chat`: the conversation so far, oldest first, as this member may see it
// (its last 50). Messages kept from before its first one stay: a room message sent for anything
// else (someone came back) does not cut a long conversation short.
export function chatFromRoom(kept, messages) {
  const incoming = messages.map(entry);
  const start = incoming.length ? kept.findIndex((old) => sameMessage(old, incoming[0])) : -1;
  return capped(start > 0 ? [...kept.slice(0, start), ...incoming] : incoming);
}

// --- who may do what ------------------------------------------------------------------------------
// A seated player writes to the players, anyone else in the room to the spectators.
export const chatChannel = (seated) => (seated ? 'players' : 'spectators');

// The room's creator: the seat whose player is the room's host, or seat 0's player for a server
// that does not say who the host is.
export function isHost(room, playerId) {
  if (!room || !playerId) return false;
  if (room.host_id) return room.host_id === playerId;
  return room.seats?.[0]?.player_id === playerId;
}

// Spectators may write unless the host turned their chat off; players always may.
export const mayWrite = (room, seated) => seated || room?.spectator_chat !== false;

// While the game is being played a seated player does not read the spectators (no advice
// from the audience); once it is finished they do.
export const mayRead = (message, { seated, status }) => !(seated && status === 'playing' && message.channel === 'spectators');

// --- what is shown ----------------------------------------------------------------------------------
// `muted`: [{player_id, name}] kept by this browser (storage.js). Returns the lines to show,
// each marked `mine` or not, and the muted writers whose messages were left out with how many:
// [{player_id, name, count}].
export function visibleChat(chat, { playerId = null, seated = false, status = 'waiting', muted = [] } = {}) {
  const mutedIds = new Set(muted.map((player) => player.player_id));
  const lines = [];
  const hidden = new Map();
  for (const message of chat) {
    if (!mayRead(message, { seated, status })) continue;
    const mine = Boolean(playerId) && message.player_id === playerId;
    if (!mine && mutedIds.has(message.player_id)) {
      const known = hidden.get(message.player_id) ?? { player_id: message.player_id, name: message.name, count: 0 };
      hidden.set(message.player_id, { ...known, name: message.name || known.name, count: known.count + 1 });
      continue;
    }
    lines.push({ ...message, mine });
  }
  return { lines, hidden: [...hidden.values()] };
}

// The text as the server will take it: trimmed, or null when there is nothing to send.
export function chatText(raw) {
  const text = String(raw ?? '').trim();
  return text ? text : null;
}

// --- the history viewer ---------------------------------------------------------------------------
// A stored game's `chat` placed among its moves: each message gets the version of the last turn
// played when it was sent (`turns[i].at`; 0 before the first), and `afterEnd` once the game was
// over (`finished`). Order is kept: the server lists them as they were sent.
export function placeChat(chat = [], turns = [], finished = null) {
  const steps = turns.filter((turn) => turn.version !== undefined && !Number.isNaN(Date.parse(turn.at)))
    .map((turn) => ({ version: turn.version, at: Date.parse(turn.at) })).sort((a, b) => a.version - b.version);
  const end = finished ? Date.parse(finished) : NaN;
  return chat.map((message) => {
    const at = Date.parse(message.at);
    let version = 0;
    for (const step of steps) if (step.at <= at) version = Math.max(version, step.version);
    return { ...entry(message), version, afterEnd: at > end };
  });
}
