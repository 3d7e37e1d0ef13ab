// Duovallis: 4 rows x 6 holes, index 6·row + col from the south-west corner. Where each hole
// lies, whose it is and the two sowing circuits are the layout the server sends once with the
// game's type (`/api/game-types`, `ctx.layout`); the updates carry only the stones. Each hole
// shows its white and black stones separately.
import { s } from '../dom.js';
import { seatNames, besideLabel, compactName } from './names.js';
import { DUOVALLIS_RULES } from './duovallis_rules.js';
import { t, formatList } from '../i18n/index.js';

const CELL = 92;
const WIDTH = 6 * CELL + 40;
const HEIGHT = 4 * CELL + 150;
const colour = (seat) => (seat === 0 ? 'w' : 'b');

export const duovallisBoard = {
  size: () => [WIDTH, HEIGHT],
  rotation: (ctx) => (ctx.viewerSeat === 1 ? 180 : 0),

  places(ctx) {
    const places = [];
    for (const { hole: h, row, col, owner } of ctx.layout.holes) {
      const x = 20 + col * CELL + CELL / 2;
      const y = 75 + (3 - row) * CELL + CELL / 2;
      const tone = owner;  // 0, 1 or 'neutral'
      // The hole's number goes in the corner of its cell: the hole itself is full of stones.
      places.push({ id: `d${h}`, x, y, shape: 'circle', r: CELL / 2 - 8, tone, name: `hole ${h}`,
        nx: x - CELL / 2 + 11, ny: y - CELL / 2 + 10, lx: x, ly: y, hideCount: true });
    }
    places.push({ id: 'carry0', x: WIDTH - 110, y: HEIGHT - 34, shape: 'tray', w: 150, h: 40, tone: 0,
      name: t('duovallis_board.carry', { name: t('duovallis_board.white') }), seat: 0, kind: 'carry tray', lx: WIDTH - 220, ly: HEIGHT - 34 });
    places.push({ id: 'carry1', x: 110, y: 34, shape: 'tray', w: 150, h: 40, tone: 1,
      name: t('duovallis_board.carry', { name: t('duovallis_board.black') }), seat: 1, kind: 'carry tray', lx: 220, ly: 34 });
    return places;
  },

  // Each carry tray is labelled with its owner, on the side away from the board's middle.
  decorate(ctx, pt) {
    const names = seatNames(ctx);
    const [x0, y0] = pt(12, 72);
    const [x1, y1] = pt(WIDTH - 12, HEIGHT - 72);
    return [
      s('rect', { class: 'board-body', x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0),
        height: Math.abs(y1 - y0), rx: 30 }),
      besideLabel(pt, [WIDTH - 240, HEIGHT - 34], WIDTH - 110, `○ ${t('duovallis_board.carry', { name: names[0] })}`, `○ ${t('duovallis_board.carry', { name: compactName(names[0], 14) })}`, 'carry0'),
      besideLabel(pt, [240, 34], 110, `● ${t('duovallis_board.carry', { name: names[1] })}`, `● ${t('duovallis_board.carry', { name: compactName(names[1], 14) })}`, 'carry1'),
    ];
  },

  contents(state) {
    const v = state.position;
    const out = {};
    for (let h = 0; h < 24; h++) out[`d${h}`] = { w: v[h], b: v[24 + h] };
    out.carry0 = { b: v[48] };
    out.carry1 = { w: v[49] };
    return out;
  },

  countText(content, place) {
    if (place.shape === 'tray') return String((content.w ?? 0) + (content.b ?? 0));
    return content.w || content.b ? `${content.w ?? 0}○ ${content.b ?? 0}●` : '';
  },

  spokenContent(content) {
    const [w, b] = [content.w ?? 0, content.b ?? 0];
    return w || b ? t('duovallis_board.mix', { w, b }) : t('duovallis_board.empty');
  },

  // White stones on the left half of the hole, black on the right, each with its number.
  drawContent(place, content) {
    const g = s('g', { class: 'pile' });
    if (place.shape === 'tray') {
      const kind = content.w ? 'w' : 'b';
      for (let i = 0; i < (content[kind] ?? 0); i++) {
        g.append(s('circle', { class: `stone-${kind}`, cx: place.x - 30 + i * 22, cy: place.y, r: 8 }));
      }
      return g;
    }
    const halves = [['w', -1], ['b', 1]].filter(([kind]) => content[kind] > 0);
    for (const [kind, side] of halves) {
      const n = content[kind];
      const cx = halves.length === 2 ? place.x + side * place.r * 0.42 : place.x;
      const radius = halves.length === 2 ? place.r * 0.42 : place.r * 0.7;
      const shown = Math.min(n, 16);
      const size = Math.max(3.2, Math.min(7, radius / (1.05 * Math.sqrt(shown + 1))));
      for (let i = 0; i < shown; i++) {
        const r = (radius - size) * Math.sqrt((i + 0.5) / shown);
        const a = i * 2.39996;
        g.append(s('circle', { class: `stone-${kind}`, cx: cx + r * Math.cos(a), cy: place.y - 6 + r * Math.sin(a), r: size }));
      }
      g.append(s('text', { class: `stone-count count-${kind}`, x: cx, y: place.y + place.r * 0.62,
        'text-anchor': 'middle', 'dominant-baseline': 'middle', dataset: { testid: `count-${place.id}-${kind}` } }, n));
    }
    return g;
  },

  target: (token) => (/^\d+$/.test(token) ? `d${token}` : null),

  steps(events, ctx) {
    const names = seatNames(ctx);
    const steps = [];
    for (const event of events) {
      if (event.event !== 'turn') continue;
      const p = event.player;
      const circuit = ctx.layout.circuits[p];
      const own = colour(p), foreign = colour(1 - p);
      for (const lap of event.laps ?? []) {
        const items = [...Array(lap.foreign ?? 0).fill(foreign), ...Array(lap.own ?? 0).fill(own)];
        steps.push({ lift: `d${lap.from}`, items });
        let at = circuit.indexOf(lap.from);
        for (let t = 0; t < items.length; t++) {
          at = (at + 1) % circuit.length;
          steps.push({ drop: `d${circuit[at]}` });
        }
      }
      const capture = event.capture;
      if (capture) {
        steps.push({ take: `d${capture.from}`, say: t('duovallis_board.captures', { name: names[p] }) });
        const gained = (capture.own_returned ?? 0) + (capture.exchanged ?? 0);
        if (gained) steps.push({ add: `d${capture.into}`, content: { [own]: gained } });
        steps.push({ set: `carry${p}`, content: { [foreign]: capture.carry_after ?? 0 } });
      }
    }
    return steps;
  },

  describe: (token) => t('duovallis_board.hole', { n: Number(token) }),
};

function describeTurn(event, name) {
  let text = t('duovallis_board.played', { name, n: event.move?.pit });
  const laps = event.laps?.length ?? 1;
  if (laps > 1) text += t('duovallis_board.relays', { count: laps - 1 });
  if (event.capture) text += captureText(event.capture, event.player);
  return text;
}

// What a capture took, by colour: ", capturing hole 7: 4 black stones (3 traded for 1 new white
// stone)". The mover's own stones come back; foreign ones go three for one, with any left over
// from earlier captures in the carry tray.
function captureText(capture, seat) {
  const [mine, theirs] = seat === 0 ? ['white', 'black'] : ['black', 'white'];
  const foreign = capture.foreign ?? 0;
  const own = capture.own_returned ?? 0;
  const exchanged = capture.exchanged ?? 0;
  const parts = [foreign ? t(`duovallis_board.stones_${theirs}`, { count: foreign }) : '',
    own ? t('duovallis_board.back', { stones: t(`duovallis_board.stones_${mine}`, { count: own }) }) : ''].filter(Boolean);
  const traded = 3 * exchanged;
  const made = t(`duovallis_board.new_${mine}`, { count: exchanged });
  const trade = exchanged ? ` (${t(traded > foreign ? 'duovallis_board.traded_with_carry' : 'duovallis_board.traded', { traded, made })})` : '';
  return t('duovallis_board.capturing', { n: capture.from, taken: parts.length ? formatList(parts) : t('duovallis_board.nothing') }) + trade;
}

// Everything the client knows of Duovallis beyond what the server says.
export const duovallis = {
  board: duovallisBoard,
  rules: DUOVALLIS_RULES,
  get sides() { return [t('duovallis_board.white'), t('duovallis_board.black')]; },
  nouns: { get item() { return t('duovallis_board.noun_item'); }, get place() { return t('duovallis_board.noun_place'); } },
  describeTurn,
  // The stones a player has on the board; no margin: the game is won by leaving the other without a move.
  score(state, seat) {
    const stones = state.position.slice(seat * 24, seat * 24 + 24).reduce((a, b) => a + b, 0);
    return { value: stones, unit: t(seat === 0 ? 'duovallis_board.unit_white' : 'duovallis_board.unit_black') };
  },
};
