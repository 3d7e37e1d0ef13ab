// O An Quan: South picks a square, then the direction by clicking the neighbouring place; the
// move goes to the server as one move ("3 ccw") and both players see the sowing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, createRoom, roomInfo, settled, screenshot } from '../lib/harness.js';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('an O An Quan move: square, then direction', async () => {
  const ada = await newPlayer(browser, server.url, 'Ada', { speed: 'fast' });
  const bo = await newPlayer(browser, server.url, 'Bo', { speed: 'fast' });
  await createRoom(ada, 'oanquan', { isPrivate: true });
  await bo.goto(await ada.getByTestId('invite-link').inputValue());
  await settled([ada, bo], 0);
  assert.equal((await roomInfo(ada)).myTurn, 'true');

  await ada.getByTestId('place-q3').click();
  // The square is only selected: its neighbours now offer the two directions.
  assert.equal(await ada.getAttribute('[data-testid=place-q4]', 'data-token'), '3 ccw');
  assert.equal(await ada.getAttribute('[data-testid=place-q2]', 'data-token'), '3 cw');
  assert.equal((await roomInfo(ada)).version, '0');
  await screenshot(ada, 'oanquan-direction-choice', '[data-testid=board]');

  await ada.getByTestId('place-q4').click();
  await settled([ada, bo], 1);
  // 5 counters from square 3 counterclockwise: 4, 5, the east end space, 7, 8; then 9 is
  // lifted and sown on (the relay), so square 3 is empty and the east end holds a counter.
  assert.equal(await ada.getByTestId('count-q3').textContent(), '');
  assert.equal(await bo.getByTestId('count-q3').textContent(), '');
  assert.match(await bo.getByTestId('caption').textContent(), /Ada played square 3 counterclockwise/);
  assert.equal((await roomInfo(bo)).myTurn, 'true');
  await screenshot(ada, 'oanquan-board', '[data-testid=board]');
  await screenshot(bo, 'oanquan-room-north');
  assert.deepEqual([...ada.errors, ...bo.errors], []);
});
