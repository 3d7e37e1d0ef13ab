// Njaka's Mancala Game: twelve holes on a circle, numbered counterclockwise, each ringed in its
// owner's colour; the players' stores of captured sets sit in the middle.
import { s } from '../dom.js';
import { COLORS, pileArea } from './view.js';
import { seatNames, compactName } from './names.js';
import { NJAKA_RULES } from './njaka_rules.js';
import { t, formatList } from '../i18n/index.js';

const SIZE = 560;
const C = SIZE / 2;
const RING = 205;
const HOLE = 38;
const BODY = RING + HOLE + 14;                 // the wooden disc; the counts are written outside it
const COUNT_AT = (RING + HOLE + 26) / RING;    // how far out a hole's count is, as a share of RING
const MAX_LABEL = 13;        // characters of a seat's name that fit its tray
const players = (ctx) => Number(ctx.options?.players ?? 2);

// Hole h sits at 240° + 30°·h (mathematical angle, counterclockwise), so holes 0-2 are at the
// bottom as in the rule book's picture.
function holeXY(h) {
  const angle = ((240 + 30 * h) * Math.PI) / 180;
  return [C + RING * Math.cos(angle), C - RING * Math.sin(angle)];
}

export const njakaBoard = {
  size: () => [SIZE, SIZE],

  // The viewer's first-round block of holes is turned to the bottom.
  rotation(ctx) {
    if (ctx.viewerSeat === null || ctx.viewerSeat === undefined) return 0;
    const n = players(ctx);
    if (ctx.options?.advanced) return ctx.viewerSeat === 1 ? 180 : 0;
    const block = 12 / n;
    return 30 * (ctx.viewerSeat * block + (block - 1) / 2) - 30;
  },

  places(ctx) {
    const places = [];
    for (let h = 0; h < 12; h++) {
      const [x, y] = holeXY(h);
      const [lx, ly] = [C + (x - C) * COUNT_AT, C + (y - C) * COUNT_AT];
      places.push({ id: `h${h}`, x, y, shape: 'circle', r: HOLE, name: t('njaka_board.hole_name', { n: h }), number: h, lx, ly });
    }
    // Each store sits between the centre and its owner's first-round block of holes.
    const n = players(ctx);
    const block = 12 / n;
    for (let seat = 0; seat < n; seat++) {
      const centre = ctx.options?.advanced ? (seat === 0 ? 2.5 : 8.5) : seat * block + (block - 1) / 2;
      const angle = ((240 + 30 * centre) * Math.PI) / 180;
      const reach = n === 2 ? 60 : n === 3 ? 76 : 86;    // four trays need more room between them
      places.push({ id: `set${seat}`, x: C + reach * Math.cos(angle), y: C - reach * Math.sin(angle), shape: 'tray',
        w: 100, h: 72, tone: seat, name: t('njaka_board.store_of_seat', { n: seat + 1 }), seat, kind: t('njaka_board.store_kind'), labelBelow: 23, seatName: seatNames(ctx)[seat] });
    }
    return places;
  },

  // The board turns about its centre (the viewer's block at the bottom) inside the same frame.
  round: true,
  decorate(ctx, pt) {
    const [cx, cy] = pt(C, C);
    return [
      s('circle', { class: 'board-body', cx, cy, r: BODY }),
      s('circle', { class: 'board-inner', cx, cy, r: RING - HOLE - 16 }),
    ];
  },

  contents(state, ctx) {
    const v = state.position;
    const out = {};
    for (let h = 0; h < 12; h++) out[`h${h}`] = { n: v[h] };
    for (let seat = 0; seat < players(ctx); seat++) out[`set${seat}`] = { set: v[24 + seat] ?? 0 };
    return out;
  },

  countText(content, place) {
    if (place.id.startsWith('set')) return t('njaka_board.sets', { count: content.set ?? 0 });
    return content.n ? String(content.n) : '';
  },

  drawContent(place, content, ctx) {
    if (place.id.startsWith('set')) {
      // Up to four trays sit side by side: a long name is shortened (in full on hover).
      const name = place.seatName ?? '';
      const short = compactName(name, MAX_LABEL);
      return s('g', {}, s('text', { class: 'store-label', x: place.x, y: place.y - 25, 'text-anchor': 'middle',
        'dominant-baseline': 'middle', dataset: { captionFor: place.id } }, s('title', {}, name), short),
      drawSets(place, content.set ?? 0));
    }
    const owner = ctx.state.position[12 + Number(place.id.slice(1))];
    const g = s('g', {}, s('circle', { class: 'owner-ring', cx: place.x, cy: place.y, r: place.r + 5,
      stroke: COLORS[owner] ?? '#999' }));
    const count = content.n ?? 0;
    const pile = pileArea(place);       // below the hole's number
    const group = s('g', { class: 'pile' });
    for (let i = 0; i < Math.min(count, 30); i++) {
      const angle = i * 2.39996;
      const r = (pile.r - 9) * Math.sqrt((i + 0.5) / Math.min(count, 30));
      group.append(s('circle', { class: 'seed', cx: pile.x + r * Math.cos(angle), cy: pile.y + r * Math.sin(angle),
        r: count > 12 ? 3.6 : 5 }));
    }
    g.append(group);
    return g;
  },

  target: (token) => (/^\d+$/.test(token) ? `h${token}` : null),

  steps(events, ctx) {
    const names = seatNames(ctx);
    const d = ctx.options?.direction === 'cw' ? -1 : 1;
    const steps = [];
    for (const event of events) {
      if (event.event === 'pass') steps.push({ say: t('njaka_board.waits', { name: names[event.player] }) });
      if (event.event === 'plex_auto') steps.push({ say: t('njaka_board.last_set_to', { name: names[event.winner] }) });
      if (event.event === 'plex_result') {
        steps.push({ say: event.fallback ? t('njaka_board.nobody_called', { name: names[event.winner] })
          : t('njaka_board.called_first', { name: names[event.winner] }) });
      }
      if (event.event !== 'turn') continue;
      const captures = [...(event.captures ?? [])];
      const counts = Object.fromEntries(Array.from({ length: 12 }, (_, h) => [h, ctx.state.position[h]]));
      for (const lap of event.laps ?? []) {
        steps.push({ lift: `h${lap.from}`, items: Array(lap.count).fill('n') });
        counts[lap.from] = 0;
        // `holes` lists every drop; a lap cut short by the eleventh set lists fewer than `count`.
        const holes = lap.holes ?? Array.from({ length: lap.count }, (_, t) => (((lap.from + d * (t + 1)) % 12) + 12) % 12);
        for (const hole of holes) {
          steps.push({ drop: `h${hole}` });
          counts[hole] += 1;
          if (counts[hole] === 4 && captures[0]?.hole === hole) {
            const capture = captures.shift();
            counts[hole] = 0;
            steps.push({ take: `h${hole}`, to: `set${capture.to}`, as: { set: 1 }, say: t('njaka_board.four', { name: names[capture.to] }) });
          }
        }
      }
      if (event.end === 'plex') steps.push({ say: t('njaka_board.eleven_taken') });
    }
    return steps;
  },

  describe: (token) => t('njaka_board.hole', { n: Number(token) }),
};

// Sets of four drawn as little squares of four seeds, so the number of sets is easy to count:
// up to six a row, two rows between the name and the count (twelve sets are all there are).
function drawSets(place, sets) {
  const g = s('g', { class: 'sets' });
  const perRow = 6;
  for (let k = 0; k < sets; k++) {
    const col = k % perRow, row = Math.floor(k / perRow);
    const x = place.x - 35 + col * 13, y = place.y - 13 + row * 11;
    for (const [dx, dy] of [[0, 0], [5, 0], [0, 5], [5, 5]]) {
      g.append(s('circle', { class: 'seed', cx: x + dx, cy: y + dy, r: 2.3 }));
    }
  }
  return g;
}

// "Ada played hole 4: 1 set for Ada and 1 set for Bo".
function describeTurn(event, name, names) {
  let text = t('njaka_board.played', { name, n: event.move?.pit });
  const sets = new Map();
  for (const capture of event.captures ?? []) sets.set(capture.to, (sets.get(capture.to) ?? 0) + 1);
  if (sets.size) {
    text += t('njaka_board.sets_taken', { sets: formatList([...sets].map(([seat, count]) => t('njaka_board.sets_for', { count, name: seat === event.player ? name : names[seat] }))) });
  }
  if (event.end === 'plex') text += t('njaka_board.then_plex');
  return text;
}

// Who won the Plex! race: "Bo called Plex! first (312 ms) and takes the last set". The panel,
// which is all about the race, leaves "Plex!" out of "Nobody called Plex! in time" (`inPanel`).
const plexResult = (result, who, inPanel = false) => {
  if (result.fallback) return t(inPanel ? 'njaka_board.nobody_in_time' : 'njaka_board.nobody_called_last', { name: who });
  return result.latency_ms !== undefined ? t('njaka_board.won_race_ms', { name: who, ms: result.latency_ms }) : t('njaka_board.won_race', { name: who });
};

// The Plex! race for the last set (the server's claim window `plex`): its panel's words, and who
// won it, from the update that ends it.
const plexRace = {
  get banner() { return t('njaka_board.race_banner'); },
  get title() { return t('njaka_board.race_title'); },
  get button() { return t('njaka_board.plex'); },
  get watching() { return t('njaka_board.race_watching'); },
  resultText(events, names) {
    const result = events?.find((e) => e.event === 'plex_result');
    return result ? t('njaka_board.race_result', { result: plexResult(result, names[result.winner] ?? t('lobby.seat', { n: result.winner + 1 }), true) }) : null;
  },
};

// Everything the client knows of Njaka beyond what the server says. Its seats have no sides.
export const njaka = {
  board: njakaBoard,
  rules: NJAKA_RULES,
  nouns: { get item() { return t('njaka_board.noun_item'); }, get place() { return t('njaka_board.noun_place'); } },
  describeTurn,
  describeEvent(event, who) {
    if (event.event === 'plex_auto') return t('njaka_board.auto_last_set', { name: who(event.winner) });
    return event.event === 'plex_result' ? plexResult(event, who(event.winner)) : null;
  },
  score: (state, seat) => ({ value: state.position[24 + seat], unit: t('njaka_board.sets_unit', { count: state.position[24 + seat] }), by: 'njaka_board.sets_margin' }),
  claims: { plex: plexRace },
};
