// What the browser tab says while the player looks elsewhere (issue 33): its title becomes
// "● Your move — Mancala Online" and the favicon gets a dot when it becomes their move, when a
// game starts or ends, or when a chat message arrives while the tab is hidden; back to normal
// once the tab is seen again. Pure (tab_notice.js puts it on the page), so Node tests call it.
import { isMyMove } from './room_state.js';

export const BASE_TITLE = 'Mancala Online';

const WORDS = { move: 'Your move', start: 'The game starts', end: 'Game over', chat: 'New message' };

// What happened in the room between two of its states, in the order said: the game started or
// ended, then whether it became this player's move (so a game that starts on their move says so).
// The page's first room message tells nothing: the player has just opened it.
export function roomEvents(before, after) {
  if (!before.room || !after.room || before.room.id !== after.room.id) return [];
  const events = [];
  if (before.room.status !== 'playing' && after.room.status === 'playing') events.push('start');
  if (before.room.status === 'playing' && after.room.status === 'finished') events.push('end');
  if (!isMyMove(before) && isMyMove(after)) events.push('move');
  return events;
}

// The reason the tab shows after `event`, from `current` (null: nothing to tell). Only while the
// tab is hidden; a chat message does not hide a move, a start or an end not yet seen, and
// `seen` (the tab is visible again) clears it.
export function attend(current, event, hidden) {
  if (event === 'seen') return null;
  if (!hidden || !WORDS[event]) return current;
  if (event === 'chat' && current && current !== 'chat') return current;
  return event;
}

export const titleFor = (reason, base = BASE_TITLE) => (reason ? `● ${WORDS[reason]} — ${base}` : base);

// The site's icon (index.html), with a red dot in its corner when there is something to see.
const ICON = "<circle cx='8' cy='8' r='7' fill='%23a0672f'/><circle cx='8' cy='8' r='3' fill='%23f3e3c3'/>";
const DOT = "<circle cx='12.5' cy='3.5' r='3.5' fill='%23d3263a' stroke='white' stroke-width='1'/>";
export const faviconFor = (reason) => `data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E${
  ICON.replaceAll('<', '%3C').replaceAll('>', '%3E')}${reason ? DOT.replaceAll('<', '%3C').replaceAll('>', '%3E') : ''}%3C/svg%3E`;
