// Coin Duel's rounds as issue 17 asks: a panel with the round's winning coin, where both winning
// coins are and the pots' values; after a reserve play, how many coins are left to place; and when
// a round ends, an announcement and a row of the rounds table with the running total.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, screenshot } from '../lib/harness.js';
import { playComputer, waitForChoices } from '../lib/computer.js';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const text = (page, testid) => page.getByTestId(testid).textContent();

test('the round panel, the coins left to place and the end of a round', async () => {
  const ada = await newPlayer(browser, server.url, 'Ada');
  await playComputer(ada, 'coin_duel', { level: 1, starter: 'you' });
  await waitForChoices(ada);
  assert.match(await text(ada, 'coin-panel'), /^Round 1 of 4/);
  assert.match(await text(ada, 'winning-coin'), /^Winning coin: .*Penny, worth 10 in a pot$/);
  assert.equal(await text(ada, 'winning-places'), 'The two pennies: Ada\'s reserve and Computer, level 1\'s reserve.');
  assert.match(await text(ada, 'pot-values'), /Ada 0 · Computer, level 1 0/);

  // Three coins from the reserve: the prompt counts down the coins still to place.
  await ada.getByTestId('choice-r3').click();
  await ada.waitForFunction(() => /3 of the 3 coins from your reserve still to place/.test(document.querySelector('[data-testid=prompt]').textContent));
  await ada.getByTestId('choice-Q').click();
  await ada.waitForFunction(() => /2 of the 3 coins from your reserve still to place/.test(document.querySelector('[data-testid=prompt]').textContent));
  await screenshot(ada, 'coin-panel-reserve');
  await ada.getByTestId('choice-P').click();
  await ada.waitForFunction(() => /1 of the 3 coins/.test(document.querySelector('[data-testid=prompt]').textContent));
  await ada.getByTestId('choice-D').click();
  // The penny left the reserve for a cup: the panel says where it is now.
  await ada.waitForFunction(() => /Ada's cup \d/.test(document.querySelector('[data-testid=winning-places]')?.textContent ?? ''));

  // Conceding ends the round: it is announced, and the table has its row with the totals.
  await waitForChoices(ada);
  await ada.getByTestId('concede').click();
  await ada.getByTestId('round-announcement').waitFor();
  assert.match(await text(ada, 'round-announcement'), /^Round 1 is over\. Scores: Ada 0, Computer, level 1 \d+\. Round 2 starts; the winning coin is the nickel\.$/);
  await ada.waitForFunction(() => /^Round 2 of 4/.test(document.querySelector('[data-testid=coin-panel]').textContent));
  const rows = await ada.$$eval('[data-testid=coin-rounds] tbody tr.round-scores', (items) => items.map((item) =>
    [...item.children].map((cell) => cell.textContent.replace(/^[PNDQ] /, ''))));
  assert.equal(rows.length, 1);
  assert.equal(rows[0][0], '1');
  assert.equal(rows[0][1].trim(), '10');
  assert.equal(rows[0][2], '0 (0)', 'who concedes scores nothing');
  assert.match(rows[0][3], /^(\d+) \(\1\)$/, 'the total after one round is its score');
  assert.match(await text(ada, 'winning-coin'), /Nickel, worth 50/);
  await screenshot(ada, 'coin-panel-round-2');
  assert.deepEqual(ada.errors, []);
});
