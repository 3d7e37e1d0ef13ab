// Njaka in our own words, shortened from its rule book in docs/rules/: the lobby's blurb,
// the rules card and the rules page, whose pictures follow the board module's position vector.
import { t } from '../i18n/index.js';

const ownedBy = (blocks) => blocks.flatMap((seat, k) => Array(12 / blocks.length).fill(seat ?? k));

// Every word in the player's language (the catalogues' njaka_rules.*), read when the page is
// drawn: getters, so a change of language needs no reload of this module.
export const NJAKA_RULES = {
  get blurb() { return t('njaka_rules.blurb'); },
  get card() { return [0, 1, 2, 3].map((i) => t(`njaka_rules.card_${i}`)); },
  get intro() { return t('njaka_rules.intro'); },
  get sections() {
    return [
      { title: t('njaka_rules.section_board_title'), text: t('njaka_rules.section_board_text'),
        picture: { options: { players: 2 }, position: [...Array(12).fill(4), ...ownedBy([0, 1]), 0, 0], mark: ['h0', 'h1', 'h2', 'h3', 'h4', 'h5'] } },
      { title: t('njaka_rules.section_turn_title'), text: t('njaka_rules.section_turn_text'),
        picture: { options: { players: 2 }, position: [0, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4, ...ownedBy([0, 1]), 0, 0], mark: ['h1', 'h2', 'h3', 'h4'] } },
      { title: t('njaka_rules.section_plex_title'), text: t('njaka_rules.section_plex_text') },
    ];
  },
};
