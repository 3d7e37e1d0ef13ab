// Cups: N cups a side, two pots, and a reserve of beans behind each row.
import { rowsPlaces, rowsDecor, rowsSize, rowsRotation, lapTargets, originOf, rowsTurnText, reservePrompt, rowsOrigin } from './rows.js';
import { seatNames } from './names.js';
import { CUPS_RULES } from './cups_rules.js';
import { t } from '../i18n/index.js';

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
      if (event.event === 'pass') steps.push({ say: t('cups_board.passes', { name: names[event.player] }) });
      if (event.event !== 'turn') continue;
      const p = event.player;
      for (const lap of event.trace ?? []) {
        const targets = lapTargets(p, n, lap.from, lap.count, lap.dir === 'L' ? -1 : 1);
        steps.push({ lift: originOf(p, lap.from), items: Array(lap.count).fill('n') });
        for (const id of targets) steps.push({ drop: id });
      }
      if (event.capture && (event.capture.items ?? 1) !== 0) {
        steps.push({ take: `s${1 - p}c${event.capture.cup}`, to: `s${p}pot`, say: t('cups_board.captures', { name: names[p] }) });
      }
    }
    return steps;
  },

  origin: rowsOrigin,
  prompt: reservePrompt,
  // Buttons for the reserve plays: label and the cups they would fill.
  describe(token) {
    const k = /^r(\d+)$/.exec(token);
    return k ? t('rows_board.sow_from_reserve', { n: Number(k[1]) }) : token;
  },
  preview(token, ctx) {
    const k = /^r(\d+)$/.exec(token);
    if (!k) return [];
    return Array.from({ length: Number(k[1]) }, (_, i) => `s${ctx.state.to_move}c${i + 1}`);
  },
};

const NOUNS = { get item() { return t('cups_board.noun_item'); }, get place() { return t('cups_board.noun_place'); } };

// Everything the client knows of Cups beyond what the server says.
export const cups = {
  board: cupsBoard,
  rules: CUPS_RULES,
  get sides() { return [t('rows_board.south'), t('rows_board.north')]; },
  nouns: NOUNS,
  describeTurn: (event, name) => rowsTurnText(event, name, { items: (count) => t('cups_board.beans', { count }) }),
  score(state, seat, options) {
    const n = cupsPerSide({ options });
    return { value: state.position[seat * (n + 2) + n], unit: t('rows_board.in_pot'), by: 'cups_board.beans' };
  },
};
