// Njaka in our own words, shortened from its rule book in docs/rules/: the lobby's blurb,
// the rules card and the rules page, whose pictures follow the board module's position vector.
import { t } from '../i18n/index.js';

// The blurb and the card in the player's language (the catalogues' njaka_rules.*); the rules
// page's sections below are still English only.
const ownedBy = (blocks) => blocks.flatMap((seat, k) => Array(12 / blocks.length).fill(seat ?? k));

export const NJAKA_RULES = {
  get blurb() { return t('njaka_rules.blurb'); },
  get card() { return [0, 1, 2, 3].map((i) => t(`njaka_rules.card_${i}`)); },
  intro: 'Two to four players around twelve holes of four counters each. Whenever a drop makes a hole hold exactly four, those four are a set. After eleven sets, the last four go to whoever calls "Plex!" first.',
  sections: [
    { title: 'The board', text: 'Twelve holes in a circle, numbered counterclockwise, four counters in each. Every player owns an unbroken block of holes, ringed in his colour (with two players, holes 0–5 and 6–11). The sets you take go to your store in the middle.',
      picture: { options: { players: 2 }, position: [...Array(12).fill(4), ...ownedBy([0, 1]), 0, 0], mark: ['h0', 'h1', 'h2', 'h3', 'h4', 'h5'] } },
    { title: 'A turn', text: 'Lift one of your holes and sow counterclockwise. If the last counter lands in a hole that holds others, lift them all and go on. When a drop makes a hole hold exactly four, the set goes to the owner of that hole during the lap, or to you with your last counter, which ends your turn. Here hole 0 was sown into holes 1 to 4; the last counter fell among others, so the sowing goes on from hole 4.',
      picture: { options: { players: 2 }, position: [0, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4, ...ownedBy([0, 1]), 0, 0], mark: ['h1', 'h2', 'h3', 'h4'] } },
    { title: 'Plex! and the next round', text: 'When the eleventh set is taken, everyone races to click the big "Plex!" button for the last one. Each set buys one hole in the next round; a player with a clear majority of the twelve sets wins, and a player with none is out.' },
  ],
};
