// The games the server offers, read once from `GET /api/game-types`: their ids, names, player
// counts and host options (default, then choices or min/max, and a one-line help). This is the
// only source of option names, defaults, choices and help in the client; the room form and the
// room cards are drawn from it (options.js), never from a copy kept here.

let games = null;            // Map id -> {id, name, min_players, max_players, options: [{name, …}], …}

// Fetches the catalog once; later calls reuse it. Rejects when the server cannot be reached.
export async function loadCatalog() {
  if (games) return games;
  const response = await fetch('/api/game-types', { cache: 'no-store' });
  if (!response.ok) throw new Error(`the server answered ${response.status}`);
  const body = await response.json();
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

export const gameName = (id) => gameType(id)?.name ?? id;

// How many seats a room of this game has: its `players` option (or that option's default),
// else the game's player count.
export function seatCount(game, options) {
  const type = gameType(game);
  const players = options?.players ?? type?.options.find((o) => o.name === 'players')?.default;
  if (players !== undefined) return Number(players);
  return type?.min_players ?? 2;
}
