import { t } from './i18n/index.js';
// Ratings as players read them (accounts contract, "Ratings"): Glicko-2 numbers rounded, with a
// "?" while the rating is provisional (its deviation still 110 or more, so it may move a lot).
// Seats, lobby entries, profiles and the leaderboard all say them the same way.

// "1532", or "1500?" while provisional; '' when there is no rating (a guest, an older server).
export function ratingLabel(entry) {
  if (typeof entry?.rating !== 'number' || !Number.isFinite(entry.rating)) return '';
  return `${Math.round(entry.rating)}${entry.provisional ? '?' : ''}`;
}

// "±87": how far the rating may be off.
export function deviationLabel(deviation) {
  return typeof deviation === 'number' && Number.isFinite(deviation) ? `±${Math.round(deviation)}` : '';
}

// The words behind the "?" (a tooltip).
export function ratingTitle(entry) {
  return t(entry?.provisional ? 'ratings.title_provisional' : 'ratings.title', { rating: ratingLabel(entry) });
}
