// Njaka with three players: the room fills through the invite link, the three play by clicking
// until eleven sets are taken, then every seat sees the big Plex! button; one wins the race and
// all three see the result.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, createRoom, roomInfo, settled, pageToMove, playChoice,
  screenshot, seeded } from '../lib/harness.js';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('three players race for the last set', async () => {
  const players = [];
  for (const name of ['Ada', 'Bo', 'Cy']) players.push(await newPlayer(browser, server.url, name, { viewport: { width: 1000, height: 800 } }));
  const [ada, bo, cy] = players;
  await createRoom(ada, 'njaka', { options: { players: 3, first_player: 0, plex_window_ms: 30000 }, isPrivate: true });
  const link = await ada.getByTestId('invite-link').inputValue();
  await bo.goto(link);
  await cy.goto(link);
  await settled(players, 0);
  await screenshot(bo, 'njaka-board-start', '[data-testid=board]');

  const random = seeded(3);
  let version = 0;
  while ((await roomInfo(ada)).phase === 'play') {
    const mover = await pageToMove(players);
    assert.ok(mover, 'someone is to move');
    await playChoice(mover, (tokens) => tokens[Math.floor(random() * tokens.length)]);
    version += 1;
    await settled(players, version);
    assert.ok(version < 500, 'eleven sets are taken within 500 moves');
  }
  assert.equal((await roomInfo(ada)).phase, 'plex');
  for (const page of players) await page.getByTestId('plex-button').waitFor();
  await screenshot(cy, 'njaka-plex');

  await bo.getByTestId('plex-button').click();
  for (const page of players) {
    await page.getByTestId('plex-result').waitFor();
    assert.match(await page.getByTestId('plex-result').textContent(), /Bo called Plex! first/);
  }
  await screenshot(ada, 'njaka-plex-result');
  assert.deepEqual(players.flatMap((p) => p.errors), []);
});
