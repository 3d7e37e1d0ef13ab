// Coin Duel stage 3, from the rule book's opening (CD3-1): the second player joins from the
// public room list; a reserve turn that relays, with coins chosen one by one, a forced direction
// and a forced coin sent automatically, and a real choice between Right and Left.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, createRoom, roomInfo, settled, screenshot } from '../lib/harness.js';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

async function choose(page, token) {
  const before = Number((await roomInfo(page)).version);
  await page.locator(`[data-token="${token}"]`).first().click();
  await page.waitForFunction((v) => {
    const room = document.querySelector('[data-testid=room]').dataset;
    return Number(room.version) > v && room.settled === 'true';
  }, before);
}

// Waits until the page offers exactly these choices.
async function offered(page, tokens) {
  await page.waitForFunction((wanted) => {
    const room = document.querySelector('[data-testid=room]').dataset;
    if (room.myTurn !== 'true') return false;
    const shown = [...document.querySelectorAll('[data-testid=choices] [data-token], [data-testid=board] [data-token]')]
      .map((node) => node.dataset.token).sort();
    return JSON.stringify(shown) === JSON.stringify([...wanted].sort());
  }, tokens, { timeout: 10000 });
}

test('a stage 3 turn with coins and directions', async () => {
  const ada = await newPlayer(browser, server.url, 'Ada');
  const bo = await newPlayer(browser, server.url, 'Bo');
  const roomId = await createRoom(ada, 'coin_duel', { options: { stage: 3 } });

  await bo.goto(`${server.url}/#/`);
  await bo.getByTestId(`join-${roomId}`).click();
  await settled([ada, bo], 0);

  // South: reserve 3 with N, D, P (one coin at a time, from the reserve's kinds).
  await offered(ada, ['r1', 'r2', 'r3', 'r4']);
  await choose(ada, 'r3');
  await offered(ada, ['P', 'N', 'D', 'Q']);
  await choose(ada, 'N');
  await choose(ada, 'D');
  await screenshot(ada, 'coin-duel-mid-turn');
  await choose(ada, 'P');
  await settled([ada, bo], 4);

  // North: reserve 4 with N, N, D, Q.
  await choose(bo, 'r4');
  for (const coin of ['N', 'N', 'D', 'Q']) await choose(bo, coin);
  await settled([ada, bo], 9);

  // South: reserve 1 (a dime) lands on S1's nickel and relays; Left would run off the row, so
  // Right is sent by itself. The two coins go on one by one (the last one is forced), land on
  // S3's penny, and the relay from S3 may go either way: South picks Left.
  await choose(ada, 'r1');
  await choose(ada, 'D');
  await offered(ada, ['N', 'D']);
  await choose(ada, 'N');
  await offered(ada, ['R', 'L']);
  await screenshot(ada, 'coin-duel-direction-choice');
  await choose(ada, 'L');
  await offered(ada, ['P', 'D']);
  await choose(ada, 'P');
  // The last coin (D) is forced and sent automatically; then it is North's turn.
  await bo.waitForFunction(() => document.querySelector('[data-testid=room]').dataset.myTurn === 'true');
  await settled([ada, bo], 17);
  await screenshot(ada, 'coin-duel-board', '[data-testid=board]');
  // The last lap went left from S3: S2 got the penny (now P N D), S1 the dime; S3 is empty.
  assert.equal(await ada.getByTestId('count-s0c2').textContent(), '3');
  assert.equal(await ada.getByTestId('count-s0c1').textContent(), '1');
  assert.equal(await ada.getByTestId('count-s0c3').textContent(), '');
  assert.deepEqual([...ada.errors, ...bo.errors], []);
});
