// O An Quan in our own words, shortened from its rule book in docs/rules/: the lobby's blurb,
// the rules card and the rules page, whose pictures follow the board module's position vector.
import { t } from '../i18n/index.js';

// Every word in the player's language (the catalogues' oanquan_rules.*, in Vietnamese the game's
// folk words), read when the page is drawn: getters, so a change of language needs no reload.
export const OANQUAN_RULES = {
  get blurb() { return t('oanquan_rules.blurb'); },
  get card() { return [0, 1, 2, 3].map((i) => t(`oanquan_rules.card_${i}`)); },
  get intro() { return t('oanquan_rules.intro'); },
  get sections() {
    return [
      { title: t('oanquan_rules.section_board_title'), text: t('oanquan_rules.section_board_text'),
        picture: { position: [0, 5, 5, 5, 5, 5, 0, 5, 5, 5, 5, 5, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1], mark: ['q1', 'q2', 'q3', 'q4', 'q5'] } },
      { title: t('oanquan_rules.section_turn_title'), text: t('oanquan_rules.section_turn_text'),
        picture: { position: [0, 5, 5, 0, 6, 6, 1, 6, 6, 5, 5, 5, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1], mark: ['q4', 'q5', 'q6', 'q7', 'q8'] } },
      { title: t('oanquan_rules.section_end_title'), text: t('oanquan_rules.section_end_text') },
    ];
  },
};
