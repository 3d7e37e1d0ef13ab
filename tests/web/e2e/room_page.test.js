// The room page people expect (issues 16 and 17): the move list in words, stepping back while
// the game goes on, the result banner with Rematch and New game, and screenshots of all of it
// on a laptop and a phone. Games against the computer at level 1 reach their end quickly.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, createRoom, roomInfo, settled, screenshot, seeded } from '../lib/harness.js';
import { playComputer, playToEnd, clickChoice, waitForChoices, waitForTurnOrEnd } from '../lib/computer.js';

const LAPTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };
let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const text = (page, testid) => page.getByTestId(testid).first().textContent();
const moveTexts = (page) => page.$$eval('[data-testid=move-list] button', (nodes) => nodes.map((node) => node.textContent));
// Engine notation that must not reach a player: r3, c4, "3 ccw", underscores.
const NOTATION = /\b(r\d+|c\d+|\d+ c?cw)\b|_/;

describe('the room page', { concurrency: true }, () => {
  for (const [size, viewport] of [['1280', LAPTOP], ['390', PHONE]]) {
    it(`Cups against the computer on ${size} px: moves in words, stepping back, the result banner`, async () => {
      const ada = await newPlayer(browser, server.url, `Ada ${size}`, { viewport });
      const roomId = await playComputer(ada, 'cups', { level: 1 });
      const random = seeded(size === '1280' ? 11 : 12);
      // Three moves each, then look at the list.
      for (let i = 0; i < 3; i += 1) {
        await waitForChoices(ada);
        await clickChoice(ada, (tokens) => tokens[Math.floor(random() * tokens.length)]);
      }
      await waitForChoices(ada);
      const version = Number((await roomInfo(ada)).version);
      const moves = await moveTexts(ada);
      assert.equal(moves.length, version + 1, `one line per version and the start: ${moves}`);
      assert.equal(moves[0], 'The game starts.');
      for (const line of moves.slice(1)) {
        assert.match(line, /^(Ada \d+|Computer, level 1) (sowed \d+ beans? from the reserve|played cup \d)/);
        assert.doesNotMatch(line, NOTATION);
      }
      assert.equal(await text(ada, 'caption'), moves.at(-1));

      // A click on move 1 shows that position; the game goes on meanwhile.
      await ada.getByTestId('move-1').click();
      await ada.waitForSelector('[data-testid=room][data-viewing="1"]');
      assert.equal((await roomInfo(ada)).myTurn, 'false', 'no move while looking back');
      assert.match(await text(ada, 'viewing'), /Showing move 1 of \d+/);
      assert.equal(await ada.getByTestId('move-1').getAttribute('aria-current'), 'step');
      // The arrow keys step on and back from the focused line.
      await ada.keyboard.press('ArrowDown');
      await ada.waitForSelector('[data-testid=room][data-viewing="2"]');
      await ada.keyboard.press('ArrowUp');
      await ada.waitForSelector('[data-testid=room][data-viewing="1"]');
      const reserve = await ada.getByTestId('count-s0res').textContent().catch(() => null);
      await screenshot(ada, `room-page-stepping-${size}`);
      assert.match(await text(ada, 'step-back-note'), /^You are looking at move 1 of \d+\./);
      await ada.getByTestId(size === '390' ? 'back-to-live-board' : 'back-to-live').click();
      await ada.waitForSelector('[data-testid=room][data-viewing=""][data-my-turn=true]');
      assert.equal(await ada.getByTestId('back-to-live').isVisible(), false);
      if (reserve !== null) assert.notEqual(await ada.getByTestId('count-s0res').textContent(), reserve, 'live again');

      // A reload fills the list from the history API.
      await ada.reload();
      await ada.waitForSelector(`[data-testid=room][data-room="${roomId}"][data-settled=true]`);
      await ada.waitForFunction(() => document.querySelectorAll('[data-testid=move-list] button').length > 5);
      assert.match(await text(ada, 'move-1'), /^(Ada \d+|Computer, level 1) (sowed|played)/);
      // ... and an earlier position from the history's pages of positions (/positions is paged).
      await ada.getByTestId('move-1').click();
      await ada.waitForSelector('[data-testid=room][data-viewing="1"]');
      await ada.getByTestId(size === '390' ? 'back-to-live-board' : 'back-to-live').click();
      await ada.waitForSelector('[data-testid=room][data-viewing=""]');

      await screenshot(ada, `room-page-moves-${size}`);
      await playToEnd(ada, random);
      await ada.getByTestId('result').waitFor();
      assert.match(await text(ada, 'result-headline'), /^(Ada \d+|Computer, level 1) wins( by \d+ beans?)?$|draw/);
      const reason = await text(ada, 'result-reason');
      assert.doesNotMatch(reason, /ended by|_/);
      assert.match(reason, /^[A-Z].*\.$/, 'a sentence');
      // The banner's scores are the seat list's, with their unit.
      const scores = await ada.$$eval('[data-testid=result-scores] li', (items) => items.map((item) => item.textContent));
      for (const seat of [0, 1]) {
        const listed = (await text(ada, `seat-${seat}`)).match(/(\d+) in pot/)[1];
        assert.ok(scores.some((line) => line.endsWith(`${listed} in pot`)), `${scores} has ${listed} in pot`);
      }
      await ada.getByTestId('rematch').waitFor();
      await ada.getByTestId('new-game-button').waitFor();
      await screenshot(ada, `room-page-result-${size}`);
      const last = (await moveTexts(ada)).at(-1);
      assert.match(last, /Game over\.$/);

      // New game: the lobby with this game chosen.
      await ada.getByTestId('new-game-button').click();
      await ada.getByTestId('create-form').waitFor();
      assert.equal(await ada.getByTestId('new-game').inputValue(), 'cups');
      assert.deepEqual(ada.errors, []);
    });
  }

  it('Coin Duel stage 3: a turn of several decisions is one line once it is complete', async () => {
    const ada = await newPlayer(browser, server.url, 'Ines');
    await playComputer(ada, 'coin_duel', { level: 1 });
    const random = seeded(31);
    for (let i = 0; i < 10; i += 1) {
      await waitForChoices(ada);
      await clickChoice(ada, (tokens) => tokens[Math.floor(random() * tokens.length)]);
    }
    await waitForChoices(ada);
    const lines = await ada.$$eval('[data-testid=move-list] li', (items) => items.map((item) => ({ partial: item.classList.contains('partial'), text: item.textContent })));
    assert.ok(lines.length > 3, JSON.stringify(lines));
    // Only the turn still being played may show a half-played line, at the end, with its
    // decisions so far.
    assert.ok(lines.slice(0, -1).every((line) => !line.partial), JSON.stringify(lines));
    if (lines.at(-1).partial) assert.match(lines.at(-1).text, /^Ines is in the middle of a turn: (\d+ from the reserve|cup \d+)(, [a-z\d ]+)*…$/);
    for (const line of lines.slice(1).filter((item) => !item.partial)) {
      assert.match(line.text, /^(Ines|Computer, level 1) (sowed \d+ coins? from the reserve \((Penny|Nickel|Dime|Quarter)(, (Penny|Nickel|Dime|Quarter))*\)|played cup \d+)/);
      assert.doesNotMatch(line.text, NOTATION);
    }
    await screenshot(ada, 'room-page-coin-duel-moves');
    assert.deepEqual(ada.errors, []);
  });

  it('the history viewer tells the moves in the same words', async () => {
    const ada = await newPlayer(browser, server.url, 'Hana');
    const roomId = await playComputer(ada, 'oanquan', { level: 1, options: { match_mode: 'single' } });
    // Two moves each, or fewer when both big stones fall early and the game ends.
    for (let i = 0; i < 4 && (await waitForTurnOrEnd(ada)) === 'turn'; i += 1) await clickChoice(ada, (tokens) => tokens[0]);
    await waitForTurnOrEnd(ada);
    const moves = await moveTexts(ada);
    await ada.goto(`${server.url}/#/history/${roomId}`);
    await ada.getByTestId('replay-slider').waitFor();
    const captions = [];
    for (let v = 1; v < moves.length; v += 1) {
      await ada.getByTestId('replay-next').click();
      await ada.waitForFunction((n) => document.querySelector('[data-testid=replay-where]').textContent.startsWith(`Move ${n} `), v);
      captions.push(await text(ada, 'replay-caption'));
    }
    assert.deepEqual(captions, moves.slice(1));
    assert.ok(captions.some((line) => /played square \d+ (counter)?clockwise/.test(line)), captions.join('\n'));
    for (const line of captions) assert.doesNotMatch(line, NOTATION);
    assert.deepEqual(ada.errors, []);
  });
});
