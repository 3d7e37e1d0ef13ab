// Two players in two browser profiles: a private Cups room joined through its invite link, a
// whole game played by clicking, the result screen, then the history viewer stepping through
// the finished game. The second player's name contains markup, which must show as text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, createRoom, roomInfo, settled, pageToMove, playChoice,
  screenshot, seeded } from '../lib/harness.js';

const MARKUP_NAME = '<img src=x><b>Bo</b>';   // names are at most 24 characters
let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('a private Cups game from invite link to result, then its replay', async () => {
  const ada = await newPlayer(browser, server.url, 'Ada');
  const bo = await newPlayer(browser, server.url, MARKUP_NAME);

  const roomId = await createRoom(ada, 'cups', { options: { cups_per_side: 3 }, isPrivate: true });
  const link = await ada.getByTestId('invite-link').inputValue();
  assert.match(link, /#\/join\/[^/]+$/);
  await screenshot(ada, 'cups-waiting-room');

  await bo.goto(link);
  await settled([ada, bo], 0);
  assert.equal((await roomInfo(bo)).room, roomId);
  assert.equal((await roomInfo(bo)).status, 'playing');

  // The name with markup is text everywhere: no element was created from it.
  for (const page of [ada, bo]) {
    assert.equal(await page.getByTestId('seat-name-1').textContent(), MARKUP_NAME);
    assert.equal(await page.locator('[data-testid=seats] img, [data-testid=seats] b').count(), 0);
    assert.equal(await page.evaluate(() => window.pwned), undefined);
  }

  // Play to the end: whoever is to move clicks one of the highlighted choices.
  const random = seeded(7);
  let version = 0;
  let shotTaken = false;
  while ((await roomInfo(ada)).status === 'playing') {
    const mover = await pageToMove([ada, bo]);
    assert.ok(mover, 'someone must be able to move while the game is on');
    await playChoice(mover, (tokens) => tokens[Math.floor(random() * tokens.length)]);
    version += 1;
    await settled([ada, bo], version);
    if (!shotTaken && version === 12) {
      await screenshot(ada, 'cups-board-midgame', '[data-testid=board]');
      await screenshot(bo, 'cups-room-north');
      shotTaken = true;
    }
    assert.ok(version < 400, 'a Cups game with three cups ends in fewer than 400 moves');
  }
  for (const page of [ada, bo]) {
    await page.getByTestId('result').waitFor();
    assert.match(await page.getByTestId('result').textContent(), /wins|draw/i);
  }
  await screenshot(ada, 'cups-result');

  // The history: search by the markup name, open the game, step through it.
  await bo.goto(`${server.url}/#/history`);
  await bo.getByTestId('history-player').fill(MARKUP_NAME);
  await bo.getByTestId('history-search').click();
  await bo.getByTestId(`history-game-${roomId}`).click();
  await bo.getByTestId('replay-where').waitFor();
  assert.match(await bo.getByTestId('replay-where').textContent(), new RegExp(`Move 0 of ${version}$`));
  await bo.getByTestId('replay-next').click();
  await bo.waitForFunction(() => /Move 1 of/.test(document.querySelector('[data-testid=replay-where]').textContent));
  await bo.getByTestId('replay-next').click();
  await bo.waitForFunction(() => /Move 2 of/.test(document.querySelector('[data-testid=replay-where]').textContent));
  await bo.getByTestId('replay-prev').click();
  await bo.waitForFunction(() => /Move 1 of/.test(document.querySelector('[data-testid=replay-where]').textContent));
  await bo.getByTestId('replay-slider').fill(String(Math.floor(version / 2)));
  await bo.waitForFunction((v) => document.querySelector('[data-testid=replay-where]').textContent.startsWith(`Move ${v} of`), Math.floor(version / 2));
  await screenshot(bo, 'history-viewer-midgame');
  await bo.getByTestId('replay-last').click();
  await bo.waitForFunction((v) => document.querySelector('[data-testid=replay-where]').textContent === `Move ${v} of ${v}`, version);
  await bo.getByTestId('result').waitFor();
  // The last position of the replay is the final board of the game.
  for (const id of ['s0pot', 's1pot', 's0c1', 's1c3']) {
    assert.equal(await bo.getByTestId(`count-${id}`).textContent(), await ada.getByTestId(`count-${id}`).textContent(), id);
  }
  await screenshot(bo, 'history-viewer-end');
  await bo.getByTestId('replay-first').click();
  await bo.waitForFunction((v) => document.querySelector('[data-testid=replay-where]').textContent === `Move 0 of ${v}`, version);
  assert.deepEqual([...ada.errors, ...bo.errors], []);
});
