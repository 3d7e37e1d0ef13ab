// The result of a finished game in plain words: who won, by how much (where the score decides
// it), why, and each player's score with its unit, the same numbers the seat list shows. The room
// adds its Rematch and New game buttons below (`actions`); the history viewer shows it alone.
import { h } from './dom.js';
import { t, formatList } from './i18n/index.js';
import { seatScore } from './scores.js';
import { reasonText } from './rounds.js';

// Updates whose action names the player the game ended for.
const ENDED_BY_SEAT = { resign: 'resign', timeout: 'timeout', abandon: 'abandoned' };

// The player the reason is about: the one who resigned, ran out of time, left, or could not move.
function concerned(result, lastUpdate) {
  if (ENDED_BY_SEAT[lastUpdate?.action]) return lastUpdate.seat;
  for (const key of ['offender', 'stuck_player', 'loser']) {
    if (Number.isInteger(result[key])) return result[key];
  }
  return null;
}

export function headline(result, names, scores) {
  const winner = result.winner;
  if (winner === null || winner === undefined) return t('result.draw');
  if (Array.isArray(winner)) return t('result.share', { names: formatList(winner.map((w) => names[w])), count: winner.length });
  const name = names[winner] ?? t('lobby.seat', { n: winner + 1 });
  const numbers = scores.every((score) => score && typeof score.value === 'number' && score.by);
  if (!numbers) return t('result.wins', { name });
  const best = Math.max(...scores.filter((_, seat) => seat !== winner).map((score) => score.value));
  const margin = scores[winner].value - best;
  // `by` is the catalogue key of the game's unit, a plural block ("1 bean", "3 beans"; German
  // in the dative a margin takes: "mit 3 Punkten").
  return margin > 0 ? t('result.wins_by', { name, margin: t(scores[winner].by, { count: margin }) })
    : t('result.wins', { name });
}

// A game of one round ends when that round does: its reason is the round's.
const ROUND_DECIDES = new Set(['single_round']);

export function reasonFor(result, names, lastUpdate = null) {
  const seat = concerned(result, lastUpdate);
  let reason = ENDED_BY_SEAT[lastUpdate?.action] ?? result.end_reason;
  if (ROUND_DECIDES.has(reason) && result.rounds?.at(-1)?.end_reason) reason = result.rounds.at(-1).end_reason;
  return reasonText(reason, seat === null ? null : names[seat] ?? t('lobby.seat', { n: seat + 1 }));
}

// {game, options, state (over), names, lastUpdate (the update that ended it, when known),
//  actions: nodes to show under it}
export function resultBanner({ game, options, state, names, lastUpdate = null, notes = [], actions = [] }) {
  const result = state?.result;
  if (!result) return null;
  const scores = names.map((_, seat) => seatScore(game, options, state, seat));
  const ranking = Array.isArray(result.ranking) && names.length > 2
    ? h('p', { class: 'ranking', dataset: { testid: 'result-ranking' } }, t('result.ranking'),
      result.ranking.map((group, i) => `${i + 1}. ${formatList(group.map((seat) => names[seat]))}`).join(', '))
    : null;
  return h('section', { class: 'result-banner', role: 'status', 'aria-live': 'polite', dataset: { testid: 'result' } },
    h('h2', { dataset: { testid: 'result-headline' } }, headline(result, names, scores)),
    h('p', { class: 'reason', dataset: { testid: 'result-reason' } }, reasonFor(result, names, lastUpdate)),
    scores.every(Boolean) ? h('ul', { class: 'result-scores plain', dataset: { testid: 'result-scores' } },
      names.map((name, seat) => h('li', { class: seat === result.winner ? 'winner' : null },
        h('span', { class: 'name' }, `${name}:`), ' ', h('strong', {}, scores[seat].value), ` ${scores[seat].unit}`))) : null,
    ranking,
    ...notes,
    actions.length ? h('div', { class: 'result-actions row' }, actions) : null);
}
