// Every request the page makes of the server's HTTP API goes through here, and every refusal
// comes back as one ApiError. The server answers each error in one shape (protocol README, "The
// HTTP API"): {"error": {"code", "message"}} with its status, and Retry-After when a limit or a
// full queue refused it. The session is an HttpOnly cookie the page cannot read: fetch sends it
// by itself with every same-origin request; a guest sends his token as a Bearer token.
import { identity } from './storage.js';

// A refusal: {status, code, message, retryAfterS}. `status` 0 and code `offline`: no answer.
export class ApiError extends Error {
  constructor(status, { code, message } = {}, retryAfter = null) {
    super(message || `The server answered ${status}.`);
    this.status = status;
    this.code = code ?? 'http_error';
    const wait = Number(retryAfter);
    this.retryAfterS = Number.isFinite(wait) && wait > 0 ? wait : null;
  }
}

// The guest's token of this browser, sent with the requests whose answers depend on who asks.
export const guestToken = () => identity.get()?.token;

async function send(method, path, { body, text, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (text !== undefined) headers['Content-Type'] = 'text/plain; charset=utf-8';
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: text ?? (body === undefined ? undefined : JSON.stringify(body)),
      credentials: 'same-origin', cache: 'no-store' });
  } catch {
    throw new ApiError(0, { code: 'offline', message: 'The server cannot be reached.' });
  }
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    throw new ApiError(response.status, data.error, response.headers.get('Retry-After'));
  }
  return response;
}

// A JSON answer. `body`: sent as JSON; `text`: sent as plain text (a game record); `token`: a
// guest's, as `Authorization: Bearer`.
export async function call(method, path, options = {}) {
  return (await send(method, path, options)).json();
}

// A text answer (a record as text).
export async function callText(method, path, options = {}) {
  return (await send(method, path, options)).text();
}
