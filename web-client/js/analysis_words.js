// The engine's analysis in words (issue 32): who is better and by how much, the best move, what a
// marked move cost, each player's accuracy, and the help under it. Pure; names come from the
// caller (the seat's player, else the side's name from its game module).
import { moveWords } from './moves.js';
import { t } from './i18n/index.js';
import { markWord, DEFAULT_THRESHOLDS } from './analysis_state.js';

export const share = (value) => Number(value).toFixed(2);

// Below this distance from an even share a two-seat position reads as equal.
const EVEN = 0.03;

// evaluation: each seat's expected share (0–1). "South is better: 0.72", "Even: 0.50", and when
// proven "South wins with best play (exact)". With three or four seats each seat's share.
export function evalWords(evaluation, names, exact = false) {
  if (!Array.isArray(evaluation) || !evaluation.length) return '';
  const proven = exact ? ' (exact)' : '';
  if (evaluation.length !== 2) {
    return `${evaluation.map((value, seat) => `${names[seat]} ${share(value)}`).join(' · ')}${proven}`;
  }
  const leader = evaluation[0] >= evaluation[1] ? 0 : 1;
  const value = evaluation[leader];
  if (exact && value >= 0.999) return `${names[leader]} wins with best play (exact)`;
  if (Math.abs(value - 0.5) < EVEN) return exact ? 'A draw with best play (exact)' : `Even: ${share(value)}`;
  return `${names[leader]} is better: ${share(value)}${proven}`;
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
  return `Move ${version} was ${article(markWord(position.mark).toLowerCase())} (it lost ${share(position.drop ?? 0)}).${better}`;
}

const article = (word) => `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;

export const accuracyWords = (value) => (typeof value === 'number' ? `${Math.round(value)}% accuracy` : '');

// The page's help: what the figures mean, with the thresholds the server used.
export function helpLines(thresholds = DEFAULT_THRESHOLDS, seats = 2) {
  const t = { ...DEFAULT_THRESHOLDS, ...thresholds };
  return [
    seats === 2
      ? 'The graph shows the first player\'s expected share of the game after each move: 1 is a sure win, 0.50 an even game, 0 a sure loss.'
      : 'The graph shows each player\'s expected share of the game after each move (the shares add up to 1).',
    `A move that lowers its player's expected share by ${share(t.inaccuracy)} or more is an inaccuracy (?!), by ${share(t.mistake)} or more a mistake (?), by ${share(t.blunder)} or more a blunder (??).`,
    'Accuracy (0–100) is the average over a player\'s moves of a score that falls as the move\'s loss grows: 100 for the engine\'s choice, about 64 for a loss of 0.10, 25 for 0.30, 0 for throwing a won game away.',
    '"Exact" means the engine worked the position out to the end of the game; other evaluations are estimates.',
  ];
}
