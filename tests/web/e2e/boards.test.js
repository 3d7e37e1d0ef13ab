// Every board drawn from fixture states, on a laptop and on a phone, without a server: checks
// the numbers next to the piles and the highlighted choices, and saves screenshots to look at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, screenshot, repo } from '../lib/harness.js';
import { serveDirectory } from '../lib/static_server.js';
import { FIXTURES } from '../fixtures/states.js';

let server, browser;
before(async () => { server = await serveDirectory(repo); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.close(); });

async function open(name, viewport = { width: 1100, height: 800 }) {
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}/tests/web/fixtures/boards.html?fixture=${name}`);
  await page.waitForSelector('body[data-ready=yes]');
  assert.deepEqual(errors, []);
  return page;
}

for (const name of Object.keys(FIXTURES)) {
  test(`board ${name} draws its fixture`, async () => {
    const page = await open(name);
    await screenshot(page, `fixture-${name}`, '#wrap');
    const clickable = await page.$$eval('[data-testid=board] [data-token]', (nodes) => nodes.map((n) => n.dataset.token));
    const { state, selectTokens } = FIXTURES[name];
    for (const token of clickable) assert.ok([...state.legal, ...(selectTokens ?? [])].includes(token), token);
    await page.close();
  });
}

test('cups counts match the position vector', async () => {
  const page = await open('cups');
  // Bo (North, seat 1) views the board: his cups 1..4 hold 2 2 0 1, his pot 2, reserve 33.
  assert.equal(await page.textContent('[data-testid=count-s1c1]'), '2');
  assert.equal(await page.textContent('[data-testid=count-s1c4]'), '1');
  assert.equal(await page.textContent('[data-testid=count-s1pot]'), '2');
  assert.equal(await page.textContent('[data-testid=count-s1res]'), '33');
  assert.equal(await page.textContent('[data-testid=count-s0pot]'), '3');
  assert.equal(await page.getAttribute('[data-testid=place-s1c4]', 'data-token'), 'c4');
  await page.close();
});

test('coin duel shows the coins in hand while a turn is pending', async () => {
  const page = await open('coin_duel_hand');
  assert.equal(await page.textContent('[data-testid=count-s0hand]'), '1 in hand');
  assert.equal(await page.textContent('[data-testid=count-s0c4]'), '1');
  await page.close();
});

test('duovallis shows white and black stones separately', async () => {
  const page = await open('duovallis_mixed');
  assert.equal(await page.textContent('[data-testid=count-d6-w]'), '1');
  assert.equal(await page.textContent('[data-testid=count-d6-b]'), '1');
  assert.equal(await page.textContent('[data-testid=count-d18-b]'), '5');
  await page.close();
});

test('boards fit a phone screen', async () => {
  for (const name of ['cups', 'coin_duel', 'oanquan', 'njaka', 'duovallis']) {
    const page = await open(name, { width: 390, height: 844 });
    const box = await page.locator('[data-testid=board]').boundingBox();
    assert.ok(box.width <= 390, `${name} is ${box.width}px wide`);
    await screenshot(page, `phone-${name}`, '#wrap');
    await page.close();
  }
});
