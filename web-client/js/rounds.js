// How rounds and games end: the reason in plain words, and the table of the rounds played.
import { h } from './dom.js';
import { compactName } from './boards/names.js';

// Why a game or round ended, as a sentence of plain words. `who` names the player concerned
// (the one who resigned, ran out of time, could not move…) when the result says who it was.
const REASONS = {
  no_moves: () => 'Neither player could move any more.',
  no_legal_move: (who) => (who ? `${who} had no move left.` : 'The player to move had no move left.'),
  resign: (who) => (who ? `${who} resigned.` : 'A player resigned.'),
  illegal_move: (who) => (who ? `${who} made an illegal move.` : 'A player made an illegal move.'),
  both_winning_coins_scored: () => 'Both winning coins reached the pots.',
  repetition: () => 'The same position came back three times.',
  turn_limit: () => 'The round reached its turn limit.',
  concession: (who) => (who ? `${who} conceded the round.` : 'A player conceded the round.'),
  not_played: () => 'The round was not played.',
  both_large_captured: () => 'Both big stones were captured.',
  no_moves_left: () => 'Neither player could move any more.',
  stalled: () => 'Nobody captured anything for too long.',
  sold_squares: () => 'A player had to sell too many squares.',
  single_round: () => 'The one round of the game is over.',
  max_rounds: () => 'The last round was played.',
  timeout: (who) => (who ? `${who} ran out of time.` : 'A clock ran out.'),
  plex: () => 'The last set was taken in the Plex! race.',
  target: () => 'One player holds a clear majority of the sets.',
  last_seat_standing: () => 'Only one player was left.',
  completed: () => 'All four rounds were played.',
  abandoned: (who) => (who ? `${who} left the game.` : 'A player left the game.'),
};
export function reasonText(reason, who = null) {
  const sentence = REASONS[reason];
  if (sentence) return sentence(who);
  const words = String(reason ?? 'unknown').replaceAll('_', ' ');
  return `It ended: ${words}.`;
}

// A table with one row per finished round: what each seat got, and under it how the round
// ended, across the whole table (a column for it made the table too wide for the side column
// with three or four players: issue 17, bug 8).
export function roundsTable(rounds, names) {
  if (!rounds?.length) return null;
  const perSeat = (r) => ['scores', 'points', 'sets'].map((k) => [k, r[k]]).find(([, v]) => Array.isArray(v));
  const [label] = perSeat(rounds[0]) ?? ['scores'];
  return h('table', { class: 'rounds', dataset: { testid: 'rounds' } },
    h('caption', {}, `Rounds (${label})`),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Round'), names.map((n) => h('th', { scope: 'col', title: n }, compactName(n, 14))))),
    rounds.map((r, i) => {
      const values = perSeat(r)?.[1] ?? [];
      return roundRows([h('th', { scope: 'row' }, r.round ?? i + 1), names.map((_, seat) => h('td', {}, values[seat] ?? '–'))],
        reasonText(r.end_reason), names.length + 1);
    }));
}

// One round of a rounds table: its cells, then how it ended on a line of its own.
export function roundRows(cells, reason, columns) {
  return h('tbody', {}, h('tr', { class: 'round-scores' }, cells.flat()),
    h('tr', { class: 'round-reason' }, h('td', { colspan: columns }, reason)));
}
