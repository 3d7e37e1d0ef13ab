// What a visitor who arrives by a link, without a name yet, is told of the game it leads to:
// "Ada invites you to Cups, 5 min + 3 s". Before the visitor says hello the server tells
// nothing of a waiting room (its lobby and rooms need a hello; the history API knows only games
// that started), so the name page says what the history API knows of a room link, and the
// room says the invite's sentence once its `room` message arrives. Pure.
import { list } from './words.js';

// room: {host, game (its name), clock (its time control in words), status, players (names)}
// or null when nothing is known yet.
export function inviteSentence(room, { invite = false } = {}) {
  if (!room) return invite ? 'You are invited to a private game.' : 'You are invited to a game room.';
  const what = [room.game, room.clock].filter(Boolean).join(', ');
  if (room.status === 'finished') return `This ${room.game} game is over.`;
  if (room.status === 'playing' && room.players?.length) {
    return `${list(room.players)} are playing ${what}: you can watch.`;
  }
  return room.host ? `${room.host} invites you to ${what}` : `You are invited to ${what}`;
}

// The facts of a `room` message for the sentence, seen by player `me`: a room message names no
// host (lobby entries do), so the host is whoever else sits there.
export function roomInviteFacts(room, me, { gameName = (id) => id, clockText = () => '' } = {}) {
  const others = room.seats.filter((seat) => seat.player_id && seat.player_id !== me && !(Number.isInteger(seat.bot) && seat.bot > 0))
    .map((seat) => seat.name);
  return { host: room.host ?? (others.length ? list(others) : null), game: gameName(room.game),
    clock: clockText(room.time_control), status: room.status === 'finished' ? 'finished' : 'waiting' };
}
