// Duovallis: a move animated from its events (DUO-1: three laps, a capture and an exchange),
// then a reload in the middle of the game that keeps the player's seat. The board's layout comes
// once from /api/game-types, not with every update.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, createRoom, roomInfo, settled, screenshot } from '../lib/harness.js';
import { DUOVALLIS_LAYOUT } from '../fixtures/states.js';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('a Duovallis move, and a reload that keeps the seat', async () => {
  const white = await newPlayer(browser, server.url, 'Wil', { speed: 'normal' });
  const black = await newPlayer(browser, server.url, 'Bea', { speed: 'normal', viewport: { width: 390, height: 844 } });
  const roomId = await createRoom(white, 'duovallis', { isPrivate: true });
  await black.goto(await white.getByTestId('invite-link').inputValue());
  await settled([white, black], 0);

  // Where the holes lie and whose they are comes from the layout the server serves once.
  const types = await (await fetch(`${server.url}/api/game-types`)).json();
  assert.deepEqual(types.games.find((game) => game.id === 'duovallis').layout, DUOVALLIS_LAYOUT,
    'the board fixtures draw the layout the server serves');
  assert.match(await white.getByTestId('place-d6').getAttribute('class'), /tone-neutral/);
  assert.match(await white.getByTestId('place-d13').getAttribute('class'), /tone-0/);
  assert.match(await white.getByTestId('place-d7').getAttribute('class'), /tone-1/);

  await white.getByTestId('place-d1').click();
  // The sowing is played back step by step: the hand marker travels while it runs.
  await black.locator('.hand').waitFor({ timeout: 5000 });
  await settled([white, black], 1);
  // DUO-1: hole 1 ends with 2 white stones, hole 7's four black stones are gone, carry 1.
  assert.equal(await black.getByTestId('count-d1-w').textContent(), '2');
  assert.equal(await black.getByTestId('count-d7-b').count(), 0);
  assert.equal(await black.getByTestId('count-d5-w').count(), 0);
  assert.equal(await white.getByTestId('count-carry0').textContent(), '1');
  // In words, by colour: four black stones taken, three of them traded for a new white one.
  assert.match(await black.getByTestId('caption').textContent(),
    /^Wil played hole 1, with \d+ relays?, capturing hole 7: 4 black stones \(3 traded for 1 new white stone\)\.$/);
  await screenshot(white, 'duovallis-board', '[data-testid=board]');
  await screenshot(black, 'duovallis-phone');

  // Black reloads in the middle of the game: same room, same seat, still to move.
  await black.reload();
  await black.waitForSelector(`[data-testid=room][data-room="${roomId}"][data-settled=true]`);
  await settled([black], 1);
  assert.equal(await black.getByTestId('seat-1').locator('.tag.you').textContent(), 'you');
  assert.equal((await roomInfo(black)).myTurn, 'true');
  await black.locator('[data-testid=board] [data-token]').first().click();
  await settled([white, black], 2);
  assert.equal((await roomInfo(white)).myTurn, 'true');
  assert.deepEqual([...white.errors, ...black.errors], []);
});
