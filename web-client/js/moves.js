// Updates told in words: "Ada sowed 3 beans from the reserve", "Bao played cup 4 into the pot,
// capturing 2". One sentence per update, built from the events the server sends with it (the
// same events the history API stores with each turn), so the room's move list, its caption and
// the history viewer say the same thing. Each event kind is told here, but for a turn, which its
// game's module tells (boards/).
import { GAMES } from './boards/index.js';
import { reasonText } from './rounds.js';

// A turn as its game tells it.
function turnText(game, event, names) {
  const name = names[event.player] ?? `Seat ${event.player + 1}`;
  return GAMES[game]?.describeTurn(event, name, names) ?? `${name} moved`;
}

const TOLD_BY_ACTION = new Set(['resign', 'concession', 'timeout']);

// The sentence of one event, or null for events that need none of their own.
function eventText(game, event, names) {
  const who = (seat) => names[seat] ?? `Seat ${Number(seat) + 1}`;
  switch (event.event) {
    case 'turn': return turnText(game, event, names);
    case 'pass': return `${who(event.player)} could not move and passed`;
    case 'resign': return `${who(event.seat ?? event.player)} resigned`;
    case 'concede': return `${who(event.seat ?? event.player)} conceded the round`;
    case 'timeout': return `${who(event.seat)} ran out of time`;
    case 'abandon': return `${who(event.seat ?? event.player)} left the game`;
    case 'round_end': {
      // A resignation, concession or timeout is told by its own event already.
      if (TOLD_BY_ACTION.has(event.end_reason)) return `Round ${event.round ?? ''} is over`.replace('  ', ' ');
      const seat = [event.offender, event.stuck_player].find(Number.isInteger);
      const why = reasonText(event.end_reason, seat === undefined ? null : who(seat)).replace(/\.$/, '');
      return `Round ${event.round ?? ''} is over. ${why}`.replace('  ', ' ');
    }
    case 'game_end': return 'Game over';
    // Events of one game are told by its module.
    default: return GAMES[game]?.describeEvent?.(event, who) ?? null;
  }
}

// Actions the server sends whose event list may not name them (older records, `abandon`).
const ACTION_EVENTS = { resign: 'resign', concede: 'concede', abandon: 'abandon', timeout: 'timeout' };

const DIRECTIONS = { R: 'right', L: 'left', cw: 'clockwise', ccw: 'counterclockwise' };

// One decision of a turn in words, for turns still being played (no events yet).
function tokenWords(game, token) {
  const [, kind, n] = /^([rc]?)(\d+)$/.exec(token) ?? [];
  if (kind === 'r') return `${n} from the reserve`;
  if (n !== undefined) return `${kind ? 'cup' : GAMES[game]?.nouns.place ?? 'place'} ${n}`;
  return DIRECTIONS[token] ?? GAMES[game]?.tokenWord?.(token) ?? token;
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
    const name = names[update.seat] ?? `Seat ${update.seat + 1}`;
    return `${name} is in the middle of a turn: ${moveWords(game, update.tokens)}…`;
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
  if (turn.version === undefined && !turn.events?.length && turn.tokens) return `${names[turn.seat] ?? `Seat ${turn.seat + 1}`} played ${moveWords(game, turn.tokens)}.`;
  return describeUpdate(game, historyUpdate(turn), names);
}
