// Updates told in words: "Ada sowed 3 beans from the reserve", "Bao played cup 4 into the pot,
// capturing 2". One sentence per update, built from the events the server sends with it (the
// same events the history API stores with each turn), so the room's move list, its caption and
// the history viewer say the same thing. Each event kind is told by one function; the games
// differ only in the words for what they sow (beans, coins, counters, stones) and places.
import { COIN_NAMES } from './boards/coin_duel.js';
import { reasonText } from './scores.js';

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const list = (parts) => (parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`);

// What each game sows, and how it names a place, for the sentences below.
const NOUNS = {
  cups: { item: 'bean', place: 'cup' },
  coin_duel: { item: 'coin', place: 'cup' },
  oanquan: { item: 'counter', place: 'square' },
  njaka: { item: 'counter', place: 'hole' },
  duovallis: { item: 'stone', place: 'hole' },
};
const nouns = (game) => NOUNS[game] ?? { item: 'counter', place: 'place' };

// Coin counts [P, N, D, Q] (Coin Duel stages 2–3) or a plain number, in words.
function itemsText(game, items) {
  if (Array.isArray(items)) {
    const kinds = ['P', 'N', 'D', 'Q'];
    const parts = items.map((n, k) => (n ? plural(n, COIN_NAMES[kinds[k]].toLowerCase(), kinds[k] === 'P' ? 'pennies' : undefined) : null))
      .filter(Boolean);
    return parts.length ? list(parts) : 'nothing';
  }
  return plural(Number(items ?? 0), nouns(game).item);
}

// A turn of several laps: each lap after the first is a relay.
const relays = (laps) => (laps > 1 ? `, with ${plural(laps - 1, 'relay')}` : '');

// The Cups family (Cups, Coin Duel): a reserve play or a cup, relays, an exact pot, a capture.
function rowsTurn(game, event, name) {
  const { item, place } = nouns(game);
  const move = event.move ?? {};
  const laps = event.trace ?? [];
  let text = move.source === 'reserve'
    ? `${name} sowed ${plural(move.count, item)} from the reserve`
    : `${name} played ${place} ${move.cup}`;
  const coins = (move.laps ?? []).map((lap) => lap.coins ?? []).flat();
  if (coins.length && move.source === 'reserve') text += ` (${coins.slice(0, move.count).map((c) => COIN_NAMES[c] ?? c).join(', ')})`;
  text += relays(laps.length);
  if (laps.some((lap) => lap.dir === 'L')) text += laps.length > 1 ? ' (some laps to the left)' : ' to the left';
  if (laps.at(-1)?.result === 'pot') text += ', ending in the pot';
  const capture = event.capture;
  if (capture && (Array.isArray(capture.items) || capture.items !== 0)) {
    text += `, capturing ${itemsText(game, capture.items ?? 1)} from ${place} ${capture.cup}`;
  }
  return text;
}

function oanquanTurn(event, name) {
  const dir = event.move?.dir === 'cw' ? 'clockwise' : 'counterclockwise';
  let text = `${name} played square ${event.move?.pit} ${dir}`;
  const captures = event.captures ?? [];
  if (captures.length) {
    const small = captures.reduce((sum, c) => sum + (c.small ?? 0), 0);
    const large = captures.filter((c) => c.large).length;
    const parts = [small ? plural(small, 'counter') : null, large ? (large === 1 ? 'a big stone' : `${large} big stones`) : null].filter(Boolean);
    text += `, capturing ${list(parts) || 'an empty square'}`;
  }
  return text;
}

function njakaTurn(event, name, names) {
  let text = `${name} played hole ${event.move?.pit}`;
  const sets = new Map();
  for (const capture of event.captures ?? []) sets.set(capture.to, (sets.get(capture.to) ?? 0) + 1);
  if (sets.size) {
    text += `: ${list([...sets].map(([seat, n]) => `${plural(n, 'set')} for ${seat === event.player ? name : names[seat]}`))}`;
  }
  if (event.end === 'plex') text += '. Eleven sets are taken: Plex!';
  return text;
}

function duovallisTurn(event, name) {
  let text = `${name} played hole ${event.move?.pit}`;
  text += relays(event.laps?.length ?? 1);
  if (event.capture) text += duovallisCapture(event.capture, event.player);
  return text;
}

// What a capture took, by colour: ", capturing hole 7: 4 black stones (3 traded for 1 new white
// stone)". The mover's own stones come back; foreign ones go three for one, with any left over
// from earlier captures in the carry tray.
function duovallisCapture(capture, seat) {
  const [mine, theirs] = seat === 0 ? ['white', 'black'] : ['black', 'white'];
  const foreign = capture.foreign ?? 0;
  const own = capture.own_returned ?? 0;
  const exchanged = capture.exchanged ?? 0;
  const taken = list([foreign ? plural(foreign, `${theirs} stone`) : '', own ? `${plural(own, `${mine} stone`)} back` : '']
    .filter(Boolean));
  const traded = 3 * exchanged;
  const trade = exchanged
    ? ` (${traded > foreign ? 'with the carry tray, ' : ''}${traded} traded for ${plural(exchanged, `new ${mine} stone`)})`
    : '';
  return `, capturing hole ${capture.from}: ${taken || 'nothing'}${trade}`;
}

function turnText(game, event, names) {
  const name = names[event.player] ?? `Seat ${event.player + 1}`;
  switch (game) {
    case 'cups': case 'coin_duel': return rowsTurn(game, event, name);
    case 'oanquan': return oanquanTurn(event, name);
    case 'njaka': return njakaTurn(event, name, names);
    case 'duovallis': return duovallisTurn(event, name);
    default: return `${name} moved`;
  }
}

const TOLD_BY_ACTION = new Set(['resign', 'concession', 'timeout']);

// The sentence of one event, or null for events that need none of their own.
function eventText(game, event, names) {
  const who = (seat) => names[seat] ?? `Seat ${Number(seat) + 1}`;
  switch (event.event) {
    case 'turn': return turnText(game, event, names);
    case 'pass': return `${who(event.player)} could not move and passed`;
    case 'refill': return `${who(event.player)} had no counters and put ${plural(event.squares?.length ?? 0, 'counter')} back on the board`;
    case 'resign': return `${who(event.seat ?? event.player)} resigned`;
    case 'concede': return `${who(event.seat ?? event.player)} conceded the round`;
    case 'timeout': return `${who(event.seat)} ran out of time`;
    case 'abandon': return `${who(event.seat ?? event.player)} left the game`;
    case 'plex_auto': return `the last set goes to ${who(event.winner)}`;
    case 'plex_result': return event.fallback ? `Nobody called Plex! in time: the last set goes to ${who(event.winner)}`
      : `${who(event.winner)} called Plex! first${event.latency_ms !== undefined ? ` (${event.latency_ms} ms)` : ''} and takes the last set`;
    case 'round_end': {
      // A resignation, concession or timeout is told by its own event already.
      if (TOLD_BY_ACTION.has(event.end_reason)) return `Round ${event.round ?? ''} is over`.replace('  ', ' ');
      const seat = [event.offender, event.stuck_player].find(Number.isInteger);
      const why = reasonText(event.end_reason, seat === undefined ? null : who(seat)).replace(/\.$/, '');
      return `Round ${event.round ?? ''} is over. ${why}`.replace('  ', ' ');
    }
    case 'game_end': return 'Game over';
    default: return null;
  }
}

// Actions the server sends whose event list may not name them (older records, `abandon`).
const ACTION_EVENTS = { resign: 'resign', concede: 'concede', abandon: 'abandon', timeout: 'timeout' };

// One decision of a turn in words, for turns still being played (no events yet).
function tokenWords(game, token) {
  const [, kind, n] = /^([rc]?)(\d+)$/.exec(token) ?? [];
  if (kind === 'r') return `${n} from the reserve`;
  if (n !== undefined) return `${kind ? 'cup' : nouns(game).place} ${n}`;
  return { R: 'right', L: 'left', cw: 'clockwise', ccw: 'counterclockwise' }[token] ?? COIN_NAMES[token]?.toLowerCase() ?? token;
}

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
    return `${name} is in the middle of a turn: ${update.tokens.split(' ').map((token) => tokenWords(game, token)).join(', ')}…`;
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
  return { seat: turn.seat ?? turn.events?.[0]?.seat ?? turn.events?.[0]?.player, action, tokens: turn.tokens ?? '', events: turn.events ?? [] };
}
