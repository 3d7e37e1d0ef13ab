// http.js: every API answer that is an error becomes one ApiError, read from the one shape the
// server answers ({"error": {"code", "message"}}, Retry-After), with fetch stubbed.
import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, call, callText } from '../../../web-client/js/http.js';

const realFetch = globalThis.fetch;
afterEach(() => { globalThis.fetch = realFetch; });

const answer = (status, body, headers = {}) => {
  globalThis.fetch = async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers });
};

describe('http.js', () => {
  it('reads code, message and Retry-After from a refusal', async () => {
    answer(429, { error: { code: 'rate_limited', message: 'too many record imports; try again in 37 s' } }, { 'Retry-After': '37' });
    const error = await call('POST', '/api/records', { text: 'x' }).catch((e) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 429);
    assert.equal(error.code, 'rate_limited');
    assert.equal(error.message, 'too many record imports; try again in 37 s');
    assert.equal(error.retryAfterS, 37);
  });

  it('says the status when the body is not the error shape', async () => {
    answer(502, '<html>bad gateway</html>');
    const error = await callText('GET', '/api/games/x/record.txt').catch((e) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, 'http_error');
    assert.equal(error.message, 'The server answered 502.');
    assert.equal(error.retryAfterS, null);
  });

  it('is offline when nothing answers', async () => {
    globalThis.fetch = async () => { throw new TypeError('failed to fetch'); };
    const error = await call('GET', '/api/account').catch((e) => e);
    assert.equal(error.status, 0);
    assert.equal(error.code, 'offline');
  });

  it('answers JSON and text', async () => {
    answer(200, { games: [] });
    assert.deepEqual(await call('GET', '/api/games'), { games: [] });
    answer(200, '[Game "cups"]');
    assert.equal(await callText('GET', '/api/games/x/record.txt'), '[Game "cups"]');
  });
});
