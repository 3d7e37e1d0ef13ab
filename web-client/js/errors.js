// Server error codes as short sentences a player understands.
const MESSAGES = {
  bad_request: 'The server did not understand that request.',
  bad_token: 'Your saved identity is unknown here; a new one was created.',
  bad_name: 'Names are 1 to 24 characters, without control characters.',
  unknown_game: 'That game does not exist.',
  bad_option: 'One of the options is not allowed',
  not_found: 'That room or game does not exist (or is private).',
  forbidden: 'This room is private: you need its invite link.',
  seat_taken: 'Someone else just took that seat.',
  not_a_player: 'Only seated players can do that.',
  not_started: 'The game has not started yet.',
  game_over: 'The game is already over.',
  not_your_turn: 'It is not your turn.',
  stale_version: 'The board had changed; it now shows the latest position. Try again.',
  illegal_move: 'That move is not allowed here.',
  not_allowed: 'That is not possible in this game right now.',
  no_plex_window: 'There is no Plex! race open.',
  plex_lost: 'Too late: someone called Plex! first.',
  not_abandoned: 'The other player is still within the grace time.',
  rate_limited: 'Too many clicks at once; wait a moment.',
  too_many_rooms: 'You already have 5 rooms waiting for players; start or leave one first.',
  room_expired: 'This room waited too long for players and was closed.',
  too_many_seeks: 'You are already looking for 3 games; cancel one first.',
  unavailable: 'The server cannot store games for a moment (its database is restarting or its disk is full); nothing is lost. Please try again shortly.',
  internal: 'The server had a problem; please try again.',
  connection_lost: 'The connection dropped before the server answered.',
};

export function describeError(error) {
  const code = error?.code;
  const base = MESSAGES[code];
  if (!base) return error?.message || 'Something went wrong.';
  if (code === 'bad_option' && error.message) return `${base}: ${error.message}`;
  return base;
}

// Why a chat message was refused, in the chat panel. The server's words say how long to wait
// (rate_limited) or until when (silenced).
export function describeChatError(error) {
  const said = error?.message && error.message !== error.code ? error.message : '';
  switch (error?.code) {
    case 'rate_limited': return `Slow down: ${said || 'too many messages at once.'}`;
    case 'silenced': return said || 'You may not chat for now.';
    case 'bad_request': return 'Messages are 1 to 280 characters, without control characters.';
    case 'not_allowed': return said || 'Spectators\' chat is off in this room.';
    case 'not_found': return 'This room is gone: the message was not sent.';
    default: return describeError(error);
  }
}
