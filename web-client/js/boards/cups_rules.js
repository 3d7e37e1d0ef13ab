// Cups in our own words, shortened from its rule book in docs/rules/: the lobby's blurb,
// the rules card and the rules page, whose pictures follow the board module's position vector.
import { t } from '../i18n/index.js';

// The blurb and the card in the player's language (the catalogues' cups_rules.*); the rules
// page's sections below are still English only.
const side = (cups, pot, reserve) => [...cups, pot, reserve];

export const CUPS_RULES = {
  get blurb() { return t('cups_rules.blurb'); },
  get card() { return [0, 1, 2, 3].map((i) => t(`cups_rules.card_${i}`)); },
  intro: 'Two players, one row of cups each, a pot each and a private reserve of beans. Feed beans from your reserve into your row, and empty a cup into your pot only when it holds exactly the beans needed to reach it. Whoever ends with more beans in the pot wins.',
  sections: [
    { title: 'The board', text: 'You own the bottom row and the pot at its right end; your cups are numbered 1 to 4 from your left, so cup 4 is next to your pot. The board starts empty: every bean waits in the reserves (ten per cup).',
      picture: { options: { cups_per_side: 4 }, position: [...side([0, 0, 0, 0], 0, 40), ...side([0, 0, 0, 0], 0, 40)], mark: ['s0pot', 's0res'] } },
    { title: 'Sowing from the reserve', text: 'Take k beans from your reserve and put one in each of your cups 1 to k. Here South sowed 3: cups 1, 2 and 3 get a bean each. If the last bean falls into an empty cup, you take the beans of the cup across from it into your pot.',
      picture: { options: { cups_per_side: 4 }, position: [...side([1, 1, 1, 0], 0, 37), ...side([0, 0, 0, 0], 0, 40)], mark: ['s0c1', 's0c2', 's0c3'] } },
    { title: 'Playing a cup', text: 'A cup may be played only when its beans reach exactly your pot: cup 3 needs 2 beans, cup 4 needs 1. Its beans are sown toward the pot and the last one drops in. A cup with more beans is stuck until your opponent captures it.',
      picture: { options: { cups_per_side: 4 }, position: [...side([1, 0, 2, 0], 1, 36), ...side([0, 2, 0, 1], 0, 37)], mark: ['s0c3', 's0c4', 's0pot'] } },
    { title: 'The end', text: 'A player with no move passes. When neither can move, the game ends: the bigger pot wins.' },
  ],
};
