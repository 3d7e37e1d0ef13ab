// Web Push's opt-in (issue 33) in Chromium: the button shows only when the server has a VAPID
// key; nothing asks for the notification permission before its click; the click registers the
// service worker /sw.js (scope /) and gives the server the subscription, and a second click
// takes it back. Headless Chromium has no push service to subscribe with (its
// pushManager.subscribe fails), so this test puts a stand-in for pushManager.subscribe in the
// page that answers like a browser would, with a key pair made by WebCrypto; the delivery
// itself is tested against the server in tests/server/push_test.cpp.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, launchBrowser, newPlayer, screenshot, repo } from '../lib/harness.js';

const serverBinary = process.env.MANCALA_SERVER ?? path.join(repo, 'build', 'server', 'mancala-server');
let withKey, withoutKey, browser, dir;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mancala-push-'));
  const key = path.join(dir, 'vapid.pem');
  execFileSync(serverBinary, ['--generate-vapid-key', key]);
  withKey = await startServer({ args: ['--vapid-key', key, '--vapid-subject', 'mailto:ops@example.org',
    '--test-push-http-loopback', '--log-level', 'info'] });
  withoutKey = await startServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await withKey?.stop();
  await withoutKey?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

// What a browser's push service would hand out: an endpoint (here the server's own loopback,
// which --test-push-http-loopback accepts) and the browser's P-256 key and auth secret.
function standInPushService() {
  const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
  PushManager.prototype.subscribe = async function subscribe(options) {
    if (!options?.userVisibleOnly || !(options.applicationServerKey?.byteLength === 65)) throw new Error('bad options');
    window.subscribedWithKey = b64url(options.applicationServerKey);
    const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
    const p256dh = b64url(await crypto.subtle.exportKey('raw', pair.publicKey));
    const subscription = {
      endpoint: 'http://127.0.0.1:9/push/stand-in',
      toJSON: () => ({ endpoint: subscription.endpoint, expirationTime: null, keys: { p256dh, auth: b64url(crypto.getRandomValues(new Uint8Array(16))) } }),
      unsubscribe: async () => { window.standIn = null; return true; },
    };
    window.standIn = subscription;
    return subscription;
  };
  PushManager.prototype.getSubscription = async function getSubscription() { return window.standIn ?? null; };
}

describe('web push', () => {
  it('has no button when the server sends no push', async () => {
    const page = await newPlayer(browser, withoutKey.url, 'Ada');
    await page.locator('[data-testid=push][data-state]').waitFor({ state: 'attached' });
    assert.equal(await page.getByTestId('push').getAttribute('data-state'), 'off');
    assert.equal(await page.getByTestId('push').isVisible(), false);
  });

  it('asks nothing before the click, then subscribes and unsubscribes', async () => {
    const page = await newPlayer(browser, withKey.url, 'Bea');
    const button = page.getByTestId('push');
    await button.waitFor({ state: 'visible' });
    assert.equal(await button.textContent(), 'Tell me when it is my move');
    assert.equal(await page.evaluate(() => Notification.permission), 'default', 'nothing asked before the click');
    assert.equal(await page.evaluate(() => navigator.serviceWorker.getRegistration('/').then((r) => r ?? null)), null);
    await screenshot(page, 'push-button');

    await page.context().grantPermissions(['notifications'], { origin: withKey.url });
    await page.evaluate(standInPushService);
    await button.click();
    await page.waitForFunction(() => document.querySelector('[data-testid=push]').getAttribute('aria-pressed') === 'true');
    assert.equal(await button.textContent(), 'Stop move alerts');
    const key = (await (await fetch(`${withKey.url}/api/push/key`)).json()).key;
    assert.equal(await page.evaluate(() => window.subscribedWithKey), key, 'subscribed with the server key');
    const scope = await page.evaluate(() => navigator.serviceWorker.getRegistration('/').then((r) => r?.scope));
    assert.equal(scope, `${withKey.url}/`);
    assert.match(withKey.log(), /"push_subscribed"/, 'the server stored the subscription');
    await screenshot(page, 'push-subscribed');

    await button.click();
    await page.waitForFunction(() => document.querySelector('[data-testid=push]').getAttribute('aria-pressed') === 'false');
    assert.match(withKey.log(), /"push_unsubscribed"/, 'the server deleted it');
    assert.deepEqual(page.errors, []);
  });
});
