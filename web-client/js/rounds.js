// How rounds and games end: the reason in plain words, and the table of the rounds played.
import { h } from './dom.js';
import { t } from './i18n/index.js';
import { compactName } from './boards/names.js';

// Why a game or round ended, as a sentence of plain words. `who` names the player concerned
// (the one who resigned, ran out of time, could not move…) when the result says who it was.
// The reasons said with the name of the player concerned (reason.<end_reason>, and
// reason.<end_reason>_someone when the result does not say who).
const ABOUT_SOMEONE = new Set(['no_legal_move', 'resign', 'illegal_move', 'concession', 'timeout', 'abandoned']);
const REASONS = new Set(['no_moves', 'no_legal_move', 'resign', 'illegal_move', 'both_winning_coins_scored',
  'repetition', 'turn_limit', 'concession', 'not_played', 'both_large_captured', 'no_moves_left', 'stalled', 'sold_squares', 'single_round', 'max_rounds', 'timeout', 'plex', 'target', 'last_seat_standing', 'completed', 'abandoned']);
export function reasonText(reason, who = null) {
  if (REASONS.has(reason)) {
    if (!ABOUT_SOMEONE.has(reason)) return t(`reason.${reason}`);
    return who ? t(`reason.${reason}`, { name: who }) : t(`reason.${reason}_someone`);
  }
  return t('reason.other', { words: String(reason ?? 'unknown').replaceAll('_', ' ') });
}

// A table with one row per finished round: what each seat got, and under it how the round
// ended, across the whole table (a column for it made the table too wide for the side column
// with three or four players: issue 17, bug 8).
export function roundsTable(rounds, names) {
  if (!rounds?.length) return null;
  const perSeat = (r) => ['scores', 'points', 'sets'].map((k) => [k, r[k]]).find(([, v]) => Array.isArray(v));
  const [label] = perSeat(rounds[0]) ?? ['scores'];
  return h('table', { class: 'rounds', dataset: { testid: 'rounds' } },
    h('caption', {}, t('rounds.caption', { what: t(`rounds.${label}`) })),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('rounds.round')), names.map((n) => h('th', { scope: 'col', title: n }, compactName(n, 14))))),
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
