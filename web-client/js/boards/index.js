// Which board draws which game.
import { createBoardView } from './view.js';
import { cupsBoard } from './cups.js';
import { coinDuelBoard } from './coin_duel.js';
import { oanquanBoard } from './oanquan.js';
import { njakaBoard } from './njaka.js';
import { duovallisBoard } from './duovallis.js';
import { gameName } from '../games.js';
import { gameType } from '../catalog.js';

export const BOARDS = {
  cups: cupsBoard,
  coin_duel: coinDuelBoard,
  oanquan: oanquanBoard,
  njaka: njakaBoard,
  duovallis: duovallisBoard,
};

// ctx: {game, options, viewerSeat (seat drawn at the bottom, or null), players (names by seat),
// layout (the board's fixed geometry; by default the one /api/game-types serves, for Duovallis)}
export function createBoard(ctx) {
  const spec = BOARDS[ctx.game];
  if (!spec) throw new Error(`No board for ${ctx.game}`);
  const layout = ctx.layout ?? gameType(ctx.game)?.layout ?? null;
  const view = createBoardView(spec, { ...ctx, layout, gameName: gameName(ctx.game) });
  view.spec = spec;
  return view;
}
