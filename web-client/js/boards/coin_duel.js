// Coin Duel: ten cups a side; beans in stage 1, coins of four kinds in stages 2 and 3, and in
// stage 3 four rounds with a winning coin each.
import { s } from '../dom.js';
import { drawCounters, total, itemsOf, pileArea } from './view.js';
import { rowsPlaces, rowsDecor, rowsSize, rowsRotation, lapTargets, originOf, rowsTurnText, reservePrompt, rowsOrigin } from './rows.js';
import { seatNames } from './names.js';
import { COINS, COIN_NAMES, COIN_VALUES, coinsCount, coinWord, cents, coin, coinIcon, coinCountsText } from './coins.js';
import { coinDuelPanel, roundEndText } from './coin_duel_panel.js';
import { COIN_DUEL_RULES } from './coin_duel_rules.js';
import { t } from '../i18n/index.js';

const N = 10;
const CUP = 112;
const WINNING = ['P', 'N', 'D', 'Q'];   // winning coin of stage-3 rounds 1..4

const stage = (ctx) => Number(ctx.options?.stage ?? 3);
const withCoins = (ctx) => stage(ctx) >= 2;
// Stage 3 is played in four rounds.
const inRounds = (options) => stage({ options }) === 3;

// Every item in play, both players together; what is on no place is in the mover's hand.
function itemsInPlay(ctx) {
  if (!withCoins(ctx)) return { n: 80 };
  if (stage(ctx) === 2) return { P: 20, N: 20, D: 20, Q: 20 };
  const winning = WINNING[(ctx.state.round ?? 1) - 1] ?? 'P';
  return Object.fromEntries(COINS.map((c) => [c, c === winning ? 2 : 20]));
}

export const coinDuelBoard = {
  size: () => rowsSize(N, CUP),
  places: () => rowsPlaces(N, CUP, false),
  decorate: (ctx, pt) => rowsDecor(N, CUP, pt, seatNames(ctx)),
  rotation: rowsRotation,

  contents(state, ctx) {
    const v = state.position;
    const read = (index) => (withCoins(ctx)
      ? Object.fromEntries(COINS.map((c, k) => [c, v[index * 4 + k]]))
      : { n: v[index] });
    const out = {};
    for (const seat of [0, 1]) {
      const base = seat * 12;
      for (let i = 1; i <= N; i++) out[`s${seat}c${i}`] = read(base + i - 1);
      out[`s${seat}pot`] = read(base + N);
      out[`s${seat}res`] = read(base + N + 1);
    }
    const inHand = { ...itemsInPlay({ ...ctx, state }) };
    for (const content of Object.values(out)) {
      for (const [kind, count] of Object.entries(content)) inHand[kind] -= count;
    }
    if (state.pending && state.to_move !== null && state.to_move !== undefined && total(inHand) > 0) {
      out[`s${state.to_move}hand`] = inHand;
    }
    return out;
  },

  countText(content, place, ctx) {
    const n = total(content);
    if (!n) return '';
    if (place.id.endsWith('hand')) return t('coin_board.in_hand', { n });
    if (!withCoins(ctx) || !place.id.endsWith('pot')) return String(n);
    return `${cents(content)}¢`;
  },

  // "2 Quarters, 1 Dime (45¢)" instead of the drawing's coin letters.
  spokenContent(content, place, ctx) {
    if (!withCoins(ctx)) return t('coin_board.counters', { count: total(content) });
    const kinds = COINS.filter((c) => content[c] > 0);
    if (!kinds.length) return t('coin_board.empty');
    return t('coin_board.coins_worth', { coins: kinds.map((c) => coinsCount(c, content[c])).join(', '), cents: cents(content) });
  },

  drawContent(place, content, ctx) {
    if (!withCoins(ctx)) return drawCounters(place, content, ctx);
    return drawCoinStacks(place.shape === 'tray' ? place : pileArea(place), content);
  },

  target(token, ctx) {
    const cup = /^c(\d+)$/.exec(token);
    return cup ? `s${ctx.state.to_move}c${cup[1]}` : null;
  },

  steps(events, ctx) {
    // A turn played one decision at a time shows each coin as it is placed; the closing
    // record would replay coins already on the board, so only whole turns are animated.
    if (ctx.state.pending) return [];
    const names = seatNames(ctx);
    const steps = [];
    for (const event of events) {
      if (event.event === 'concede') steps.push({ say: t('coin_board.concedes', { name: names[event.player] }) });
      if (event.event !== 'turn') continue;
      const p = event.player;
      (event.trace ?? []).forEach((lap, k) => {
        const dir = lap.dir === 'L' ? -1 : 1;
        const items = withCoins(ctx) ? event.move?.laps?.[k]?.coins : Array(lap.count).fill('n');
        steps.push({ lift: originOf(p, lap.from), items });
        for (const id of lapTargets(p, N, lap.from, lap.count, dir)) steps.push({ drop: id });
      });
      if (event.capture) {
        steps.push({ take: `s${1 - p}c${event.capture.cup}`, to: `s${p}pot`, say: t('cups_board.captures', { name: names[p] }) });
      }
    }
    return steps;
  },

  origin: rowsOrigin,
  // The guide's words and pictures for the choices that are coins or directions.
  prompt(tokens) {
    if (tokens.length && tokens.every((token) => COIN_NAMES[token])) return t('coin_board.choose_coin');
    if (tokens.length && tokens.every((token) => token === 'R' || token === 'L')) return t('coin_board.choose_direction');
    return reservePrompt(tokens);
  },
  choiceIcon: (token) => (COIN_NAMES[token] ? coinIcon(token, 26) : null),
  describe(token) {
    if (/^r\d+$/.test(token)) return t('rows_board.sow_from_reserve', { n: Number(token.slice(1)) });
    if (token === 'R') return t('coin_board.right');
    if (token === 'L') return t('coin_board.left');
    if (COIN_NAMES[token]) return t('coin_board.coin_value', { coin: COIN_NAMES[token], value: COIN_VALUES[token] });
    return token;
  },
  preview(token, ctx) {
    const seat = ctx.state.to_move;
    const k = /^r(\d+)$/.exec(token);
    if (k) return Array.from({ length: Number(k[1]) }, (_, i) => `s${seat}c${i + 1}`);
    const turn = ctx.state.board?.turn;
    if ((token === 'R' || token === 'L') && Number.isInteger(turn?.from) && Number.isInteger(turn?.count)) {
      return lapTargets(seat, N, turn.from, turn.count, token === 'L' ? -1 : 1);
    }
    return [];
  },

  // After a reserve play, how many of its coins are still to be placed (issue 17).
  turnNote(state) {
    const turn = state.board?.turn;
    if (!turn || !/^r\d+$/.test(turn.source ?? '') || turn.lap !== 0 || turn.awaiting !== 'coin') return '';
    const left = turn.count - turn.sown;
    return t('coin_board.still_to_place', { left, count: turn.count });
  },

  // Where the next coin of a half-played turn goes (the engine's readable board says).
  marks(state) {
    const next = state.board?.turn?.next;
    if (next === null || next === undefined) return [];
    return [next === 'pot' ? `s${state.to_move}pot` : `s${state.to_move}c${next}`];
  },
};

// One coin per kind present, with its count: "(Q) ×3". Easy to count at a glance.
function drawCoinStacks(place, content) {
  const g = s('g', { class: 'coins' });
  const kinds = COINS.filter((c) => (content[c] ?? 0) > 0);
  if (place.shape === 'tray' && place.h > place.w) {
    const step = Math.min(64, place.h / Math.max(1, kinds.length));
    kinds.forEach((c, i) => {
      const y = place.y - (step * (kinds.length - 1)) / 2 + i * step;
      g.append(coin(place.x - 8, y - 8, c), times(place.x - 8, y + 12, content[c]));
    });
    return g;
  }
  if (place.shape !== 'tray' && place.w > place.h) {   // a cup lying on its side: coins in a 2 x 2 grid
    kinds.forEach((c, i) => {
      const x = place.x - 32 + (i % 2) * 46, y = place.y - 12 + Math.floor(i / 2) * 24;
      g.append(coin(x, y, c), times(x + 11, y, content[c]));
    });
    return g;
  }
  if (place.shape === 'tray') {
    const step = Math.min(64, place.w / Math.max(1, kinds.length));
    kinds.forEach((c, i) => {
      const x = place.x - (step * (kinds.length - 1)) / 2 + i * step - 10;
      g.append(coin(x, place.y, c), times(x + 13, place.y, content[c]));
    });
    return g;
  }
  const step = Math.min(26, (place.h - 16) / Math.max(1, kinds.length));
  kinds.forEach((c, i) => {
    const y = place.y - (step * (kinds.length - 1)) / 2 + i * step;
    g.append(coin(place.x - 11, y, c), times(place.x + 3, y, content[c]));
  });
  return g;
}

function times(x, y, n) {
  return s('text', { class: 'times', x, y, 'dominant-baseline': 'central' }, `×${n}`);
}

export { itemsOf };

// "Ada's cup 4", "Bo's pot", "Ada's reserve", "Ada's hand" from a board place id.
function placeWords(id, names) {
  const [, seat, rest] = /^s(\d)(.*)$/.exec(id) ?? [];
  const who = names[Number(seat)];
  if (rest === 'pot') return t('rows_board.pot_of', { name: who });
  if (rest === 'res') return t('rows_board.reserve_of', { name: who });
  if (rest === 'hand') return t('rows_board.hand_of', { name: who });
  return t('place_words.owned', { name: who, kind: t('rows_board.cup', { n: Number(rest.slice(1)) }) });
}

// Where the winning coins lie: one line per coin ("Ada's pot", "Bo's cup 4").
function winningCoinPlaces(state, options, names) {
  const kind = state.board?.winning_coin;
  if (!kind) return [];
  const contents = coinDuelBoard.contents(state, { options, state });
  return Object.entries(contents).flatMap(([id, content]) => Array(content[kind] ?? 0).fill(placeWords(id, names)));
}

const NOUNS = { get item() { return t('coin_board.noun_item'); }, get place() { return t('cups_board.noun_place'); } };
const coinsText = (count) => t('coin_board.coins', { count });
// What a capture took: coin counts [P, N, D, Q] in stages 2 and 3, a number in stage 1.
const capturedText = (items) => (Array.isArray(items) ? coinCountsText(items) : coinsText(Number(items ?? 0)));

// Everything the client knows of Coin Duel beyond what the server says.
export const coinDuel = {
  board: coinDuelBoard,
  rules: COIN_DUEL_RULES,
  get sides() { return [t('rows_board.south'), t('rows_board.north')]; },
  nouns: NOUNS,
  describeTurn: (event, name) => rowsTurnText(event, name, { items: coinsText, itemName: (c) => COIN_NAMES[c] ?? c, itemsText: capturedText }),
  tokenWord: (token) => (COIN_NAMES[token] ? coinWord(token) : undefined),

  // Stage 1 counts the coins in the pot, stage 2 their value; stage 3 the rounds' points so far.
  score(state, seat, options) {
    const v = state.position;
    if (stage({ options }) === 1) return { value: v[seat * 12 + 10], unit: t('rows_board.in_pot'), by: 'coin_board.coins' };
    const pot = COINS.reduce((sum, c, k) => sum + v[(seat * 12 + 10) * 4 + k] * COIN_VALUES[c], 0);
    if (stage({ options }) === 2) return { value: pot, unit: t('coin_board.cents_in_pot'), by: 'coin_board.cents' };
    const earlier = (state.rounds ?? []).reduce((sum, r) => sum + (r.scores?.[seat] ?? 0), 0);
    return { value: earlier, unit: t('coin_board.points_pot', { pot }), by: 'coin_board.points' };
  },

  // The status names the round from the first one on.
  roundShown: inRounds,
  panel: ({ state, options, names }) => (inRounds(options)
    ? coinDuelPanel({ state, names, places: winningCoinPlaces(state, options, names) }) : null),
  roundEndText,
  specialActions: {
    concede: { get label() { return t('coin_board.concede'); }, get question() { return t('coin_board.concede_question'); }, offered: (room) => inRounds(room.options) },
  },
};
