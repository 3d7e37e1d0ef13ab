// Coin Duel's coins (stages 2 and 3): their kinds, names and values, in words and drawn.
import { s } from '../dom.js';
import { t, formatList } from '../i18n/index.js';

export const COINS = ['P', 'N', 'D', 'Q'];
// A coin's name in the player's language; `COIN_NAMES[token]` also tells a coin token from others.
export const COIN_NAMES = {
  get P() { return t('coins.name_p'); },
  get N() { return t('coins.name_n'); },
  get D() { return t('coins.name_d'); },
  get Q() { return t('coins.name_q'); },
};
// The name inside a sentence: "the penny" in English, "den Penny" in German.
export const coinWord = (kind) => t(`coins.word_${kind.toLowerCase()}`);
export const COIN_VALUES = { P: 1, N: 5, D: 10, Q: 25 };

// "2 Quarters", "1 Dime": a count and the coin's name, the plural the language's own.
export const coinsCount = (kind, count) => t(`coins.count_${kind.toLowerCase()}`, { count });

// What coins are worth together, in cents: {P: 2, Q: 1} -> 27.
export const cents = (content) => COINS.reduce((sum, c) => sum + (content[c] ?? 0) * COIN_VALUES[c], 0);

// Coin counts [P, N, D, Q] in words: "2 pennies and 1 dime".
export function coinCountsText(counts) {
  const parts = counts.map((n, k) => (n ? t(`coins.small_${COINS[k].toLowerCase()}`, { count: n }) : null)).filter(Boolean);
  return parts.length ? formatList(parts) : t('coins.nothing');
}

export function coin(x, y, kind) {
  return s('g', { class: `coin coin-${kind}` },
    s('circle', { cx: x, cy: y, r: kind === 'D' ? 9 : kind === 'P' ? 9.5 : kind === 'N' ? 10.5 : 11.5 }),
    s('text', { x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, kind));
}

// A coin the size of a line of text, for buttons and tables.
export const coinIcon = (kind, size = 20) => s('svg', { viewBox: '-13 -13 26 26', width: size, height: size, 'aria-hidden': 'true',
  class: 'coin-icon' }, coin(0, 0, kind));
