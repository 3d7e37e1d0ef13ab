// Issue 17's bugs, one test each: malformed addresses (1), an unknown invite (2), the O An Quan
// prompt (4), result texts in plain words (5), O An Quan's result labels (6), names that are too
// long or only spaces (7), status and prompt while a move is shown (8) and the animation setting
// on a phone (9). Bug 3 is in plex.test.js, the board overlaps of bug 8 in board_layout.test.js.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, screenshot, seeded } from '../lib/harness.js';
import { playComputer, playToEnd, waitForChoices, clickChoice } from '../lib/computer.js';

const PHONE = { width: 390, height: 844 };
let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const text = (page, testid) => page.getByTestId(testid).first().textContent();

describe('issue 17', { concurrency: true }, () => {
  it('bug 1: a malformed address shows a message instead of a blank page', async () => {
    const ada = await newPlayer(browser, server.url, 'Ada');
    for (const hash of ['#/join/%E0%A4%A', '#/room/%ZZ', '#/history/%E0']) {
      await ada.goto(`${server.url}/${hash}`);
      await ada.getByTestId('bad-link').waitFor();
      assert.match(await text(ada, 'bad-link'), hash.startsWith('#/join') ? /invite link is broken/ : /link is broken/);
    }
    // From inside the app (no reload): the lobby is replaced by the message too.
    await ada.goto(`${server.url}/#/`);
    await ada.getByTestId('create-form').waitFor();
    await ada.evaluate(() => { location.hash = '#/join/%E0%A4%A'; });
    await ada.getByTestId('bad-link').waitFor();
    assert.equal(await ada.getByTestId('create-form').count(), 0);
    await ada.getByRole('link', { name: 'Go to the lobby' }).click();
    await ada.getByTestId('create-form').waitFor();
    assert.deepEqual(ada.errors, []);
  });

  it('bug 2: an unknown invite says the link does not work, with no empty board', async () => {
    const ada = await newPlayer(browser, server.url, 'Bea');
    await ada.goto(`${server.url}/#/join/nosuchinvite`);
    await ada.waitForSelector('[data-testid=room][data-error]');
    assert.equal(await text(ada, 'room-title'), 'This invite link does not work');
    assert.match(await text(ada, 'room-status'), /not valid, or the game it was for is over/);
    assert.doesNotMatch(await text(ada, 'room-status'), /you need its invite link/);
    assert.equal(await ada.getByTestId('room-body').isVisible(), false);
    await ada.getByTestId('to-lobby').waitFor();
    assert.deepEqual(ada.errors, []);
  });

  it('bug 4: the O An Quan prompt mentions no button that is not there', async () => {
    const ada = await newPlayer(browser, server.url, 'Cam');
    await playComputer(ada, 'oanquan', { level: 1, starter: 'you' });
    await waitForChoices(ada);
    await ada.locator('[data-testid=board] [data-token]').first().click();
    await ada.getByTestId('choose-again').waitFor();
    const prompt = await text(ada, 'prompt');
    assert.match(prompt, /^Now the direction/);
    assert.equal(await ada.locator('[data-testid=choices] [data-token]').count(), 0);
    assert.doesNotMatch(prompt, /button/, 'no buttons are offered, so none is mentioned');
    assert.deepEqual(ada.errors, []);
  });

  it('bugs 5 and 6: the O An Quan result in words, its scores labelled as in the seat list', async () => {
    const ada = await newPlayer(browser, server.url, 'Cleo');
    await playComputer(ada, 'oanquan', { level: 1, starter: 'you', options: { match_mode: 'single' } });
    await playToEnd(ada, seeded(21));
    await ada.getByTestId('result').waitFor();
    const reason = await text(ada, 'result-reason');
    assert.doesNotMatch(reason, /ended by|_/);
    assert.match(reason, /^[A-Z][^.]*\.$/);
    const scores = await ada.$$eval('[data-testid=result-scores] li', (items) => items.map((item) => item.textContent));
    assert.equal(scores.length, 2);
    for (const seat of [0, 1]) {
      const listed = (await text(ada, `seat-${seat}`)).match(/(\d+) points captured/)[1];
      assert.match(scores[seat], new RegExp(`: ${listed} points captured$`), `the banner says what the seat list says (${scores})`);
    }
    await screenshot(ada, 'bug-oanquan-result');
    assert.deepEqual(ada.errors, []);
  });

  it('bug 7: a name too long or of spaces gets a clear message', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.url);
    await page.getByTestId('name-input').fill('A'.repeat(25));
    await page.getByTestId('name-submit').click();
    assert.match(await text(page, 'name-problem'), /at most 24 characters; this one has 25/);
    assert.equal(await page.getByTestId('name-input').getAttribute('aria-invalid'), 'true');
    await page.getByTestId('name-input').fill('   ');
    assert.equal(await text(page, 'name-problem'), '', 'typing clears the message');
    await page.getByTestId('name-submit').click();
    assert.match(await text(page, 'name-problem'), /spaces alone are not a name/);
    // 24 characters are fine, and kept whole.
    const name = 'Émilie-Anne de la Forêt!';
    assert.equal([...name].length, 24);
    await page.getByTestId('name-input').fill(name);
    await page.getByTestId('name-submit').click();
    await page.waitForSelector('[data-testid=connection][data-status=online]');
    assert.equal(await text(page, 'my-name'), name);
    await context.close();
  });

  it('bug 8: while moves are played back, the status and the prompt speak of the same player', async () => {
    const ada = await newPlayer(browser, server.url, 'Eve', { speed: 'normal' });
    await playComputer(ada, 'cups', { level: 1, starter: 'you' });
    // Samples both lines every 15 ms while the board plays a move back: the status above the board
    // ("X to move") must name the player whose move is being shown, and the prompt below it, when
    // it names someone ("Waiting for X…", "X is thinking…", "Your turn…"), the same player.
    await ada.evaluate(() => {
      window.disagreements = [];
      window.samples = 0;
      setInterval(() => {
        const room = document.querySelector('[data-testid=room]');
        const seat = room?.dataset.animatingSeat;
        if (seat === undefined || seat === '') return;
        const mover = room.querySelector(`[data-testid=seat-name-${seat}]`).textContent;
        const status = /(?:^|· )(.+) to move/.exec(room.querySelector('[data-testid=room-status]').textContent)?.[1] ?? null;
        const prompt = room.querySelector('[data-testid=prompt]').textContent;
        const named = /^Waiting for (.+)…$/.exec(prompt)?.[1] ?? /^(.+) is thinking…$/.exec(prompt)?.[1]
          ?? (/^Your turn/.test(prompt) ? document.querySelector('[data-testid=my-name]').textContent : null);
        window.samples += 1;
        if (status !== mover || (named !== null && named !== mover)) {
          window.disagreements.push(`showing ${mover}'s move; status "${status}", prompt "${prompt}"`);
        }
      }, 15);
    });
    const random = seeded(8);
    for (let move = 0; move < 5; move += 1) {
      await waitForChoices(ada);
      await clickChoice(ada, (tokens) => tokens[Math.floor(random() * tokens.length)]);
    }
    await waitForChoices(ada);
    const { samples, disagreements } = await ada.evaluate(() => ({ samples: window.samples, disagreements: window.disagreements }));
    assert.ok(samples > 10, `the playback was sampled (${samples})`);
    assert.deepEqual([...new Set(disagreements)], []);
    assert.deepEqual(ada.errors, []);
  });

  it('bug 9: the animation setting is there on a phone', async () => {
    const page = await newPlayer(browser, server.url, 'Dev', { viewport: PHONE });
    assert.equal(await page.getByTestId('speed').isVisible(), true);
    await page.getByTestId('speed').selectOption('fast');
    assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem('mancala.animation'))), 'fast');
    const box = await page.getByTestId('speed').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, 'inside the screen');
    await screenshot(page, 'bug-phone-header');
    assert.deepEqual(page.errors, []);
  });
});
