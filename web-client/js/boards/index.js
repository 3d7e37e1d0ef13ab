// Which board draws which game.
import { createBoardView } from './view.js';
import { cupsBoard } from './cups.js';
import { coinDuelBoard } from './coin_duel.js';
import { oanquanBoard } from './oanquan.js';
import { njakaBoard } from './njaka.js';
import { duovallisBoard } from './duovallis.js';
import { gameName } from '../games.js';

export const BOARDS = {
  cups: cupsBoard,
  coin_duel: coinDuelBoard,
  oanquan: oanquanBoard,
  njaka: njakaBoard,
  duovallis: duovallisBoard,
};

// ctx: {game, options, viewerSeat (seat drawn at the bottom, or null), players (names by seat)}
export function createBoard(ctx) {
  const spec = BOARDS[ctx.game];
  if (!spec) throw new Error(`No board for ${ctx.game}`);
  const view = createBoardView(spec, { ...ctx, gameName: gameName(ctx.game) });
  view.spec = spec;
  return view;
}
