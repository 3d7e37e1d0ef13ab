// Coin Duel's round panel (stage 3, issue 17): the round's winning coin, what it is worth and
// where both winning coins are now, the pots' values, a table of the rounds played with running
// totals; and the announcement shown when a round ends. Everything is read from the state the
// server sends (`board.winning_coin`, `board.pot_values`, `rounds`), never worked out again here.
import { h } from '../dom.js';
import { COIN_NAMES, COINS, coinIcon, coinsWord } from './coins.js';
import { reasonText, roundRows } from '../rounds.js';

const ROUNDS = 4;

// `places`: where the winning coins lie, one line per coin ("Ada's pot", "Bo's cup 4").
export function coinDuelPanel({ state, names, places }) {
  const board = state.board ?? {};
  const rounds = state.rounds ?? [];
  const totals = [0, 0];
  const rows = rounds.map((round) => {
    round.scores?.forEach((score, seat) => { totals[seat] += score; });
    return roundRows([h('th', { scope: 'row' }, round.round),
      h('td', {}, coinIcon(round.winning_coin), ` ${round.winning_value}`),
      ...names.map((_, seat) => h('td', {}, `${round.scores?.[seat] ?? 0}`, h('small', {}, ` (${totals[seat]})`)))],
    reasonText(round.end_reason, whoEnded(round, names)), names.length + 2);
  });
  const over = state.phase === 'over';
  const shown = over ? [] : places;
  const kind = board.winning_coin;
  return h('section', { class: 'coin-panel', 'aria-labelledby': 'coin-panel-title', dataset: { testid: 'coin-panel' } },
    h('h2', { id: 'coin-panel-title' }, over ? 'The four rounds' : `Round ${board.round ?? state.round} of ${ROUNDS}`),
    !over && kind ? h('p', { class: 'winning', dataset: { testid: 'winning-coin' } }, 'Winning coin: ', coinIcon(kind),
      h('strong', {}, ` ${COIN_NAMES[kind]}`), `, worth ${board.winning_value} in a pot`) : null,
    shown.length ? h('p', { dataset: { testid: 'winning-places' } }, `The two ${coinsWord(kind, 2).toLowerCase()}: `,
      shown.join(' and '), '.') : null,
    !over && board.pot_values ? h('p', { dataset: { testid: 'pot-values' } }, 'In the pots now: ',
      names.map((name, seat) => `${name} ${board.pot_values[seat]}`).join(' · ')) : null,
    rounds.length ? h('table', { class: 'rounds', dataset: { testid: 'coin-rounds' } },
      h('caption', {}, 'Round scores (running total)'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Round'), h('th', { scope: 'col' }, 'Winning coin'),
        names.map((name) => h('th', { scope: 'col' }, name)))),
      rows) : null);
}

// The player a round's end speaks of (who conceded, made an illegal move or was stuck), if any.
const whoEnded = (round, names) => names[[round.offender, round.stuck_player].find(Number.isInteger)] ?? null;

// Said when a round ends: who scored what, and the next round's winning coin.
export function roundEndText(events, names) {
  const end = events?.find((event) => event.event === 'round_end' && event.winning_coin);
  if (!end) return null;
  const scores = names.map((name, seat) => `${name} ${end.scores?.[seat] ?? 0}`).join(', ');
  const next = events.find((event) => event.event === 'round_start');
  const nextKind = next ? COINS[next.round - 1] : null;
  return `Round ${end.round} is over. Scores: ${scores}.${nextKind ? ` Round ${next.round} starts; the winning coin is the ${COIN_NAMES[nextKind].toLowerCase()}.` : ''}`;
}
