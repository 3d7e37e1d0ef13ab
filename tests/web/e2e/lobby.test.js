// The lobby as issue 17 asks: "Play the computer" and "Create room" in view without scrolling on
// a laptop and on a phone; the room form in a player's words with the rarely changed options
// folded away; room cards that say who created the room, how long ago (the server's time) and its clock;
// and a rules page per game, with pictures, reached from the lobby's "How to play".
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, createRoom, screenshot } from '../lib/harness.js';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const inView = (page, testid) => page.getByTestId(testid).evaluate((node) => {
  const box = node.getBoundingClientRect();
  return box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth;
});

describe('the lobby', { concurrency: true }, () => {
  for (const viewport of [{ width: 1280, height: 860 }, { width: 390, height: 844 }]) {
    it(`shows the ways to start a game without scrolling at ${viewport.width}×${viewport.height}`, async () => {
      const ada = await newPlayer(browser, server.url, `Ada ${viewport.width}`, { viewport });
      for (const game of ['cups', 'coin_duel', 'oanquan', 'njaka', 'duovallis']) {
        await ada.getByTestId('new-game').selectOption(game);
        // On a phone, quick pairing (issue 47) comes first and the room form below it.
        if (viewport.width > 820) assert.ok(await inView(ada, 'create-room'), `Create room is in view for ${game}`);
        assert.ok(await inView(ada, `qp-${game}-quick`), `Quick pairing's ${game} is in view`);
        assert.ok(await inView(ada, 'play-computer-cups'), 'Play the computer is in view');
      }
      await screenshot(ada, `lobby-${viewport.width}`);
      assert.deepEqual(ada.errors, []);
    });
  }

  it('asks in a player\'s words, with the other options folded away', async () => {
    const ada = await newPlayer(browser, server.url, 'Cleo');
    const form = ada.getByTestId('create-form');
    await ada.getByTestId('new-game').selectOption('cups');
    const text = await form.textContent();
    assert.doesNotMatch(text, /policy|illegal_move|_/i);
    assert.match(text, /What happens after an illegal move/);
    assert.equal(await ada.getByTestId('option-illegal_move_policy').isVisible(), false, 'folded away');
    assert.equal(await ada.getByTestId('new-grace').isVisible(), false, 'folded away');
    await ada.getByText('More Cups options').click();
    assert.equal(await ada.getByTestId('option-illegal_move_policy').isVisible(), true);
    const values = await ada.$$eval('[data-testid=option-illegal_move_policy] option', (nodes) => nodes.map((node) => node.textContent));
    assert.deepEqual(values, ['The move is refused; play another', 'The player loses']);
    assert.deepEqual(ada.errors, []);
  });

  it('shows the host, the age and the clock of each room', async () => {
    const bo = await newPlayer(browser, server.url, 'Bo');
    const roomId = await createRoom(bo, 'oanquan', { clock: '5+3' });
    const dee = await newPlayer(browser, server.url, 'Dee');
    const facts = dee.getByTestId(`room-facts-${roomId}`);
    await facts.waitFor();
    const text = await facts.textContent();
    assert.match(text, /Hosted by Bo · just now/);
    assert.match(text, /Clock: 5/);
    // The age counts from the server's creation time, not from when a page first saw the room:
    // a page opened fresh with its clock five minutes on says "5 min ago" for the same room.
    await dee.context().addInitScript(() => { const real = Date.now; Date.now = () => real() + 5 * 60000 + 1000; });
    await dee.reload();
    await dee.getByTestId(`room-host-${roomId}`).filter({ hasText: 'Hosted by Bo · 5 min ago' }).waitFor({ timeout: 5000 });
    await screenshot(dee, 'lobby-room-card', `[data-testid=room-${roomId}]`);
    assert.deepEqual([...bo.errors, ...dee.errors], []);
  });
});

describe('the rules pages', () => {
  it('explain every game with small boards, on a laptop and on a phone', async () => {
    for (const viewport of [{ width: 1280, height: 860 }, { width: 390, height: 844 }]) {
      const ada = await newPlayer(browser, server.url, `Rules ${viewport.width}`, { viewport });
      for (const game of ['cups', 'coin_duel', 'oanquan', 'njaka', 'duovallis']) {
        await ada.goto(`${server.url}/#/rules/${game}`);
        const page = ada.getByTestId('rules-page');
        await page.waitFor();
        assert.match(await page.locator('h1').textContent(), /^How to play /);
        const figures = await page.locator('figure svg[data-testid=board]').count();
        assert.ok(figures >= 2, `${game} has pictures (${figures})`);
        const wide = await ada.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(wide <= viewport.width, `${game}: nothing sticks out sideways (${wide})`);
        await screenshot(ada, `rules-${game}-${viewport.width}`);
      }
      // From the lobby: "How to play" opens the short card, which links to the page.
      await ada.goto(`${server.url}/#/`);
      await ada.getByTestId('new-game').selectOption('duovallis');
      await ada.getByTestId('show-rules-duovallis').click();
      assert.equal(await ada.getByTestId('rules-page-link-duovallis').getAttribute('href'), '#/rules/duovallis');
      assert.deepEqual(ada.errors, []);
    }
  });
});
