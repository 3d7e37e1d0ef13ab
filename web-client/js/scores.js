// One number (and its unit) per seat, as the seat list and the result show it, read by the game's
// module from the position vector (stable across engine versions); `by` names what a winning
// margin counts, where the score decides the game.
import { GAMES } from './boards/index.js';

export function seatScore(game, options, state, seat) {
  if (!state) return null;
  return GAMES[game]?.score(state, seat, options) ?? null;
}
