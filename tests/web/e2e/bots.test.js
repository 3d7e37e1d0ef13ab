// Playing the computer: for each of the five games a person opens the lobby, starts a game
// against the computer from "Play the computer" (the game's button, then a level; some cases
// also say who starts or change an option behind "More options"), and plays it to the end by
// clicking legal moves until the result is shown. Around that: the lobby card, the dialog and a
// room with computer seats on a laptop and a phone, and "Add computer" in a waiting room.
// The games run side by side, each in its own browser context.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, createRoom, roomInfo, settled, screenshot, seeded } from '../lib/harness.js';
import { playComputer, playToEnd, clickChoice, waitForChoices } from '../lib/computer.js';

const LAPTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };
let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const text = (page, testid) => page.getByTestId(testid).textContent();
const mySeat = (page) => page.$$eval('[data-testid=seats] > li', (items) => items.findIndex((item) => item.classList.contains('mine')));

// Every seat but the person's is the computer's, shown with its level and without presence.
async function checkComputerSeats(page, seats, level) {
  const me = await mySeat(page);
  assert.ok(me >= 0, 'the person holds a seat');
  for (let seat = 0; seat < seats; seat += 1) {
    const tag = page.getByTestId(`computer-${seat}`);
    if (seat === me) { assert.equal(await tag.count(), 0); continue; }
    assert.match(await tag.getAttribute('data-level'), new RegExp(`^${level}$`));
    assert.match(await text(page, `seat-name-${seat}`), /Computer/);
    assert.equal(await page.locator(`[data-testid=seat-${seat}] .presence`).count(), 0, 'no presence for a computer');
  }
  assert.equal(await page.locator('[data-testid^=sit-], [data-testid^=add-bot-], [data-testid=claim-abandon]').count(), 0);
  return me;
}

// The options the server stored for a game (the player's own private game: with their token).
const storedOptions = (page, id) => page.evaluate(async (game) => {
  const { token } = JSON.parse(localStorage.getItem('mancala.identity'));
  const response = await fetch(`/api/games/${game}`, { headers: { Authorization: `Bearer ${token}` } });
  return (await response.json()).options;
}, id);

const CASES = [
  // Two clicks exactly: the game's button and the level.
  { game: 'cups', level: 1, seed: 1 },
  // One round keeps the game short whatever the computer plays.
  { game: 'njaka', level: 1, starter: 'computer', options: { max_rounds: 1 }, seed: 5 },
  { game: 'coin_duel', level: 2, options: { stage: 1 }, seed: 2 },
  { game: 'oanquan', level: 1, starter: 'random', options: { match_mode: 'single' }, seed: 3 },
  { game: 'duovallis', level: 2, starter: 'computer', seed: 4 },
];

describe('playing the computer', { concurrency: true }, () => {
  for (const { game, level, starter = null, options = {}, seed } of CASES) {
    it(`${game}: from the lobby to the result against level ${level}`, async (t) => {
      const ada = await newPlayer(browser, server.url, `Ada ${game}`.slice(0, 24));
      const roomId = await playComputer(ada, game, { level, starter, options });
      // Every other seat is the computer's, so the game starts at once.
      await ada.waitForSelector('[data-testid=room][data-status=playing]');
      const me = await checkComputerSeats(ada, 2, level);
      // The board's captions name the computer's pot, store or tray in full ("Computer's pot"),
      // not as a cut "Computer, lev…" (its level is in the seat list).
      const captions = await ada.$$eval('[data-testid=board] [data-caption-for]', (nodes) => nodes.map((node) => node.lastChild.textContent));
      assert.ok(captions.some((caption) => /^(\W )?Computer('s|$)/.test(caption)), captions.join(' | '));
      assert.ok(!captions.some((caption) => caption.includes('Computer,')), captions.join(' | '));
      if (starter === 'computer') {
        // The computer moves first: Njaka by its first-player option, Duovallis (which has
        // none) by giving the person the second seat.
        if (game === 'duovallis') assert.equal(me, 1);
        await ada.waitForFunction(() => document.querySelector('[data-testid=room]').dataset.myTurn === 'true');
        assert.ok(Number((await roomInfo(ada)).version) >= 1, 'the computer has moved first');
      }

      const stored = await storedOptions(ada, roomId);
      for (const [name, value] of Object.entries(options)) assert.deepEqual(stored[name], value, `${name} from More options`);

      const clicks = await playToEnd(ada, seeded(seed), {
        onClick: async (n) => {
          if (n !== 4) return;
          await screenshot(ada, `bots-${game}-playing`);
          if (game === 'cups') {
            // A reload returns to the same seat against the same computer.
            await ada.reload();
            await ada.waitForSelector(`[data-testid=room][data-room="${roomId}"][data-settled=true]`);
            assert.equal(await checkComputerSeats(ada, 2, level), me);
          }
        },
      });
      await ada.getByTestId('result').waitFor();
      t.diagnostic(`${clicks} clicks, ${(await roomInfo(ada)).version} versions`);
      assert.match(await text(ada, 'result'), /wins|draw|share/i);
      assert.equal((await roomInfo(ada)).status, 'finished');
      assert.ok(Number((await roomInfo(ada)).version) > clicks / 2, 'the computer moved too');
      await ada.getByTestId('play-computer-again').waitFor();
      await screenshot(ada, `bots-${game}-result`);
      assert.deepEqual(ada.errors, []);
    });
  }

  it('a computer\'s whole Coin Duel turn is played back like any other, then the person resigns', async () => {
    const ada = await newPlayer(browser, server.url, 'Eve', { speed: 'fast' });
    // The page notes whose updates it plays back, with the sowing shown step by step.
    await ada.evaluate(() => {
      window.playedBack = [];
      new MutationObserver(() => {
        const seat = document.querySelector('[data-testid=room]')?.dataset.animatingSeat;
        if (seat && document.querySelector('[data-testid=board] .hand')) window.playedBack.push(Number(seat));
      }).observe(document.body, { subtree: true, childList: true });
    });
    await playComputer(ada, 'coin_duel', { level: 3, starter: 'computer' });
    // A few decisions of the person's own (a stage 3 turn is several), each answered in time
    // by a whole turn of the computer's.
    const random = seeded(6);
    for (let i = 0; i < 8; i += 1) {
      await waitForChoices(ada);
      await clickChoice(ada, (tokens) => tokens[Math.floor(random() * tokens.length)]);
    }
    await waitForChoices(ada);
    const seats = await ada.evaluate(() => window.playedBack);
    assert.ok(seats.includes(1), `the computer's turns were played back step by step (${seats})`);
    await ada.getByTestId('resign').click();
    await ada.getByTestId('result').waitFor();
    assert.match(await text(ada, 'result'), /Computer, level 3 wins/);
    assert.match(await text(ada, 'result'), /Eve resigned\./);
    await screenshot(ada, 'bots-coin_duel-resigned');
    assert.deepEqual(ada.errors, []);
  });

  it('the lobby card, the dialog and a room with computers, on a laptop and a phone', async () => {
    for (const [size, viewport] of [['1280', LAPTOP], ['390', PHONE]]) {
      const page = await newPlayer(browser, server.url, `Cy ${size}`, { viewport });
      await page.getByTestId('play-computer').waitFor();
      const buttons = await page.$$eval('[data-testid=play-computer] button', (nodes) => nodes.map((node) => node.getAttribute('aria-label')));
      assert.equal(buttons.length, 5);
      assert.ok(buttons.every((label) => / against the computer$/.test(label)));
      await screenshot(page, `bots-lobby-${size}`);

      // Njaka's dialog asks how many computers; More options holds the other options, and the
      // two-player variant follows the number of seats.
      await page.getByTestId('play-computer-njaka').click();
      const dialog = page.getByTestId('bot-dialog');
      await dialog.waitFor();
      const levels = await dialog.locator('[data-testid^=bot-level-] strong').allTextContents();
      assert.deepEqual(levels.map((label) => label.split(' · ')[0]), ['1', '2', '3', '4', '5']);
      assert.match(levels[0], /Beginner \(random\)/);
      assert.match(levels[4], /Strongest/);
      assert.equal(await dialog.getByTestId('option-players').count(), 0, 'players is asked as opponents');
      assert.equal(await dialog.getByTestId('option-first_player').count(), 0, 'first player is asked as who starts');
      await screenshot(page, `bots-dialog-${size}`, '[data-testid=bot-dialog]');
      await dialog.getByText('More options').click();
      assert.equal(await dialog.getByTestId('option-advanced').isEnabled(), true);
      await dialog.getByTestId('bot-opponents').selectOption('3');
      assert.equal(await dialog.getByTestId('option-advanced').isEnabled(), false, 'advanced is for two players');
      await screenshot(page, `bots-dialog-options-${size}`, '[data-testid=bot-dialog]');
      await dialog.getByTestId('bot-starter-computer').check();
      await dialog.getByTestId('bot-level-3').click();
      await page.waitForSelector('[data-testid=room][data-status=playing]');
      assert.equal(await page.locator('[data-testid=seats] > li').count(), 4);
      assert.equal(await checkComputerSeats(page, 4, 3), 0);
      // Seat 2 (the first computer) starts, as asked.
      await page.waitForFunction(() => Number(document.querySelector('[data-testid=room]').dataset.version) >= 1);
      await screenshot(page, `bots-room-${size}`);
      assert.deepEqual(page.errors, []);
    }
  });

  it('adds computers to the free seats of a waiting room', async () => {
    const ada = await newPlayer(browser, server.url, 'Dee', { viewport: LAPTOP });
    await createRoom(ada, 'njaka', { options: { players: 3 } });
    assert.equal((await roomInfo(ada)).status, 'waiting');
    await ada.getByTestId('add-bot-level-1').selectOption('4');
    await ada.getByTestId('add-bot-1').click();
    await ada.getByTestId('computer-1').waitFor();
    assert.equal(await ada.getAttribute('[data-testid=computer-1]', 'data-level'), '4');
    assert.equal((await roomInfo(ada)).status, 'waiting');
    assert.equal(await ada.getByTestId('add-bot-1').count(), 0);
    await screenshot(ada, 'bots-add-computer');
    await ada.getByTestId('add-bot-2').click();
    await ada.waitForSelector('[data-testid=room][data-status=playing]');
    await settled([ada], 0);
    await checkComputerSeats(ada, 3, '[0-9]');
    assert.deepEqual(ada.errors, []);
  });
});
