// Updates told in words: "Ada sowed 3 beans from the reserve", "Bao played cup 4 into the pot,
// capturing 2". One sentence per update, built from the events the server sends with it (the
// same events the history API stores with each turn), so the room's move list, its caption and
// the history viewer say the same thing. Each event kind is told here, but for a turn, which its
// game's module tells (boards/).
import { GAMES } from './boards/index.js';
import { reasonText } from './rounds.js';
import { t } from './i18n/index.js';

// A turn as its game tells it.
function turnText(game, event, names) {
  const name = names[event.player] ?? t('lobby.seat', { n: event.player + 1 });
  return GAMES[game]?.describeTurn(event, name, names) ?? t('moves.moved', { name });
}

const TOLD_BY_ACTION = new Set(['resign', 'concession', 'timeout']);

// The sentence of one event, or null for events that need none of their own.
function eventText(game, event, names) {
  const who = (seat) => names[seat] ?? t('lobby.seat', { n: Number(seat) + 1 });
  switch (event.event) {
    case 'turn': return turnText(game, event, names);
    case 'pass': return t('moves.passed', { name: who(event.player) });
    case 'resign': return t('moves.resigned', { name: who(event.seat ?? event.player) });
    case 'concede': return t('moves.conceded', { name: who(event.seat ?? event.player) });
    case 'timeout': return t('moves.timed_out', { name: who(event.seat) });
    case 'abandon': return t('moves.left', { name: who(event.seat ?? event.player) });
    case 'round_end': {
      // A resignation, concession or timeout is told by its own event already.
      if (TOLD_BY_ACTION.has(event.end_reason)) return t('moves.round_over', { n: event.round ?? '' }).replace('  ', ' ');
      const seat = [event.offender, event.stuck_player].find(Number.isInteger);
      const why = reasonText(event.end_reason, seat === undefined ? null : who(seat)).replace(/\.$/, '');
      return `${t('moves.round_over', { n: event.round ?? '' })}. ${why}`.replace('  ', ' ');
    }
    case 'game_end': return t('moves.game_over');
    // Events of one game are told by its module.
    default: return GAMES[game]?.describeEvent?.(event, who) ?? null;
  }
}

// Actions the server sends whose event list may not name them (older records, `abandon`).
const ACTION_EVENTS = { resign: 'resign', concede: 'concede', abandon: 'abandon', timeout: 'timeout' };

const DIRECTIONS = { R: 'moves.right', L: 'moves.left_dir', cw: 'option_value.cw', ccw: 'option_value.ccw' };

// One decision of a turn in words, for turns still being played (no events yet).
function tokenWords(game, token) {
  const [, kind, n] = /^([rc]?)(\d+)$/.exec(token) ?? [];
  if (kind === 'r') return t('moves.from_reserve', { n: Number(n) });
  if (n !== undefined) return kind ? t('moves.cup', { n: Number(n) }) : `${GAMES[game]?.nouns.place ?? t('moves.place')} ${n}`;
  return DIRECTIONS[token] ? t(DIRECTIONS[token]) : GAMES[game]?.tokenWord?.(token) ?? token;
}

// A whole move's tokens in words ("c3 R" -> "cup 3, right"), for the engine's best move.
export const moveWords = (game, tokens) => tokens.split(' ').map((token) => tokenWords(game, token)).join(', ');

// update: {seat, action, tokens, events}. A half-played update (a decision of a turn of several,
// no events yet) is told by its tokens.
export function describeUpdate(game, update, names) {
  const events = update.events ?? [];
  const parts = [];
  const action = ACTION_EVENTS[update.action];
  if (action && !events.some((e) => e.event === action)) parts.push(eventText(game, { event: action, seat: update.seat }, names));
  for (const event of events) {
    const text = eventText(game, event, names);
    if (text && !parts.includes(text)) parts.push(text);
  }
  if (!parts.length && update.tokens) {
    const name = names[update.seat] ?? t('lobby.seat', { n: update.seat + 1 });
    return t('moves.mid_turn', { name, move: moveWords(game, update.tokens) });
  }
  if (!parts.length) return '';
  // Sentences end with a full stop unless they end with their own (Plex!).
  return parts.map((part, i) => (i ? part : part.charAt(0).toUpperCase() + part.slice(1)))
    .map((part) => (/[.!?]$/.test(part) ? part : `${part}.`)).join(' ');
}

// A turn entry of the history API as an update: moves carry tokens; the others begin with the
// event that names them (resign, concede, plex_result, timeout).
export function historyUpdate(turn) {
  const first = turn.events?.[0]?.event;
  const action = turn.tokens ? 'move' : (turn.event ?? first ?? 'move');
  return { seat: turn.seat ?? turn.player ?? turn.events?.[0]?.seat ?? turn.events?.[0]?.player, action, tokens: turn.tokens ?? '', events: turn.events ?? [] };
}

// The entries of a record that are actions, by the version each one made: a stored game's carry
// their version; an imported record's (docs/records.md) are counted, a move or a resignation,
// timeout, concession or claim race's result each being one, the forced events none.
const ACTION_ENTRIES = new Set(['resign', 'timeout', 'concede', 'plex_result']);
export function actionsByVersion(turns = []) {
  if (turns.some((turn) => turn.version !== undefined)) {
    return new Map(turns.filter((turn) => turn.version !== undefined).map((turn) => [turn.version, turn]));
  }
  const actions = turns.filter((turn) => turn.tokens !== undefined || ACTION_ENTRIES.has(turn.event));
  return new Map(actions.map((turn, i) => [i + 1, turn]));
}

// An action in words: by its events where the record has them, else (an imported record, whose
// entries have neither events nor versions) by its tokens: "Ana played cup 3, right".
export function describeAction(game, turn, names) {
  if (turn.version === undefined && !turn.events?.length && turn.tokens) return t('moves.played', { name: names[turn.seat] ?? t('lobby.seat', { n: turn.seat + 1 }), move: moveWords(game, turn.tokens) });
  return describeUpdate(game, historyUpdate(turn), names);
}
