// The history API over HTTP (protocol README "History API"). Private games answer only their
// players, who send their token.
import { call, guestToken } from './http.js';
import { storedGameSource } from './analysis_api.js';
import { createPositions } from './positions.js';

// A JSON answer of the history API; a private game's player sends his token.
export const getJson = (path, token = guestToken()) => call('GET', path, { token });

// A stored game: its record (turns with their events), its source (analysis_api.js) and its
// states, the first page with the record and the others as they are asked for (positions.js):
// /positions answers a page at a time, never every state.
export async function fetchGame(id) {
  const source = storedGameSource(id);
  const [record, first] = await Promise.all([getJson(`/api/games/${encodeURIComponent(id)}`), source.positions(0)]);
  return { record, source, positions: createPositions(source, first) };
}
