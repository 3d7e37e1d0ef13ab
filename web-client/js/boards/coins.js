// Coin Duel's coins (stages 2 and 3): their kinds, names and values, in words and drawn.
import { s } from '../dom.js';
import { plural, list } from '../words.js';

export const COINS = ['P', 'N', 'D', 'Q'];
export const COIN_NAMES = { P: 'Penny', N: 'Nickel', D: 'Dime', Q: 'Quarter' };
export const COIN_VALUES = { P: 1, N: 5, D: 10, Q: 25 };

// "1 Penny", "3 Pennies", "2 Dimes".
export const coinsWord = (kind, n) => (n === 1 ? COIN_NAMES[kind] : kind === 'P' ? 'Pennies' : `${COIN_NAMES[kind]}s`);

// What coins are worth together, in cents: {P: 2, Q: 1} -> 27.
export const cents = (content) => COINS.reduce((sum, c) => sum + (content[c] ?? 0) * COIN_VALUES[c], 0);

// Coin counts [P, N, D, Q] in words: "2 pennies and 1 dime".
export function coinCountsText(counts) {
  const parts = counts.map((n, k) => (n ? plural(n, COIN_NAMES[COINS[k]].toLowerCase(), COINS[k] === 'P' ? 'pennies' : undefined) : null))
    .filter(Boolean);
  return parts.length ? list(parts) : 'nothing';
}

export function coin(x, y, kind) {
  return s('g', { class: `coin coin-${kind}` },
    s('circle', { cx: x, cy: y, r: kind === 'D' ? 9 : kind === 'P' ? 9.5 : kind === 'N' ? 10.5 : 11.5 }),
    s('text', { x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, kind));
}

// A coin the size of a line of text, for buttons and tables.
export const coinIcon = (kind, size = 20) => s('svg', { viewBox: '-13 -13 26 26', width: size, height: size, 'aria-hidden': 'true',
  class: 'coin-icon' }, coin(0, 0, kind));
