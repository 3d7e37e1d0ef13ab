// Coin Duel in our own words, shortened from its rule book in docs/rules/: the lobby's blurb,
// the rules card and the rules page, whose pictures follow the board module's position vector.
import { t } from '../i18n/index.js';

// The blurb and the card in the player's language (the catalogues' coin_rules.*); the rules
// page's sections below are still English only.
const coins = (p, n, d, q) => [p, n, d, q];
const none = () => coins(0, 0, 0, 0);

export const COIN_DUEL_RULES = {
  get blurb() { return t('coin_rules.blurb'); },
  get card() { return [0, 1, 2, 3].map((i) => t(`coin_rules.card_${i}`)); },
  intro: 'Cups on a board of ten cups a side, in three stages: beans with relay sowing, then coins worth 1, 5, 10 and 25, then four rounds with a winning coin and laps that may run either way.',
  sections: [
    { title: 'The board and the coins', text: 'Ten cups a side, your pot at the right end of your row. Coins: Penny 1, Nickel 5, Dime 10, Quarter 25. In stage 3 each round gives both players the same reserve, with one winning coin each: a penny in round 1, then a nickel, a dime and a quarter.',
      picture: { options: { stage: 3 }, position: [...Array(10).fill(0).flatMap(none), ...none(), ...coins(1, 10, 10, 10), ...Array(10).fill(0).flatMap(none), ...none(), ...coins(1, 10, 10, 10)], mark: ['s0res', 's1res'] } },
    { title: 'A turn', text: 'Sow from your reserve (up to four coins, or one cup beyond your furthest coin) or lift a whole cup, choosing which coin goes next. If the last coin lands in a cup that already held something, lift that cup and keep sowing: a relay. An empty cup ends the turn and captures the cup across; the pot ends it too. Going past the pot is never allowed.',
      picture: { options: { stage: 3 }, position: [...coins(0, 0, 0, 1), ...coins(0, 0, 1, 0), ...coins(1, 0, 0, 0), ...Array(7).fill(0).flatMap(none), ...none(), ...coins(0, 10, 9, 9), ...Array(10).fill(0).flatMap(none), ...none(), ...coins(1, 10, 10, 10)], mark: ['s0c1', 's0c2', 's0c3'] } },
    { title: 'Rounds and scores (stage 3)', text: 'From the second lap of a turn on, each lap may go right (toward your pot) or left. A round ends when both winning coins are in pots. A winning coin in a pot counts ten times its value, and only a player whose pot holds a winning coin scores. The four round scores are added up.' },
  ],
};
