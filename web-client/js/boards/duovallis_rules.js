// Duovallis in our own words, shortened from its rule book in docs/rules/: the lobby's blurb,
// the rules card and the rules page, whose pictures follow the board module's position vector.
import { t } from '../i18n/index.js';

const DUOVALLIS_START = (() => {
  const white = Array(24).fill(0), black = Array(24).fill(0);
  for (const hole of [0, 1, 2, 3, 4, 5, 13, 14, 15, 16]) white[hole] = 4;
  for (const hole of [7, 8, 9, 10, 18, 19, 20, 21, 22, 23]) black[hole] = 4;
  return [...white, ...black, 0, 0];
})();

// The blurb and the card in the player's language (the catalogues' duovallis_rules.*); the rules
// page's sections below are still English only.
export const DUOVALLIS_RULES = {
  get blurb() { return t('duovallis_rules.blurb'); },
  get card() { return [0, 1, 2, 3].map((i) => t(`duovallis_rules.card_${i}`)); },
  intro: 'White and Black on four rows of six holes. Each owns a back row and a front row; the four grey holes at the ends of the middle rows are shared, so the colours mix.',
  sections: [
    { title: 'The board', text: 'White owns the bottom row and the third row, Black the top row and the second. The grey holes at the ends of the middle rows are neutral; both players\' circuits run through them.',
      picture: { position: DUOVALLIS_START, mark: ['d6', 'd11', 'd12', 'd17'] } },
    { title: 'A turn', text: 'Play a hole of your back row holding at least two stones, at least half of them yours (your front row only when the back row has none). Foreign stones are sown first, always along your own circuit. If the last stone lands in an occupied hole that is at least half yours, sow on from there.',
      picture: { position: DUOVALLIS_START, mark: ['d0', 'd1', 'd2', 'd3', 'd4', 'd5'] } },
    { title: 'Capture and the end', text: 'A last stone in an empty hole of yours captures the opponent\'s hole next to it: your stones there come home, and every three of theirs become one new stone of yours (the rest wait in your carry tray). A player who cannot move on his turn loses.' },
  ],
};
