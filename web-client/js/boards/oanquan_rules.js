// O An Quan in our own words, shortened from its rule book in docs/rules/: the lobby's blurb,
// the rules card and the rules page, whose pictures follow the board module's position vector.
import { t } from '../i18n/index.js';

// The blurb and the card in the player's language (the catalogues' oanquan_rules.*); the rules
// page's sections below are still English only.
export const OANQUAN_RULES = {
  get blurb() { return t('oanquan_rules.blurb'); },
  get card() { return [0, 1, 2, 3].map((i) => t(`oanquan_rules.card_${i}`)); },
  intro: 'Vietnamese "mandarin squares": a ring of ten squares between two half-moon end spaces, each with a big stone worth 10. Sow one of your squares in the direction you choose; sowing relays from the next square; captures take the place after an empty square.',
  sections: [
    { title: 'The board', text: 'Each player owns the five squares on his side, with 5 counters each. The two end spaces belong to nobody and hold a big stone each. Your captures go to your store behind your row.',
      picture: { position: [0, 5, 5, 5, 5, 5, 0, 5, 5, 5, 5, 5, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1], mark: ['q1', 'q2', 'q3', 'q4', 'q5'] } },
    { title: 'A turn', text: 'Pick one of your squares and a direction. Its counters are sown one by one around the ring. If the next place holds counters, lift them and go on. Here square 3 was sown counterclockwise: squares 4 and 5, the east end space, then squares 7 and 8.',
      picture: { position: [0, 5, 5, 0, 6, 6, 1, 6, 6, 5, 5, 5, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1], mark: ['q4', 'q5', 'q6', 'q7', 'q8'] } },
    { title: 'Captures and the end', text: 'If the next place is an empty square and the one after holds something, you capture it; more captures follow across alternating empty squares. An end space right after your last counter, or two empty places, ends the turn. When both big stones are taken the round ends; in a match, a player short of counters sells squares to the other, and selling three squares loses.' },
  ],
};
