// The games the server offers, read once from `GET /api/game-types`: their ids, names, player
// counts, host options (default, then choices or min/max, and a one-line help), and what each
// has beyond moves: special actions and claim windows. This is the only source of these in the
// client; the room form, the room cards and the room's actions are drawn from it, never from a
// copy kept here.

import { call } from './http.js';
import { t } from './i18n/index.js';

let games = null;            // Map id -> {id, name, min_players, max_players, options: [{name, …}], …}

// Fetches the catalog once; later calls reuse it. Rejects when the server cannot be reached.
export async function loadCatalog() {
  if (games) return games;
  return useCatalog(await call('GET', '/api/game-types'));
}

// Takes the body of `/api/game-types` as the catalog (loadCatalog; tests without a server).
export function useCatalog(body) {
  games = new Map(body.games.map((game) => [game.id, {
    ...game,
    // The API's object keeps the engine's order, which is the order the form shows.
    options: Object.entries(game.options ?? {}).map(([name, spec]) => ({ name, ...spec })),
  }]));
  return games;
}

export const catalogLoaded = () => games !== null;

// Game ids in the server's order ([] before the catalog is loaded).
export const gameIds = () => (games ? [...games.keys()] : []);

export const gameType = (id) => games?.get(id) ?? null;

// A game's name in the player's language (the catalogue's game_name.<id>); a game the
// catalogues do not know yet keeps the server's name.
export function gameName(id) {
  const word = t(`game_name.${id}`);
  return word === `game_name.${id}` ? gameType(id)?.name ?? id : word;
}

// How many seats a room of this game has: its `players` option (or that option's default),
// else the game's player count.
export function seatCount(game, options) {
  const type = gameType(game);
  const players = options?.players ?? type?.options.find((o) => o.name === 'players')?.default;
  if (players !== undefined) return Number(players);
  return type?.min_players ?? 2;
}

// The game's special actions ([{name, ends_turn}]) and the names of its claim windows.
export const specialActions = (game) => gameType(game)?.special_actions ?? [];
export const claimWindows = (game) => gameType(game)?.claim_windows ?? [];

// Every claim window any game may open: the messages (`<name>_open`) a room listens for.
export const allClaimWindows = () => [...new Set(gameIds().flatMap(claimWindows))];
