// The accounts, players, mutes and push APIs over HTTP (accounts contract), through http.js.
// Nothing here holds a secret except the guest token that a sign-up presents once.
import { call } from './http.js';

// The account of this browser's session cookie, or null when there is none. A server without
// accounts (404) counts as none; a server that cannot answer now throws, so that the page
// tries again instead of taking an account holder for a new visitor.
export async function currentAccount() {
  try { return await call('GET', '/api/account'); } catch (error) {
    if (error.status === 401 || error.status === 404) return null;
    throw error;
  }
}

// A guest claims an account (keeping their player id) when their token comes along.
export const signUp = (name, password, guestToken) => call('POST', '/api/accounts', { body: { name, password }, token: guestToken });
export const logIn = (name, password) => call('POST', '/api/session', { body: { name, password } });
export const logOut = () => call('DELETE', '/api/session');
export const logOutEverywhere = () => call('DELETE', '/api/sessions');
// The language the account's pages are shown in, in every browser it logs in from (issue 49).
export const setAccountLanguage = (code) => call('PUT', '/api/account/language', { body: { language: code } });
export const changePassword = (password, newPassword) => call('POST', '/api/account/password', { body: { password, new_password: newPassword } });
export const resetPassword = (code, newPassword) => call('POST', '/api/password-reset', { body: { code, new_password: newPassword } });

// A player's profile by account name or player id; a game's leaderboard.
export const playerProfile = (nameOrId) => call('GET', `/api/players/${encodeURIComponent(nameOrId)}`);
export const leaderboard = (game) => call('GET', `/api/leaderboard/${encodeURIComponent(game)}`);

// An account's muted players, kept by the server so they follow it to every browser; each call
// answers the whole list, {muted: [{player_id, name}]}.
export const accountMutes = () => call('GET', '/api/account/mutes');
export const mutePlayer = (player) => call('PUT', `/api/account/mutes/${encodeURIComponent(player.player_id)}`, { body: { name: player.name ?? '' } });
export const unmutePlayer = (playerId) => call('DELETE', `/api/account/mutes/${encodeURIComponent(playerId)}`);

// Web Push (protocol README "Web Push"): the server's VAPID key (404 when it sends no push), and
// this browser's subscription for the player of the session or of the guest `token`.
export const pushKey = () => call('GET', '/api/push/key');
export const subscribePush = (subscription, token) => call('POST', '/api/push/subscriptions', { body: subscription, token });
export const unsubscribePush = (endpoint, token) => call('DELETE', '/api/push/subscriptions', { body: { endpoint }, token });
