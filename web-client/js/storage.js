// What the browser remembers between visits: who the player is (name + secret token) and the
// rooms this browser sits in, so a reload goes straight back to the seat. The guest's token is
// the only secret kept here: an account's proof is an HttpOnly cookie the page never sees.

const IDENTITY = 'mancala.identity';
const SEATS = 'mancala.seats';
const INVITES = 'mancala.invites';
const SPEED = 'mancala.animation';
const SOUND = 'mancala.sound';
const MUTED = 'mancala.muted';

function read(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch { return fallback; }
}
const write = (key, value) => localStorage.setItem(key, JSON.stringify(value));

export const identity = {
  get: () => read(IDENTITY, null),               // a guest's {name, token, player_id} or null
  set: (value) => write(IDENTITY, value),
  forget: () => localStorage.removeItem(IDENTITY),
};

// room id -> seat number, for rooms where this browser holds a seat.
export const seats = {
  get: (room) => read(SEATS, {})[room],
  set(room, seat) {
    const all = read(SEATS, {});
    if (seat === undefined || seat === null) delete all[room]; else all[room] = seat;
    write(SEATS, all);
  },
  // Someone else now plays in this browser (log in, log out): the seats were not theirs.
  forgetAll: () => localStorage.removeItem(SEATS),
};

// room id -> invite code, so a private room can be watched again after a reload.
export const invites = {
  get: (room) => read(INVITES, {})[room],
  set(room, invite) { write(INVITES, { ...read(INVITES, {}), [room]: invite }); },
};

// Sowing animation speed: 'normal', 'fast' or 'off'.
export const animation = {
  get: () => read(SPEED, 'normal'),
  set: (value) => write(SPEED, value),
};

// Sound for the Plex! race: off unless the player turns it on.
export const sound = {
  get: () => read(SOUND, false) === true,
  set: (on) => write(SOUND, Boolean(on)),
};

// Players muted in the chat, [{player_id, name}]: their messages are hidden in this browser.
// A guest's live only here; an account's are kept by the server (account_api.js) and copied
// here, so a room shows them at once.
export const muted = {
  get: () => read(MUTED, []),
  replace: (players) => write(MUTED, players.map(({ player_id, name }) => ({ player_id, name: name ?? '' }))),
  add(player) {
    const all = read(MUTED, []).filter((other) => other.player_id !== player.player_id);
    write(MUTED, [...all, { player_id: player.player_id, name: player.name ?? '' }]);
  },
  remove: (playerId) => write(MUTED, read(MUTED, []).filter((other) => other.player_id !== playerId)),
};
