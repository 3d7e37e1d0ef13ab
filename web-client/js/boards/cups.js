// Cups: N cups a side, two pots, and a reserve of beans behind each row.
import { rowsPlaces, rowsDecor, rowsSize, rowsRotation, lapTargets, originOf, rowsTurnText, reservePrompt, rowsOrigin } from './rows.js';
import { seatNames } from './names.js';
import { CUPS_RULES } from './cups_rules.js';

const CUP = 74;
const cupsPerSide = (ctx) => Number(ctx.options?.cups_per_side ?? 4);

export const cupsBoard = {
  size: (ctx) => rowsSize(cupsPerSide(ctx), CUP),
  places: (ctx) => rowsPlaces(cupsPerSide(ctx), CUP, true).filter((p) => !p.id.endsWith('hand')),
  decorate: (ctx, pt) => rowsDecor(cupsPerSide(ctx), CUP, pt, seatNames(ctx)),
  rotation: rowsRotation,

  contents(state, ctx) {
    const n = cupsPerSide(ctx);
    const v = state.position;
    const out = {};
    for (const seat of [0, 1]) {
      const base = seat * (n + 2);
      for (let i = 1; i <= n; i++) out[`s${seat}c${i}`] = { n: v[base + i - 1] };
      out[`s${seat}pot`] = { n: v[base + n] };
      out[`s${seat}res`] = { n: v[base + n + 1] };
    }
    return out;
  },

  target(token, ctx) {
    const cup = /^c(\d+)$/.exec(token);
    return cup ? `s${ctx.state.to_move}c${cup[1]}` : null;
  },

  steps(events, ctx) {
    const n = cupsPerSide(ctx);
    const names = seatNames(ctx);
    const steps = [];
    for (const event of events) {
      if (event.event === 'pass') steps.push({ say: `${names[event.player]} cannot move and passes` });
      if (event.event !== 'turn') continue;
      const p = event.player;
      for (const lap of event.trace ?? []) {
        const targets = lapTargets(p, n, lap.from, lap.count, lap.dir === 'L' ? -1 : 1);
        steps.push({ lift: originOf(p, lap.from), items: Array(lap.count).fill('n') });
        for (const id of targets) steps.push({ drop: id });
      }
      if (event.capture && (event.capture.items ?? 1) !== 0) {
        steps.push({ take: `s${1 - p}c${event.capture.cup}`, to: `s${p}pot`, say: `${names[p]} captures` });
      }
    }
    return steps;
  },

  origin: rowsOrigin,
  prompt: reservePrompt,
  // Buttons for the reserve plays: label and the cups they would fill.
  describe(token) {
    const k = /^r(\d+)$/.exec(token);
    return k ? `Sow ${k[1]} from reserve` : token;
  },
  preview(token, ctx) {
    const k = /^r(\d+)$/.exec(token);
    if (!k) return [];
    return Array.from({ length: Number(k[1]) }, (_, i) => `s${ctx.state.to_move}c${i + 1}`);
  },
};

const NOUNS = { item: 'bean', place: 'cup' };

// Everything the client knows of Cups beyond what the server says.
export const cups = {
  board: cupsBoard,
  rules: CUPS_RULES,
  sides: ['South', 'North'],
  nouns: NOUNS,
  describeTurn: (event, name) => rowsTurnText(event, name, NOUNS),
  score(state, seat, options) {
    const n = cupsPerSide({ options });
    return { value: state.position[seat * (n + 2) + n], unit: 'in pot', by: 'beans' };
  },
};
