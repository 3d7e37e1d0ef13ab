// How a person is named in the lobby, the rooms, the history viewer and the header (accounts
// contract): an account's name links to its profile and is followed by its rating for the game
// at hand ("1500?" while provisional); a guest's name has a small "guest" mark. Computers, and
// seats from a server without accounts (no `account` field), are names alone.
import { h } from './dom.js';
import { t } from './i18n/index.js';
import { ratingLabel, ratingTitle } from './ratings.js';

const isComputer = (player) => Number.isInteger(player?.bot) && player.bot > 0;
export const isAccount = (player) => player?.account === true && !isComputer(player);
const isGuest = (player) => player?.account === false && !isComputer(player) && Boolean(player.player_id);

// An account's profile is found by its name (names of accounts are made to fit addresses), a
// guest's by its player id (guests' names are not unique).
export function profileHref(player) {
  if (isAccount(player) && player.name) return `#/player/${encodeURIComponent(player.name)}`;
  if (player?.player_id && !isComputer(player)) return `#/player/${encodeURIComponent(player.player_id)}`;
  return null;
}

// The name, as a link to the profile for an account. `text`: the name as the place shows it.
export function nameLink(player, text = player?.name ?? '', props = {}) {
  return isAccount(player) ? h('a', { class: 'player-link', href: profileHref(player), ...props }, text) : text;
}

// What follows a name: the account's rating, or the guest mark. `testid` names the rating.
export function playerMarks(player, { testid } = {}) {
  if (isGuest(player)) return [guestMark()];
  const label = isAccount(player) ? ratingLabel(player) : '';
  return label ? [h('span', { class: 'rating', title: ratingTitle(player), dataset: testid ? { testid } : undefined }, label)] : [];
}

// Beside an account's name in a seat and a chat line: only this player has this name, and no
// guest's can pass for it (the server refuses look-alikes).
export const accountMark = (testid) => h('span', { class: 'account-mark', role: 'img', 'aria-label': t('players.account'),
  title: t('players.account_title'), dataset: testid ? { testid } : undefined }, '\u2713');

export const guestMark = () => h('span', { class: 'tag guest', title: t('players.guest_title') }, t('players.guest'));

// A rated room or game: its result moves the players' ratings.
export const ratedBadge = (testid) => h('span', { class: 'tag rated', title: t('players.rated_title'),
  dataset: testid ? { testid } : undefined }, t('players.rated'));
