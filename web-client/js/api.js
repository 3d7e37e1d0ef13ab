// The history API over HTTP (protocol README "History API"). Private games answer only their
// players, who send their token.
import { identity } from './storage.js';
import { storedGameSource } from './analysis_api.js';
import { createPositions } from './positions.js';

export async function getJson(path, token = identity.get()?.token) {
  const response = await fetch(path, { headers: token ? { Authorization: `Bearer ${token}` } : {}, cache: 'no-store' });
  if (!response.ok) {
    const error = new Error(response.status === 404 ? 'That game does not exist (or is private).' : `The server answered ${response.status}.`);
    error.status = response.status;
    throw error;
  }
  return response.json();
}

// A stored game: its record (turns with their events), its source (analysis_api.js) and its
// states, the first page with the record and the others as they are asked for (positions.js):
// /positions answers a page at a time, never every state.
export async function fetchGame(id) {
  const source = storedGameSource(id);
  const [record, first] = await Promise.all([getJson(`/api/games/${encodeURIComponent(id)}`), source.positions(0)]);
  return { record, source, positions: createPositions(source, first) };
}
