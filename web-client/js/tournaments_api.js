// The tournaments' HTTP API (protocol README "Tournaments", issue 48), through http.js, and the
// little the pages share about a tournament: its refusals in the player's words, its kind and
// clock in words, and the local date and time of a form turned into the UTC time the API takes.
import { call, guestToken } from './http.js';
import { t } from './i18n/index.js';
import { describeError } from './errors.js';
import { timeControlText } from './clock.js';

const path = (id = '') => `/api/tournaments${id ? `/${encodeURIComponent(id)}` : ''}`;

// Reading is open to anyone; creating needs an account's session cookie; joining and leaving
// are a guest's (by Bearer token) or an account's (by the cookie, when no token is kept).
export const listTournaments = (status) => call('GET', `${path()}?status=${encodeURIComponent(status)}`);
export const getTournament = (id) => call('GET', path(id));
export const createTournament = (body) => call('POST', path(), { body });
export const joinTournament = (id) => call('POST', `${path(id)}/players`, { token: guestToken() });
export const leaveTournament = (id) => call('DELETE', `${path(id)}/players`, { token: guestToken() });

// The codes the tournaments' API adds to the shared ones (errors.js).
const OWN_CODES = new Set(['tournament_closed', 'not_logged_in', 'tournaments_off', 'not_allowed', 'not_found']);

export function describeTournamentError(error) {
  if (OWN_CODES.has(error?.code)) return t(`tournaments.error_${error.code}`);
  // A bad request names the field the server did not take: its own words help more than ours.
  if (error?.code === 'bad_request' && error.message) return t('tournaments.error_bad_request', { why: error.message });
  return describeError(error);
}

export const kindName = (kind) => t(kind === 'round_robin' ? 'tournaments.kind_round_robin' : 'tournaments.kind_arena');
export const clockWords = (clock) => (clock ? timeControlText(clock) : t('clock.none'));

// A score in the language's way: a round robin's draw gives ½.
export function scoreText(score) {
  const whole = Math.floor(score);
  const half = score - whole >= 0.5;
  if (!half) return String(whole);
  return whole ? `${whole}½` : '½';
}

// "2026-12-04T19:30" (a datetime-local field, the viewer's own time) -> "2026-12-04T18:30:00Z".
export function localToUtc(local) {
  const at = new Date(local);   // a date-time without a zone is read as local time
  return Number.isNaN(at.getTime()) ? null : `${at.toISOString().slice(0, 19)}Z`;
}

// The value a datetime-local field shows for `at` (ms), in local time, to the second.
export function utcToLocalField(at) {
  const date = new Date(at);
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

// "1:05:09" / "4:07": how long until `at`, never below zero.
export function countdownText(at, now = Date.now()) {
  const seconds = Math.max(0, Math.ceil((Date.parse(at) - now) / 1000));
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const pad = (n) => String(n).padStart(2, '0');
  const clock = hours || days ? `${hours}:${pad(minutes)}:${pad(seconds % 60)}` : `${minutes}:${pad(seconds % 60)}`;
  return days ? t('tournaments.days_and', { count: days, clock }) : clock;
}
