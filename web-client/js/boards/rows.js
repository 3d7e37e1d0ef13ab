// Geometry shared by Cups and Coin Duel: two rows of N cups facing each other, each player's pot
// at his right-hand end, and a reserve tray behind each row. Seen from South, South's cups run
// 1..N left to right with his pot on the right; North's run N..1 with his pot on the left.
import { s } from '../dom.js';

export const CELL = 84;

export function rowsSize(n, cupHeight) {
  return [(n + 2) * CELL + 16, cupHeight * 2 + 250];
}

// Place ids: s<seat>c<i> (cup i), s<seat>pot, s<seat>res (reserve), s<seat>hand (items in hand).
export function rowsPlaces(n, cupHeight, round) {
  const [width, height] = rowsSize(n, cupHeight);
  const column = (c) => 8 + c * CELL + CELL / 2;
  const southY = height / 2 + cupHeight / 2 + 14;
  const northY = height / 2 - cupHeight / 2 - 14;
  const places = [];
  const cup = { shape: round ? 'circle' : 'rect', r: 32, w: 70, h: cupHeight };
  for (let i = 1; i <= n; i++) {
    places.push({ id: `s0c${i}`, x: column(i), y: southY, ...cup, tone: 0, name: `South cup ${i}`,
      lx: column(i), ly: southY + cupHeight / 2 + 17 });
    places.push({ id: `s1c${i}`, x: column(n + 1 - i), y: northY, ...cup, tone: 1, name: `North cup ${i}`,
      lx: column(n + 1 - i), ly: northY - cupHeight / 2 - 17 });
  }
  const potHeight = cupHeight * 2 + 28;
  places.push({ id: 's0pot', x: column(n + 1), y: height / 2, shape: 'pot', w: 72, h: potHeight, tone: 0,
    name: 'South pot', lx: column(n + 1), ly: height / 2 + potHeight / 2 + 17 });
  places.push({ id: 's1pot', x: column(0), y: height / 2, shape: 'pot', w: 72, h: potHeight, tone: 1,
    name: 'North pot', lx: column(0), ly: height / 2 - potHeight / 2 - 17 });
  // Narrow boards get narrower trays, so the count beside each tray stays on the board.
  const trayWidth = Math.min(360, width * 0.42, width / 2 - 58);
  places.push({ id: 's0res', x: width / 2 - trayWidth / 2 - 10, y: height - 34, shape: 'tray', w: trayWidth, h: 44,
    tone: 0, name: 'South reserve', lx: width / 2 - trayWidth - 34, ly: height - 34 });
  places.push({ id: 's1res', x: width / 2 + trayWidth / 2 + 10, y: 34, shape: 'tray', w: trayWidth, h: 44,
    tone: 1, name: 'North reserve', lx: width / 2 + trayWidth + 34, ly: 34 });
  places.push({ id: 's0hand', x: width / 2 + trayWidth / 2 + 10, y: height - 34, shape: 'tray', w: trayWidth * 0.8,
    h: 44, tone: 0, name: 'South hand', hideWhenEmpty: true, lx: width / 2 + trayWidth * 0.9 + 34, ly: height - 34 });
  places.push({ id: 's1hand', x: width / 2 - trayWidth / 2 - 10, y: 34, shape: 'tray', w: trayWidth * 0.8,
    h: 44, tone: 1, name: 'North hand', hideWhenEmpty: true, lx: width / 2 - trayWidth * 0.9 - 34, ly: 34 });
  return places;
}

export function rowsDecor(n, cupHeight, pt, seatNames) {
  const [width, height] = rowsSize(n, cupHeight);
  const [x0, y0] = pt(4, 70);
  const [x1, y1] = pt(width - 4, height - 70);
  const south = pt(width / 2 - 10, height - 82 + 8);
  const north = pt(width / 2 + 10, 82 - 8);
  return [
    s('rect', { class: 'board-body', x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0),
      height: Math.abs(y1 - y0), rx: 46 }),
    s('text', { class: 'side-label', x: south[0], y: south[1], 'text-anchor': 'middle' }, seatNames[0]),
    s('text', { class: 'side-label', x: north[0], y: north[1], 'text-anchor': 'middle' }, seatNames[1]),
  ];
}

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

export const originOf = (seat, from) => (from === 0 ? `s${seat}res` : `s${seat}c${from}`);

// The viewer's own row goes at the bottom: a seated North player sees the board turned round.
// On a narrow portrait screen the board stands on its side: the viewer's row runs down the
// left with his pot at the bottom.
export const rowsRotation = (ctx) => (ctx.viewerSeat === 1 ? 180 : 0) + (portrait() ? 90 : 0);

export const portrait = () => globalThis.matchMedia?.('(max-width: 600px) and (orientation: portrait)').matches ?? false;
