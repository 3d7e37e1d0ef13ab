// Keyboard play and screen-reader names (issue 17): every cup, pot and tray of the board is a
// button the Tab key reaches, named with its owner and what it holds ("Kim's cup 2: 3 counters",
// "hole 4: 4 white, 0 black"); the playable ones say so, and Enter or Space plays them. Arrow
// keys move between the playable places in board order, as the board is drawn for the viewer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, roomInfo, repo } from '../lib/harness.js';
import { serveDirectory } from '../lib/static_server.js';
import { playComputer, waitForChoices } from '../lib/computer.js';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

// Presses Tab until a playable place has the focus; returns its token.
async function tabToPlayable(page) {
  for (let presses = 0; presses < 80; presses += 1) {
    await page.keyboard.press('Tab');
    const token = await page.evaluate(() => document.activeElement?.closest?.('[data-testid=board] [data-token]')?.dataset.token);
    if (token) return token;
  }
  throw new Error('no playable place reached with Tab');
}

test('the board is played with the keyboard and read out by name and count', async () => {
  const kim = await newPlayer(browser, server.url, 'Kim');
  // Cups: names with owners and plain counts.
  await playComputer(kim, 'cups', { level: 1, starter: 'you' });
  await waitForChoices(kim);
  const places = await kim.$$eval('[data-testid=board] .place', (nodes) => nodes.map((node) => ({
    id: node.dataset.place, role: node.getAttribute('role'), tabindex: node.getAttribute('tabindex'),
    label: node.getAttribute('aria-label'), count: node.querySelector('.count')?.textContent ?? '',
    playable: Boolean(node.dataset.token) })));
  assert.equal(places.length, 12, 'four cups, a pot and a reserve a side');
  for (const place of places) {
    assert.equal(place.role, 'button', `${place.id} is a button`);
    assert.equal(place.tabindex, '0', `${place.id} is reached with Tab`);
    const owner = place.id.startsWith('s0') ? 'Kim' : 'Computer, level 1';
    const what = place.count === '' ? 'empty' : `${place.count} counter${place.count === '1' ? '' : 's'}`;
    assert.match(place.label, new RegExp(`^${owner}'s (cup \\d|pot|reserve): ${what}${place.playable ? ', playable' : ''}$`), place.label);
  }

  // Duovallis, whose holes are played by clicking them: played here with the keyboard only.
  await playComputer(kim, 'duovallis', { level: 1, starter: 'you' });
  await waitForChoices(kim);
  const labels = await kim.$$eval('[data-testid=board] .place', (nodes) => nodes.map((node) => node.getAttribute('aria-label')));
  assert.ok(labels.includes('hole 0: 4 white, 0 black, playable'), labels.join(' | '));
  assert.ok(labels.includes('hole 7: 0 white, 4 black'), labels.join(' | '));
  assert.ok(labels.includes("Kim's carry tray: empty"), labels.join(' | '));
  for (const key of ['Enter', ' ']) {
    await waitForChoices(kim);
    const before = Number((await roomInfo(kim)).version);
    await tabToPlayable(kim);
    await kim.keyboard.press(key);
    await kim.waitForFunction((v) => Number(document.querySelector('[data-testid=room]').dataset.version) > v, before);
  }
  assert.deepEqual(kim.errors, []);
});

const focusedPlace = (page) => page.evaluate(() => document.activeElement?.closest?.('[data-place]')?.dataset.place ?? null);
const playablePlaces = (page) => page.$$eval('[data-testid=board] [data-place][data-token]', (nodes) => nodes.map((node) => node.dataset.place));
const scrollTop = (page) => page.evaluate(() => document.scrollingElement.scrollTop);

// Presses `key` once per expected place and checks where the focus lands each time.
async function expectArrowWalk(page, key, expected) {
  for (const id of expected) {
    await page.keyboard.press(key);
    assert.equal(await focusedPlace(page), id, `${key} moves the focus to ${id}`);
  }
}

test('arrow keys move between the playable places in board order, however the board is drawn', async () => {
  // Duovallis on a laptop: White's first row, holes 0 to 5 from left to right, is playable.
  const kim = await newPlayer(browser, server.url, 'Arrow Kim');
  await playComputer(kim, 'duovallis', { level: 1, starter: 'you' });
  await waitForChoices(kim);
  assert.deepEqual((await playablePlaces(kim)).sort(), ['d0', 'd1', 'd2', 'd3', 'd4', 'd5']);
  await kim.locator('[data-place=d0]').focus();
  const scrolled = await scrollTop(kim);
  await expectArrowWalk(kim, 'ArrowRight', ['d1', 'd2', 'd3', 'd4', 'd5']);
  await expectArrowWalk(kim, 'ArrowRight', ['d5']);  // nothing further right: the focus stays
  await expectArrowWalk(kim, 'ArrowUp', ['d5']);     // nothing playable above
  await expectArrowWalk(kim, 'ArrowLeft', ['d4', 'd3']);
  assert.equal(await scrollTop(kim), scrolled, 'the arrows do not scroll the page');
  const before = Number((await roomInfo(kim)).version);
  await kim.keyboard.press('Enter');
  await kim.waitForFunction((v) => Number(document.querySelector('[data-testid=room]').dataset.version) > v, before);
  await kim.getByTestId('move-list').filter({ hasText: 'Arrow Kim played hole 3' }).waitFor({ timeout: 5000 });
  assert.deepEqual(kim.errors, []);
});

// The rows boards turned for their viewer (North at the bottom in Cups; on a phone both stand
// upright, the viewer's row down the left, cup 1 at the top): the arrow that follows the row on
// screen walks the cups in board order, the opposite arrow walks back.
test('the arrows follow the rows as each viewer sees them, on a laptop and on a phone', async () => {
  const files = await serveDirectory(repo);
  try {
    const cases = [
      { fixture: 'cups', tokens: ['c1', 'c2', 'c3', 'c4'], places: ['s1c1', 's1c2', 's1c3', 's1c4'] },
      { fixture: 'coin_duel', tokens: ['c3', 'c5', 'c8'], places: ['s0c3', 's0c5', 's0c8'] },
    ];
    for (const [viewport, forward, back] of [[{ width: 1280, height: 860 }, 'ArrowRight', 'ArrowLeft'],
      [{ width: 390, height: 844 }, 'ArrowDown', 'ArrowUp']]) {
      for (const { fixture, tokens, places } of cases) {
        const page = await browser.newPage({ viewport });
        await page.goto(`${files.url}/tests/web/fixtures/boards.html?fixture=${fixture}`);
        await page.waitForSelector('body[data-ready=yes]');
        await page.evaluate((offered) => window.board.setChoices(offered, () => {}), tokens);
        await page.locator(`[data-place=${places[0]}]`).focus();
        await expectArrowWalk(page, forward, places.slice(1));
        await expectArrowWalk(page, back, places.slice(0, -1).reverse());
        await page.close();
      }
    }
  } finally {
    files.close();
  }
});
