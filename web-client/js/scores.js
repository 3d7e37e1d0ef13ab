// Scores read from the position vector (stable across engine versions), round tables from
// `state.rounds` and the result screen from `state.result`.
import { h } from './dom.js';
import { COINS, COIN_VALUES } from './boards/coin_duel.js';

// One number (and its unit) per seat for the seat list.
export function seatScore(game, options, state, seat) {
  if (!state) return null;
  const v = state.position;
  switch (game) {
    case 'cups': {
      const n = Number(options?.cups_per_side ?? 4);
      return { value: v[seat * (n + 2) + n], unit: 'in pot' };
    }
    case 'coin_duel': {
      const stage = Number(options?.stage ?? 3);
      if (stage === 1) return { value: v[seat * 12 + 10], unit: 'in pot' };
      const pot = COINS.reduce((sum, c, k) => sum + v[(seat * 12 + 10) * 4 + k] * COIN_VALUES[c], 0);
      if (stage === 2) return { value: pot, unit: '¢ in pot' };
      const earlier = (state.rounds ?? []).reduce((sum, r) => sum + (r.scores?.[seat] ?? 0), 0);
      return { value: earlier, unit: `points (pot ${pot}¢)` };
    }
    case 'oanquan':
      return { value: v[14 + seat] + 10 * v[16 + seat], unit: 'points captured' };
    case 'njaka':
      return { value: v[24 + seat], unit: v[24 + seat] === 1 ? 'set' : 'sets' };
    case 'duovallis': {
      const stones = v.slice(seat * 24, seat * 24 + 24).reduce((a, b) => a + b, 0);
      return { value: stones, unit: seat === 0 ? 'white stones' : 'black stones' };
    }
    default:
      return null;
  }
}

const REASONS = {
  no_moves: 'neither player could move', no_legal_move: 'the player to move had no legal move',
  resign: 'resignation', illegal_move: 'an illegal move', both_winning_coins_scored: 'both winning coins were scored',
  repetition: 'the position repeated three times', turn_limit: 'the turn limit', concession: 'a concession',
  not_played: 'not played', both_large_captured: 'both large stones were captured', stalled: 'no captures for too long',
  sold_squares: 'squares were sold', single_round: 'the single round ended', max_rounds: 'the last round was played',
  timeout: 'time ran out', plex: 'the Plex! set', target: 'a winning majority of sets',
  last_seat_standing: 'only one player was left', completed: 'all four rounds were played',
  abandoned: 'a player left the game',
};
export const reasonText = (reason) => REASONS[reason] ?? String(reason ?? '').replaceAll('_', ' ');

// A table with one row per finished round: how it ended and what each seat got.
export function roundsTable(rounds, names) {
  if (!rounds?.length) return null;
  const perSeat = (r) => ['scores', 'points', 'sets'].map((k) => [k, r[k]]).find(([, v]) => Array.isArray(v));
  const [label] = perSeat(rounds[0]) ?? ['scores'];
  return h('table', { class: 'rounds', dataset: { testid: 'rounds' } },
    h('caption', {}, `Rounds (${label})`),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Round'), names.map((n) => h('th', { scope: 'col' }, n)),
      h('th', { scope: 'col' }, 'Ended by'))),
    h('tbody', {}, rounds.map((r, i) => {
      const values = perSeat(r)?.[1] ?? [];
      return h('tr', {}, h('th', { scope: 'row' }, r.round ?? i + 1),
        names.map((_, seat) => h('td', {}, values[seat] ?? '–')), h('td', {}, reasonText(r.end_reason)));
    })));
}

// The closing screen: who won and why.
export function resultPanel(result, names) {
  if (!result) return null;
  const winner = result.winner;
  let headline;
  if (winner === null || winner === undefined) headline = 'A draw';
  else if (Array.isArray(winner)) headline = `${winner.map((w) => names[w]).join(' and ')} share the win`;
  else headline = `${names[winner] ?? `Seat ${winner + 1}`} wins`;
  const totals = result.totals ?? result.scores ?? result.pot_values ?? result.pots ?? result.final_small;
  return h('section', { class: 'result', dataset: { testid: 'result' }, 'aria-live': 'polite' },
    h('h2', {}, headline),
    h('p', {}, `The game ended by ${reasonText(result.end_reason)}.`),
    Array.isArray(totals) && totals.every((t) => typeof t === 'number')
      ? h('p', { class: 'totals' }, names.map((n, i) => `${n}: ${totals[i]}`).join(' · ')) : null,
    result.ranking ? h('p', {}, `Ranking: ${result.ranking.map((g) => g.map((s) => names[s]).join(' = ')).join(', ')}`) : null);
}
