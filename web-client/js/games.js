// What the client adds to the server's catalog (catalog.js) for each game: a one-line blurb, the
// names of the sides its boards draw, and a short rules card in our own words. Names, player
// counts and options come from the server; legality is never decided here either (the server's
// `state.legal` is the only authority).
import { gameType } from './catalog.js';

export const GAMES = {
  cups: {
    blurb: 'Two rows of cups, a reserve of beans, and exact landings in your pot.',
    sides: ['South', 'North'],
    rules: [
      'You own the bottom row of cups and the pot at its right end. The board starts empty; your beans wait in your reserve.',
      'On your turn, either sow 1 bean into each of your first k cups from the reserve (k up to the number of cups), or play a cup that holds exactly as many beans as steps to your pot, so the last bean drops into the pot.',
      'If a reserve play ends in an empty cup, you take every bean from the opposite cup into your pot.',
      'A cup holding too many beans is blocked until the opponent captures it. With no move you pass; when neither can move, the bigger pot wins.',
    ],
  },
  coin_duel: {
    blurb: 'Cups with ten cups a side, relay sowing, and in later stages real coins.',
    sides: ['South', 'North'],
    rules: [
      'Ten cups a side, your pot at your right. Sow from your reserve (up to 4 items, or one cup beyond your furthest item) or lift a whole cup.',
      'If the last item lands in a cup that already held something, lift that cup and keep sowing (a relay). Landing in an empty cup ends the turn and captures the opposite cup; landing exactly in the pot ends it too. Going past the pot is never allowed.',
      'In stages 2 and 3 you choose which coin to sow next: Penny 1, Nickel 5, Dime 10, Quarter 25. Stage 3 lets every lap go Right (to your pot) or Left.',
      'Stage 3 has four rounds, each with one "winning coin" per player (P, N, D, then Q). You score a round only if your pot holds a winning coin; the round ends when both are in pots.',
    ],
  },
  oanquan: {
    blurb: 'Vietnamese mandarin squares: ten squares, two big stones, chains of captures.',
    sides: ['South', 'North'],
    rules: [
      'Each player owns five squares; the two half-moon ends hold a big stone (worth 10) and belong to nobody.',
      'Pick one of your squares and a direction. Its counters are sown one by one around the ring. If the next place holds counters, lift them and go on.',
      'If the next place is an empty square and the one after holds something, capture it; more captures follow across alternating empty squares. An end space right after your last counter, or two empty places, ends the turn.',
      'When both big stones are taken, the round ends. Next round each square needs 5 counters; a player short of counters sells squares to the other. Selling 3 squares loses the match.',
    ],
  },
  njaka: {
    blurb: 'Twelve holes in a circle, two to four players, and a race to shout "Plex!".',
    rules: [
      'Twelve holes with four counters each; every player owns a block of holes. Lift one of your holes and sow around the circle; if the last counter lands in an occupied hole, lift it and go on.',
      'Whenever a drop makes a hole hold exactly four, that set of four is taken: by the hole\'s owner during the lap, by you if it was your last counter (which ends your turn).',
      'When the eleventh set is taken, everyone races to click "Plex!" for the last one.',
      'Each set buys one hole next round. Win by holding a clear majority of the twelve sets; a player with none is out.',
    ],
  },
  duovallis: {
    blurb: 'Four rows, two colours that mix, and captures that exchange stones.',
    sides: ['White', 'Black'],
    rules: [
      'White owns the bottom row and the third row; Black owns the top and second rows. The grey holes at the ends of the middle rows are neutral and shared.',
      'Play a hole of your back row with at least two stones, at least half of them yours (your front row only if the back row has none). Foreign stones are sown first, always along your own circuit.',
      'If the last stone lands in an occupied hole that is at least half yours, sow on from there. If it lands in your empty hole, you capture the opponent hole next to it: your stones come home, and every three of theirs become one new stone of yours.',
      'A player who cannot move on his turn loses.',
    ],
  },
};


export { gameIds } from './catalog.js';

export function gameName(id) { return gameType(id)?.name ?? id; }

// How many seats a room of this game has: its `players` option (or that option's default),
// else the game's player count.
export function seatCount(game, options) {
  const type = gameType(game);
  const players = options?.players ?? type?.options.find((o) => o.name === 'players')?.default;
  if (players !== undefined) return Number(players);
  return type?.min_players ?? GAMES[game]?.sides?.length ?? 2;
}

// A name per seat: the side's name where the game has sides, else "Seat n".
export function seatLabels(game, options) {
  const sides = GAMES[game]?.sides;
  return Array.from({ length: seatCount(game, options) }, (_, i) => sides?.[i] ?? `Seat ${i + 1}`);
}
