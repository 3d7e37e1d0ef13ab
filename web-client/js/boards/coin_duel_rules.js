// Coin Duel in our own words, shortened from its rule book in docs/rules/: the lobby's blurb,
// the rules card and the rules page, whose pictures follow the board module's position vector.
import { t } from '../i18n/index.js';

const coins = (p, n, d, q) => [p, n, d, q];
const none = () => coins(0, 0, 0, 0);

// Every word in the player's language (the catalogues' coin_rules.*), read when the page is
// drawn: getters, so a change of language needs no reload of this module.
export const COIN_DUEL_RULES = {
  get blurb() { return t('coin_rules.blurb'); },
  get card() { return [0, 1, 2, 3].map((i) => t(`coin_rules.card_${i}`)); },
  get intro() { return t('coin_rules.intro'); },
  get sections() {
    return [
      { title: t('coin_rules.section_board_title'), text: t('coin_rules.section_board_text'),
        picture: { options: { stage: 3 }, position: [...Array(10).fill(0).flatMap(none), ...none(), ...coins(1, 10, 10, 10), ...Array(10).fill(0).flatMap(none), ...none(), ...coins(1, 10, 10, 10)], mark: ['s0res', 's1res'] } },
      { title: t('coin_rules.section_turn_title'), text: t('coin_rules.section_turn_text'),
        picture: { options: { stage: 3 }, position: [...coins(0, 0, 0, 1), ...coins(0, 0, 1, 0), ...coins(1, 0, 0, 0), ...Array(7).fill(0).flatMap(none), ...none(), ...coins(0, 10, 9, 9), ...Array(10).fill(0).flatMap(none), ...none(), ...coins(1, 10, 10, 10)], mark: ['s0c1', 's0c2', 's0c3'] } },
      { title: t('coin_rules.section_rounds_title'), text: t('coin_rules.section_rounds_text') },
    ];
  },
};
