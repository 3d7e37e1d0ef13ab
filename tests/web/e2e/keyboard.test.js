// Keyboard play and screen-reader names (issue 17): every cup, pot and tray of the board is a
// button the Tab key reaches, named with its owner and what it holds ("Kim's cup 2: 3 counters",
// "hole 4: 4 white, 0 black"); the playable ones say so, and Enter or Space plays them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, roomInfo } from '../lib/harness.js';
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
