// The engine's analysis in words (issue 32): who is better and by how much, the best move, what a
// marked move cost, each player's accuracy, and the help under it. Pure; names come from the
// caller (the seat's player, else the side's name from its game module).
import { moveWords } from './moves.js';
import { t, formatNumber } from './i18n/index.js';
import { DEFAULT_THRESHOLDS } from './analysis_state.js';

// Two decimals, written the language's way (0.72, 0,72).
export const share = (value) => formatNumber(Number(value), { minimumFractionDigits: 2, maximumFractionDigits: 2 });

// Below this distance from an even share a two-seat position reads as equal.
const EVEN = 0.03;

// evaluation: each seat's expected share (0–1). "South is better: 0.72", "Even: 0.50", and when
// proven "South wins with best play (exact)". With three or four seats each seat's share.
export function evalWords(evaluation, names, exact = false) {
  if (!Array.isArray(evaluation) || !evaluation.length) return '';
  const proven = (text) => (exact ? t('analysis.exact', { text }) : text);
  if (evaluation.length !== 2) return proven(evaluation.map((value, seat) => `${names[seat]} ${share(value)}`).join(' · '));
  const leader = evaluation[0] >= evaluation[1] ? 0 : 1;
  const value = evaluation[leader];
  if (exact && value >= 0.999) return t('analysis.eval_wins', { name: names[leader] });
  if (Math.abs(value - 0.5) < EVEN) return exact ? t('analysis.eval_draw') : t('analysis.eval_even', { share: share(value) });
  return proven(t('analysis.eval_better', { name: names[leader], share: share(value) }));
}

// "Best move for Ada: cup 3, right" — none where nobody chooses (a Plex! window, the end). `who`:
// the player to move, whose cup it is (beside "Better was", about the other player, it was unclear).
export function bestWords(game, best, who = '') {
  if (!best) return '';
  return who ? t('analysis.best_for', { name: who, move: moveWords(game, best) }) : t('analysis.best', { move: moveWords(game, best) });
}

// What the move to version v cost: "Move 14 was a mistake (it lost 0.23). Better was cup 3."
// position: the analysis of the position the move was played from.
// `who`: the player who made that move, whose better choice it names.
export function markedMoveWords(game, version, position, who = '') {
  if (!position?.mark) return '';
  const move = position.best ? moveWords(game, position.best) : '';
  const better = !move ? '' : ` ${who ? t('analysis.better_for', { name: who, move }) : t('analysis.better', { move })}`;
  return `${t(`analysis.was_${position.mark}`, { n: version, drop: share(position.drop ?? 0) })}${better}`;
}

export const accuracyWords = (value) => (typeof value === 'number' ? t('analysis.accuracy', { percent: Math.round(value) }) : '');

// The page's help: what the figures mean, with the thresholds the server used.
export function helpLines(thresholds = DEFAULT_THRESHOLDS, seats = 2) {
  const limits = { ...DEFAULT_THRESHOLDS, ...thresholds };
  return [
    t(seats === 2 ? 'analysis.help_graph_two' : 'analysis.help_graph_many'),
    t('analysis.help_marks', { inaccuracy: share(limits.inaccuracy), mistake: share(limits.mistake), blunder: share(limits.blunder) }),
    t('analysis.help_accuracy'),
    t('analysis.help_exact'),
  ];
}
