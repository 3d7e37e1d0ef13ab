// The games the client can show, by the id the server gives them: each game's module says what
// the client knows of it beyond the server's catalog (catalog.js): its board, the names of its
// sides, its words for turns and scores, its rules, and the hooks of its panels and actions.
// Nothing outside this folder names a game.
import { createBoardView } from './view.js';
import { t } from '../i18n/index.js';
import { cups } from './cups.js';
import { coinDuel } from './coin_duel.js';
import { oanquan } from './oanquan.js';
import { njaka } from './njaka.js';
import { duovallis } from './duovallis.js';
import { gameName, gameType, seatCount } from '../catalog.js';

export const GAMES = {
  cups,
  coin_duel: coinDuel,
  oanquan,
  njaka,
  duovallis,
};

// A name per seat: the side's name where the game has sides, else "Seat n".
export function seatLabels(game, options) {
  const sides = GAMES[game]?.sides;
  return Array.from({ length: seatCount(game, options) }, (_, i) => sides?.[i] ?? t('lobby.seat', { n: i + 1 }));
}

// ctx: {game, options, viewerSeat (seat drawn at the bottom, or null), players (names by seat),
// layout (the board's fixed geometry; by default the one /api/game-types serves, for Duovallis)}
export function createBoard(ctx) {
  const spec = GAMES[ctx.game]?.board;
  if (!spec) throw new Error(`No board for ${ctx.game}`);
  const layout = ctx.layout ?? gameType(ctx.game)?.layout ?? null;
  const view = createBoardView(spec, { ...ctx, layout, gameName: gameName(ctx.game), seatLabels: seatLabels(ctx.game, ctx.options) });
  view.spec = spec;
  return view;
}

// The places a whole move (its tokens: "c3 R Q", "9 cw") starts from, to point the engine's best
// move out on `board` in `state`: the game's `origin` hook, else the place its first decision is
// clicked at, else what the guide previews for it (the rest of a turn begun: a lap's cups).
export function movePlaces(board, move, state) {
  const ctx = { state, selected: null };
  const first = move.split(' ')[0];
  const origin = board.spec.origin?.(move, ctx) ?? [];
  if (origin.length) return origin;
  const place = board.spec.target?.(first, ctx);
  return place ? [place] : board.spec.preview?.(first, ctx) ?? [];
}
