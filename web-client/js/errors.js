// Server error codes as short sentences a player understands, in the player's language.
import { t } from './i18n/index.js';
import { CHAT_MAX } from './chat_state.js';

// The codes said in the catalogue (error.<code>); others show the server's own message.
const KNOWN = new Set(['bad_request', 'bad_token', 'bad_name', 'unknown_game', 'bad_option', 'not_found', 'forbidden', 'seat_taken', 'not_a_player', 'not_started', 'game_over', 'not_your_turn', 'stale_version', 'illegal_move', 'not_allowed', 'no_plex_window', 'plex_lost', 'not_abandoned', 'rate_limited', 'too_many_rooms', 'room_expired', 'too_many_seeks', 'unavailable', 'internal', 'connection_lost']);

export function describeError(error) {
  const code = error?.code;
  if (!KNOWN.has(code)) return error?.message || t('error.unknown');
  const base = t(`error.${code}`);
  if (code === 'bad_option' && error.message) return `${base}: ${error.message}`;
  return base;
}

// Why a chat message was refused, in the chat panel. The server's words say how long to wait
// (rate_limited) or until when (silenced).
export function describeChatError(error) {
  const said = error?.message && error.message !== error.code ? error.message : '';
  switch (error?.code) {
    case 'rate_limited': return t('chat.slow_down', { why: said || t('chat.too_many') });
    case 'silenced': return said || t('chat.silenced');
    case 'bad_request': return t('chat.bad_message', { max: CHAT_MAX });
    case 'not_allowed': return said || t('chat.spectators_off_short');
    case 'not_found': return t('chat.room_gone');
    default: return describeError(error);
  }
}
