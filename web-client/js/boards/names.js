// Seat names as the boards label them: the player's name when seated, else the side's name.
import { seatLabels } from '../games.js';

export function seatNames(ctx) {
  const labels = seatLabels(ctx.game, ctx.options);
  return labels.map((label, seat) => ctx.players?.[seat] || label);
}
