// What a rated game did to each account's rating (issue 49): "Cleo: rating 1500? → 1662? (+162)",
// read from the players' rating histories once the game is over (the room message carries no
// ratings after the result), with a sentence for the "?". The histories are asked once per room.
import { h } from './dom.js';
import { t, formatNumber } from './i18n/index.js';
import { playerProfile } from './account_api.js';
import { ratingLabel } from './ratings.js';
import { isAccount } from './players.js';

// Every account starts at 1500 with deviation 350 (accounts contract, "Ratings"); a rating is
// provisional while its deviation is 110 or more.
const START = { rating: 1500, deviation: 350 };
const PROVISIONAL_FROM = 110;
const asRating = (point) => ({ rating: point.rating, provisional: point.deviation >= PROVISIONAL_FROM });

// {before, after} of one player's history in one game, or null when it has no point for it.
export function changeIn(history, gameId) {
  const points = Array.isArray(history) ? history : [];
  const at = points.findIndex((point) => point?.game_id === gameId);
  if (at < 0) return null;
  return { before: asRating(points[at - 1] ?? START), after: asRating(points[at]) };
}

const signed = (n) => (n > 0 ? `+${formatNumber(n)}` : n < 0 ? `−${formatNumber(-n)}` : '±0');

export function changeLine(name, { before, after }) {
  const delta = Math.round(after.rating) - Math.round(before.rating);
  return t('result.rating_change', { name, before: ratingLabel(before), after: ratingLabel(after), change: signed(delta) });
}

const asked = new Map();       // room id -> lines (null while asked)

// The lines for a finished rated room, or [] until known: `redraw()` is called once they are.
export function ratingChanges(room, names, redraw) {
  if (!room.rated || room.status !== 'finished') return [];
  if (!asked.has(room.id)) {
    asked.set(room.id, null);
    Promise.all(room.seats.map(async (seat, i) => {
      if (!isAccount(seat) || !seat.player_id) return null;
      const profile = await playerProfile(seat.player_id).catch(() => null);
      const change = changeIn(profile?.rating_history?.[room.game], room.id);
      return change ? changeLine(names[i], change) : null;
    })).then((lines) => { asked.set(room.id, lines.filter(Boolean)); redraw(); });
  }
  const lines = asked.get(room.id);
  if (!lines?.length) return [];
  return [h('ul', { class: 'rating-changes plain', dataset: { testid: 'rating-changes' } }, lines.map((line) => h('li', {}, line))),
    h('p', { class: 'muted rating-note' }, t('result.rating_note'))];
}
