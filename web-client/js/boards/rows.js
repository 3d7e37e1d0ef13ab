// What Cups and Coin Duel share: two rows of N cups facing each other, each player's pot at his
// right-hand end, and a reserve tray behind each row. Seen from South, South's cups run 1..N left
// to right with his pot on the right; North's run N..1 with his pot on the left. Also their turns
// in words: a reserve play or a cup, relays, an exact pot, a capture.
import { s } from '../dom.js';
import { compactName } from './names.js';
import { t } from '../i18n/index.js';

export const CELL = 84;

// Standing on its side (a phone in portrait), the board has no corner beside a pot for its
// caption, so the drawing gets this much room beyond each end of the board for it.
const POT_CAPTION_ROOM = 26;
const endRoom = () => (portrait() ? POT_CAPTION_ROOM : 0);

export function rowsSize(n, cupHeight) {
  return [(n + 2) * CELL + 16 + 2 * endRoom(), cupHeight * 2 + 250];
}

const columnX = (c) => endRoom() + 8 + c * CELL + CELL / 2;

// Place ids: s<seat>c<i> (cup i), s<seat>pot, s<seat>res (reserve), s<seat>hand (items in hand).
// Narrow boards get narrower trays, so the count beside each tray stays on the board.
const reserveWidth = (width) => Math.min(360, width * 0.42, width / 2 - 58);

export function rowsPlaces(n, cupHeight, round) {
  const [width, height] = rowsSize(n, cupHeight);
  const column = columnX;
  const southY = height / 2 + cupHeight / 2 + 14;
  const northY = height / 2 - cupHeight / 2 - 14;
  const places = [];
  const cup = { shape: round ? 'circle' : 'rect', r: 32, w: 70, h: cupHeight };
  for (let i = 1; i <= n; i++) {
    places.push({ id: `s0c${i}`, x: column(i), y: southY, ...cup, tone: 0, name: t('rows_board.cup_of', { side: t('rows_board.south'), n: i }), seat: 0, kind: t('rows_board.cup', { n: i }), number: i,
      lx: column(i), ly: southY + cupHeight / 2 + 17 });
    places.push({ id: `s1c${i}`, x: column(n + 1 - i), y: northY, ...cup, tone: 1, name: t('rows_board.cup_of', { side: t('rows_board.north'), n: i }), seat: 1, kind: t('rows_board.cup', { n: i }), number: i,
      lx: column(n + 1 - i), ly: northY - cupHeight / 2 - 17 });
  }
  const potHeight = cupHeight * 2 + 28;
  places.push({ id: 's0pot', x: column(n + 1), y: height / 2, shape: 'pot', w: 72, h: potHeight, tone: 0,
    name: t('rows_board.pot_of', { name: t('rows_board.south') }), seat: 0, kind: t('rows_board.pot'), lx: column(n + 1), ly: height / 2 + potHeight / 2 + 17 });
  places.push({ id: 's1pot', x: column(0), y: height / 2, shape: 'pot', w: 72, h: potHeight, tone: 1,
    name: t('rows_board.pot_of', { name: t('rows_board.north') }), seat: 1, kind: t('rows_board.pot'), lx: column(0), ly: height / 2 - potHeight / 2 - 17 });
  const trayWidth = reserveWidth(width);
  places.push({ id: 's0res', x: width / 2 - trayWidth / 2 - 10, y: height - 34, shape: 'tray', w: trayWidth, h: 44,
    tone: 0, name: t('rows_board.reserve_of', { name: t('rows_board.south') }), seat: 0, kind: t('rows_board.reserve'), lx: width / 2 - trayWidth - 34, ly: height - 34 });
  places.push({ id: 's1res', x: width / 2 + trayWidth / 2 + 10, y: 34, shape: 'tray', w: trayWidth, h: 44,
    tone: 1, name: t('rows_board.reserve_of', { name: t('rows_board.north') }), seat: 1, kind: t('rows_board.reserve'), lx: width / 2 + trayWidth + 34, ly: 34 });
  places.push({ id: 's0hand', x: width / 2 + trayWidth / 2 + 10, y: height - 34, shape: 'tray', w: trayWidth * 0.8,
    h: 44, tone: 0, name: t('rows_board.hand_of', { name: t('rows_board.south') }), seat: 0, kind: t('rows_board.in_hand_kind'), hideWhenEmpty: true, lx: width / 2 + trayWidth * 0.9 + 34, ly: height - 34 });
  places.push({ id: 's1hand', x: width / 2 - trayWidth / 2 - 10, y: 34, shape: 'tray', w: trayWidth * 0.8,
    h: 44, tone: 1, name: t('rows_board.hand_of', { name: t('rows_board.north') }), seat: 1, kind: t('rows_board.in_hand_kind'), hideWhenEmpty: true, lx: width / 2 - trayWidth * 0.9 - 34, ly: 34 });
  return places;
}

// The board, and whose each reserve and pot is: the reserve's caption sits in the gap between
// the tray and the board, along the tray; each pot's caption in the empty corner at its end of
// the other row, or on a phone beyond the pot's end of the board (issue 17: labels for every
// tray and pot; the names no longer sit on the board's edge among the cup counts).
export function rowsDecor(n, cupHeight, pt, seatNames) {
  const [width, height] = rowsSize(n, cupHeight);
  const room = endRoom();
  const [x0, y0] = pt(room + 4, 70);
  const [x1, y1] = pt(width - room - 4, height - 70);
  const trayWidth = reserveWidth(width);
  const column = columnX;
  // On a phone the board stands on its side: a reserve's caption runs along its tray, upward.
  const sideways = portrait();
  const caption = ([x, y], text, title, place) => s('text', { class: 'tray-label', x, y, 'text-anchor': 'middle',
    'dominant-baseline': 'middle', transform: sideways ? `rotate(-90 ${x} ${y})` : null, dataset: { captionFor: place } },
  s('title', {}, title), text);
  const potTop = height / 2 - cupHeight - 14;
  const reserves = [
    caption(pt(width / 2 - trayWidth / 2 - 10, height - 63), t('rows_board.reserve_of', { name: compactName(seatNames[0], 16) }), t('rows_board.reserve_of', { name: seatNames[0] }), 's0res'),
    caption(pt(width / 2 + trayWidth / 2 + 10, 63), t('rows_board.reserve_of', { name: compactName(seatNames[1], 16) }), t('rows_board.reserve_of', { name: seatNames[1] }), 's1res'),
  ];
  const body = s('rect', { class: 'board-body', x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0),
    height: Math.abs(y1 - y0), rx: 46 });
  // Sideways, each pot's caption is one line in the room beyond its end of the board.
  if (sideways) {
    return [body, ...reserves,
      potLine(pt(width - room / 2, height / 2), seatNames[0], 's0pot'),
      potLine(pt(room / 2, height / 2), seatNames[1], 's1pot')];
  }
  return [body, ...reserves,
    ...potCaption(pt(column(n + 1) - 6, potTop - 25), pt(column(n + 1) - 6, potTop - 12), seatNames[0], 's0pot'),
    ...potCaption(pt(column(0) + 6, height - potTop + 12), pt(column(0) + 6, height - potTop + 25), seatNames[1], 's1pot'),
  ];
}

const potText = ([x, y], text, name, place, where = '') => s('text', { class: `tray-label ${where}`.trim(), x, y, 'text-anchor': 'middle',
  'dominant-baseline': 'middle', dataset: { captionFor: place } }, s('title', {}, t('rows_board.pot_of', { name })), text);

// A pot's caption in two lines, "Ada's" over "pot" ("Topf" over "von Ada"), whichever way the board is turned. The
// lines sit a little inward and small: the board's rounded corner leaves little room there.
function potCaption(a, b, name, place) {
  const [upper, lower] = a[1] < b[1] ? [a, b] : [b, a];
  const [first, second] = t('rows_board.pot_two_lines', { name: compactName(name, 8) }).split('|');
  return [potText(upper, first, name, place, 'corner'), potText(lower, second, name, place, 'corner')];
}

// "Ada's pot" on one line, for the sideways board.
const potLine = (at, name, place) => potText(at, t('rows_board.pot_of', { name: compactName(name, 16) }), name, place);

// Positions one lap visits: from origin i (0 = the reserve) in direction +1 (R) or -1 (L);
// position n+1 is the sower's pot.
export function lapTargets(seat, n, from, count, dir) {
  const out = [];
  for (let t = 1; t <= count; t++) {
    const q = from + dir * t;
    out.push(q === n + 1 ? `s${seat}pot` : `s${seat}c${q}`);
  }
  return out;
}

// The guide's prompt when a reserve play is among the choices.
export const reservePrompt = (tokens) => (tokens.some((token) => /^r\d+$/.test(token))
  ? t('rows_board.prompt') : null);

export const originOf = (seat, from) => (from === 0 ? `s${seat}res` : `s${seat}c${from}`);

// Where a whole move starts: the reserve (`r3 …`) or a cup (`c4 …`) of the player to move.
export function rowsOrigin(move, ctx) {
  const [, kind, n] = /^([rc])(\d+)/.exec(move) ?? [];
  if (!kind) return [];
  return [originOf(ctx.state.to_move, kind === 'r' ? 0 : Number(n))];
}

// The viewer's own row goes at the bottom: a seated North player sees the board turned round.
// On a narrow portrait screen the board stands on its side: the viewer's row runs down the
// left with his pot at the bottom.
export const rowsRotation = (ctx) => (ctx.viewerSeat === 1 ? 180 : 0) + (portrait() ? 90 : 0);

export const portrait = () => globalThis.matchMedia?.('(max-width: 600px) and (orientation: portrait)').matches ?? false;

// "Ada sowed 3 beans from the reserve, with 1 relay, capturing 2 beans from cup 4". `items(n)`
// says n of what the game sows ("3 beans"); `itemName` names a coin kind and `itemsText` a
// capture's items, where the items are coins.
export function rowsTurnText(event, name, { items, itemName = (kind) => kind, itemsText = (n) => items(Number(n ?? 0)) }) {
  const move = event.move ?? {};
  const laps = event.trace ?? [];
  let text = move.source === 'reserve'
    ? t('rows_board.sowed', { name, items: items(move.count) })
    : t('rows_board.played', { name, n: move.cup });
  const coins = (move.laps ?? []).map((lap) => lap.coins ?? []).flat();
  if (coins.length && move.source === 'reserve') text += t('rows_board.which_coins', { coins: coins.slice(0, move.count).map(itemName).join(', ') });
  if (laps.length > 1) text += t('rows_board.relays', { count: laps.length - 1 });
  if (laps.some((lap) => lap.dir === 'L')) text += t(laps.length > 1 ? 'rows_board.some_left' : 'rows_board.to_the_left');
  if (laps.at(-1)?.result === 'pot') text += t('rows_board.ending_in_pot');
  const capture = event.capture;
  if (capture && (Array.isArray(capture.items) || capture.items !== 0)) {
    text += t('rows_board.capturing', { items: itemsText(capture.items ?? 1), n: capture.cup });
  }
  return text;
}
