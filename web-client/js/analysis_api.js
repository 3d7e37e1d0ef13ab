// Where a game shown in the history viewer comes from, and the requests the viewer makes of it
// (issue 32): a stored game by its id, or a text record imported by its key. Each source answers
// the same calls, so the viewer never asks which one it shows. A private game's players send
// their token, as for the game itself (api.js).
import { call, callText, guestToken as token } from './http.js';

export function storedGameSource(id) {
  const base = `/api/games/${encodeURIComponent(id)}`;
  return {
    analysis: () => call('GET', `${base}/analysis`, { token: token() }),
    analyse: () => call('POST', `${base}/analysis`, { token: token() }),
    positions: (from) => call('GET', `${base}/positions?from=${from}`, { token: token() }),
    whatif: (at, moves) => call('POST', '/api/whatif', { body: { game_id: id, at, moves }, token: token() }),
    recordHref: `${base}/record.txt`,
    fileName: `mancala-${id}.txt`,
    recordText: () => callText('GET', `${base}/record.txt`, { token: token() }),
  };
}

// An imported record: the server keeps nothing but its analysis, so each request sends the text
// again (POST /api/records answers with the key and the text as it reads it), its positions too.
export function importedSource({ key, text }) {
  const base = `/api/records/${encodeURIComponent(key)}`;
  return {
    analysis: () => call('GET', `${base}/analysis`),
    analyse: () => call('POST', `${base}/analysis`, { text }),
    positions: (from) => call('POST', `${base}/positions?from=${from}`, { text }),
    whatif: (at, moves) => call('POST', '/api/whatif', { body: { record: text, at, moves } }),
    recordHref: null,
    fileName: 'mancala-game.txt',
    recordText: async () => text,
  };
}

// A text record read by the server: {key, record, positions (their number), text}, or an
// ApiError whose message names the line and column of the first fault (or says it is too long).
export const importRecord = (text) => call('POST', '/api/records', { text });

// Saves `text` as a file, through a blob: a private game's record is fetched with its player's
// token, which a plain link cannot send, and an imported record has no address at all.
export function saveText(fileName, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: fileName });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
