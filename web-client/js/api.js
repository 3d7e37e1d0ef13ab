// The history API over HTTP (protocol README "History API"). Private games answer only their
// players, who send their token.
import { identity } from './storage.js';

export async function getJson(path, token = identity.get()?.token) {
  const response = await fetch(path, { headers: token ? { Authorization: `Bearer ${token}` } : {}, cache: 'no-store' });
  if (!response.ok) {
    const error = new Error(response.status === 404 ? 'That game does not exist (or is private).' : `The server answered ${response.status}.`);
    error.status = response.status;
    throw error;
  }
  return response.json();
}

// A stored game: its record (turns with their events) and the state at every version.
export async function fetchGame(id, token = identity.get()?.token) {
  const path = `/api/games/${encodeURIComponent(id)}`;
  const [record, { states }] = await Promise.all([getJson(path, token), getJson(`${path}/positions`, token)]);
  return { record, states };
}
