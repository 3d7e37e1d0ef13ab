// What a visitor who arrives by a link, without a name yet, is told of the game it leads to:
// "Ada invites you to Cups, 5 min + 3 s". Before the visitor says hello the server tells
// nothing of a waiting room (its lobby and rooms need a hello; the history API knows only games
// that started), so the name page says what the history API knows of a room link, and the
// room says the invite's sentence once its `room` message arrives. Pure.
import { t, formatList } from './i18n/index.js';

// room: {host, game (its name), clock (its time control in words), status, players (names)}
// or null when nothing is known yet.
export function inviteSentence(room, { invite = false } = {}) {
  if (!room) return t(invite ? 'invite.private' : 'invite.room');
  const what = [room.game, room.clock].filter(Boolean).join(', ');
  if (room.status === 'finished') return t('invite.over', { game: room.game });
  if (room.status === 'playing' && room.players?.length) {
    return t('invite.playing', { players: formatList(room.players), what });
  }
  // A rated room seats accounts only: a guest hears it here, before picking a name (issue 49).
  const watchOnly = room.rated && room.guest ? ` ${t('invite.rated_watch')}` : '';
  return (room.host ? t('invite.host', { host: room.host, what }) : t('invite.you', { what })) + watchOnly;
}

// The facts of a `room` message for the sentence, seen by player `me`: a room message names no
// host (lobby entries do), so the host is whoever else sits there.
export function roomInviteFacts(room, me, { gameName = (id) => id, clockText = () => '' } = {}) {
  const others = room.seats.filter((seat) => seat.player_id && seat.player_id !== me && !(Number.isInteger(seat.bot) && seat.bot > 0))
    .map((seat) => seat.name);
  return { host: room.host ?? (others.length ? formatList(others) : null), game: gameName(room.game),
    clock: clockText(room.time_control), status: room.status === 'finished' ? 'finished' : 'waiting' };
}
