// Duovallis in our own words, shortened from its rule book in docs/rules/: the lobby's blurb,
// the rules card and the rules page, whose pictures follow the board module's position vector.
import { t } from '../i18n/index.js';

const DUOVALLIS_START = (() => {
  const white = Array(24).fill(0), black = Array(24).fill(0);
  for (const hole of [0, 1, 2, 3, 4, 5, 13, 14, 15, 16]) white[hole] = 4;
  for (const hole of [7, 8, 9, 10, 18, 19, 20, 21, 22, 23]) black[hole] = 4;
  return [...white, ...black, 0, 0];
})();

// Every word in the player's language (the catalogues' duovallis_rules.*, in German the words of
// the game's German rule text), read when the page is drawn: getters, so a change of language
// needs no reload of this module.
export const DUOVALLIS_RULES = {
  get blurb() { return t('duovallis_rules.blurb'); },
  get card() { return [0, 1, 2, 3].map((i) => t(`duovallis_rules.card_${i}`)); },
  get intro() { return t('duovallis_rules.intro'); },
  get sections() {
    return [
      { title: t('duovallis_rules.section_board_title'), text: t('duovallis_rules.section_board_text'),
        picture: { position: DUOVALLIS_START, mark: ['d6', 'd11', 'd12', 'd17'] } },
      { title: t('duovallis_rules.section_turn_title'), text: t('duovallis_rules.section_turn_text'),
        picture: { position: DUOVALLIS_START, mark: ['d0', 'd1', 'd2', 'd3', 'd4', 'd5'] } },
      { title: t('duovallis_rules.section_end_title'), text: t('duovallis_rules.section_end_text') },
    ];
  },
};
