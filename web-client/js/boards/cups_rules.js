// Cups in our own words, shortened from its rule book in docs/rules/: the lobby's blurb,
// the rules card and the rules page, whose pictures follow the board module's position vector.
import { t } from '../i18n/index.js';

const side = (cups, pot, reserve) => [...cups, pot, reserve];

// Every word in the player's language (the catalogues' cups_rules.*), read when the page is
// drawn: getters, so a change of language needs no reload of this module.
export const CUPS_RULES = {
  get blurb() { return t('cups_rules.blurb'); },
  get card() { return [0, 1, 2, 3].map((i) => t(`cups_rules.card_${i}`)); },
  get intro() { return t('cups_rules.intro'); },
  get sections() {
    return [
      { title: t('cups_rules.section_board_title'), text: t('cups_rules.section_board_text'),
        picture: { options: { cups_per_side: 4 }, position: [...side([0, 0, 0, 0], 0, 40), ...side([0, 0, 0, 0], 0, 40)], mark: ['s0pot', 's0res'] } },
      { title: t('cups_rules.section_reserve_title'), text: t('cups_rules.section_reserve_text'),
        picture: { options: { cups_per_side: 4 }, position: [...side([1, 1, 1, 0], 0, 37), ...side([0, 0, 0, 0], 0, 40)], mark: ['s0c1', 's0c2', 's0c3'] } },
      { title: t('cups_rules.section_cup_title'), text: t('cups_rules.section_cup_text'),
        picture: { options: { cups_per_side: 4 }, position: [...side([1, 0, 2, 0], 1, 36), ...side([0, 2, 0, 1], 0, 37)], mark: ['s0c3', 's0c4', 's0pot'] } },
      { title: t('cups_rules.section_end_title'), text: t('cups_rules.section_end_text') },
    ];
  },
};
