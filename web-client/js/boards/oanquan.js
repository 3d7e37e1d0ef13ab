// O An Quan: a ring of twelve places. End spaces 0 (west) and 6 (east) hold the large stones;
// South's squares 1-5 run west to east along the bottom, North's 7-11 east to west along the top.
// Each player's store of captured counters sits behind his row.
import { s } from '../dom.js';
import { drawCounters, total } from './view.js';
import { seatNames, besideLabel, compactName } from './names.js';
import { OANQUAN_RULES } from './oanquan_rules.js';
import { t, formatList } from '../i18n/index.js';

const CELL = 92;
const WIDTH = 5 * CELL + 2 * 110 + 20;
const HEIGHT = 2 * CELL + 250;
const southY = HEIGHT / 2 + CELL / 2;
const northY = HEIGHT / 2 - CELL / 2;
const squareX = (k) => 120 + k * CELL + CELL / 2;      // k = 0..4 from the west
const BIG_ROOM = 96;                                     // the store's end kept for large stones

export const isSquare = (i) => i !== 0 && i !== 6;

export const oanquanBoard = {
  size: () => [WIDTH, HEIGHT],
  rotation: (ctx) => (ctx.viewerSeat === 1 ? 180 : 0),

  places() {
    const places = [];
    for (let i = 1; i <= 5; i++) {
      places.push({ id: `q${i}`, x: squareX(i - 1), y: southY, shape: 'rect', w: CELL - 8, h: CELL - 8,
        name: `square ${i}`, lx: squareX(i - 1), ly: southY + CELL / 2 + 14 });
      places.push({ id: `q${i + 6}`, x: squareX(5 - i), y: northY, shape: 'rect', w: CELL - 8, h: CELL - 8,
        name: `square ${i + 6}`, lx: squareX(5 - i), ly: northY - CELL / 2 - 14 });
    }
    places.push({ id: 'q0', x: 65, y: HEIGHT / 2, shape: 'half', w: 100, h: 2 * CELL - 8, name: 'west end space',
      lx: 46, ly: HEIGHT / 2 + CELL + 16 });
    places.push({ id: 'q6', x: WIDTH - 65, y: HEIGHT / 2, shape: 'half', w: 100, h: 2 * CELL - 8,
      name: 'east end space', lx: WIDTH - 46, ly: HEIGHT / 2 - CELL - 16 });
    places.push({ id: 'store0', x: WIDTH / 2, y: HEIGHT - 40, shape: 'tray', w: 300, h: 48, tone: 0,
      name: t('oanquan_board.store', { name: t('oanquan_board.south') }), seat: 0, kind: 'store', lx: WIDTH / 2 + 205, ly: HEIGHT - 40 });
    places.push({ id: 'store1', x: WIDTH / 2, y: 40, shape: 'tray', w: 300, h: 48, tone: 1,
      name: t('oanquan_board.store', { name: t('oanquan_board.north') }), seat: 1, kind: 'store', lx: WIDTH / 2 - 205, ly: 40 });
    return places;
  },

  decorate(ctx, pt) {
    const names = seatNames(ctx);
    const [x0, y0] = pt(10, HEIGHT / 2 - CELL - 6);
    const [x1, y1] = pt(WIDTH - 10, HEIGHT / 2 + CELL + 6);
    return [
      s('rect', { class: 'board-body', x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0),
        height: Math.abs(y1 - y0), rx: 90 }),
      besideLabel(pt, [WIDTH / 2 - 166, HEIGHT - 40], WIDTH / 2, t('oanquan_board.store', { name: names[0] }), t('oanquan_board.store', { name: compactName(names[0], 10) }), 'store0'),
      besideLabel(pt, [WIDTH / 2 + 166, 40], WIDTH / 2, t('oanquan_board.store', { name: names[1] }), t('oanquan_board.store', { name: compactName(names[1], 10) }), 'store1'),
    ];
  },

  contents(state) {
    const v = state.position;
    const out = {};
    for (let i = 0; i < 12; i++) out[`q${i}`] = { n: v[i] };
    out.q0.big = v[12];
    out.q6.big = v[13];
    out.store0 = { n: v[14], big: v[16] };
    out.store1 = { n: v[15], big: v[17] };
    return out;
  },

  // Square ownership changes between rounds: 0, 1, or 2 for a square both players own.
  owners(state) {
    const v = state.position;
    const squares = [1, 2, 3, 4, 5, 7, 8, 9, 10, 11];
    return Object.fromEntries(squares.map((sq, k) => [`q${sq}`, v[18 + k]]));
  },

  countText(content, place) {
    const n = content.n ?? 0;
    const big = content.big ?? 0;
    if (place.shape === 'tray') return t('oanquan_board.tray_points', { count: n + 10 * big });
    return n ? String(n) : '';
  },

  drawContent(place, content, ctx) {
    // In an end space the small counters keep clear of the large stone, toward the squares; in
    // a store they leave the left end free for the two large stones (the labels flank the store).
    const inward = place.x < place.boardWidth / 2 ? 16 : -16;
    const spot = place.shape === 'half' ? { ...place, x: place.x + inward, r: 30 }
      : place.shape === 'tray' ? { ...place, x: place.x + BIG_ROOM / 2, w: place.w - BIG_ROOM } : place;
    const g = s('g', {}, drawCounters(spot, { n: content.n ?? 0 }, ctx));
    const owner = oanquanBoard.owners(ctx.state)[place.id];
    if (owner !== undefined) {
      g.prepend(s('rect', { class: `owner owner-${owner === 2 ? 'half' : owner}`, x: place.x - place.w / 2 + 4,
        y: place.y + place.h / 2 - 10, width: place.w - 8, height: 6, rx: 3 }));
    }
    for (let k = 0; k < (content.big ?? 0); k++) {
      const dx = place.shape === 'tray' ? -place.w / 2 + 26 + k * 44 : (place.x < place.boardWidth / 2 ? -24 : 24);
      g.append(s('g', { class: 'big-stone' }, s('circle', { cx: place.x + dx, cy: place.y, r: 20 }),
        s('text', { x: place.x + dx, y: place.y, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, '10')));
    }
    return g;
  },

  // A square is clicked first; then the neighbouring place in the wanted direction.
  target(token, ctx) {
    const [square, dir] = token.split(' ');
    if (!dir) return `q${square}`;
    const next = (Number(square) + (dir === 'ccw' ? 1 : 11)) % 12;
    return ctx.selected === `q${square}` ? `q${next}` : null;
  },

  steps(events, ctx) {
    const names = seatNames(ctx);
    const steps = [];
    for (const event of events) {
      if (event.event === 'pass') steps.push({ say: t('oanquan_board.passes', { name: names[event.player] }) });
      // A refill is announced when the turn begins (the turn record repeats it; drawn once).
      if (event.event === 'refill') {
        for (const sq of event.squares ?? []) steps.push({ take: `store${event.player}`, to: `q${sq}`, content: { n: 1 } });
      }
      if (event.event !== 'turn') continue;
      const d = event.move?.dir === 'cw' ? -1 : 1;
      for (const lap of event.laps ?? []) {
        steps.push({ lift: `q${lap.from}`, items: Array(lap.count).fill('n') });
        for (let t = 1; t <= lap.count; t++) steps.push({ drop: `q${(((lap.from + d * t) % 12) + 12) % 12}` });
      }
      for (const capture of event.captures ?? []) {
        steps.push({ take: `q${capture.space}`, to: `store${event.player}`,
          content: { n: capture.small ?? 0, big: capture.large ? 1 : 0 }, say: t('oanquan_board.captures', { name: names[event.player] }) });
      }
    }
    return steps;
  },

  // A bare square is the first half of a turn: the direction follows, and both are sent together.
  followUps(token, legal) {
    if (!/^\d+$/.test(token)) return null;
    const written = (legal ?? []).filter((t) => t.startsWith(`${token} `));
    return written.length ? written : [`${token} ccw`, `${token} cw`];
  },

  describe(token) {
    const [square, dir] = token.split(' ');
    if (!dir) return t('oanquan_board.square', { n: Number(square) });
    return t('oanquan_board.square_dir', { n: Number(square), dir: t(dir === 'ccw' ? 'option_value.ccw' : 'option_value.cw') });
  },
};

export { total };

// "Ada played square 3 counterclockwise, capturing 4 counters and a big stone".
function describeTurn(event, name) {
  const dir = t(event.move?.dir === 'cw' ? 'option_value.cw' : 'option_value.ccw');
  let text = t('oanquan_board.played', { name, n: event.move?.pit, dir });
  const captures = event.captures ?? [];
  if (captures.length) {
    const small = captures.reduce((sum, c) => sum + (c.small ?? 0), 0);
    const large = captures.filter((c) => c.large).length;
    const parts = [small ? t('oanquan_board.counters', { count: small }) : null, large ? t('oanquan_board.big_stones', { count: large }) : null].filter(Boolean);
    text += t('oanquan_board.capturing', { what: parts.length ? formatList(parts) : t('oanquan_board.empty_square') });
  }
  return text;
}

// Everything the client knows of O An Quan beyond what the server says.
export const oanquan = {
  board: oanquanBoard,
  rules: OANQUAN_RULES,
  // Quick pairing's clocks (quick_pairing.js): a match of rounds runs long, so longer ones.
  pairingClocks: [
    { id: 'quick', clock: { initial_s: 300, increment_s: 3 } },
    { id: 'long', clock: { initial_s: 900, increment_s: 10 } },
    { id: 'daily', clock: { per_move_s: 86400 } },
  ],
  get sides() { return [t('oanquan_board.south'), t('oanquan_board.north')]; },
  nouns: { get item() { return t('oanquan_board.noun_item'); }, get place() { return t('oanquan_board.noun_place'); } },
  describeTurn,
  describeEvent: (event, who) => (event.event === 'refill'
    ? t('oanquan_board.refill', { name: who(event.player), count: event.squares?.length ?? 0 }) : null),
  // A big stone is worth ten counters.
  score: (state, seat) => ({ value: state.position[14 + seat] + 10 * state.position[16 + seat], unit: t('oanquan_board.points_captured'), by: 'oanquan_board.points' }),
};
