// Issue 17, bug 8: what a board draws does not overlap. Every fixture board, on a laptop and on
// a phone, is checked for labels drawn over labels or over counters, coins and stones, and for
// labels sticking out of the drawing (the captions of pots, stores and trays among them); every
// pot, store and tray has such a caption; the hand of a sowing stays inside the board. No server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, repo } from '../lib/harness.js';
import { serveDirectory } from '../lib/static_server.js';
import { boardOverlaps, missingCaptions } from '../lib/geometry.js';
import { FIXTURES } from '../fixtures/states.js';

const SIZES = [{ width: 1280, height: 860 }, { width: 390, height: 844 }];
let server, browser;
before(async () => { server = await serveDirectory(repo); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.close(); });

async function open(name, viewport) {
  const page = await browser.newPage({ viewport });
  await page.goto(`${server.url}/tests/web/fixtures/boards.html?fixture=${name}`);
  await page.waitForSelector('body[data-ready=yes]');
  return page;
}

for (const viewport of SIZES) {
  test(`no overlaps on any board at ${viewport.width}×${viewport.height}`, async () => {
    const problems = [];
    for (const name of Object.keys(FIXTURES)) {
      const page = await open(name, viewport);
      for (const problem of await boardOverlaps(page)) problems.push(`${name}: ${problem}`);
      await page.close();
    }
    assert.deepEqual(problems, []);
  });

  test(`every pot, store and tray has a caption at ${viewport.width}×${viewport.height}`, async () => {
    const problems = [];
    let captioned = 0;
    for (const name of Object.keys(FIXTURES)) {
      const page = await open(name, viewport);
      for (const problem of await missingCaptions(page)) problems.push(`${name}: ${problem}`);
      captioned += await page.locator('[data-caption-for]').count();
      await page.close();
    }
    assert.deepEqual(problems, []);
    assert.ok(captioned >= 2 * Object.keys(FIXTURES).length, `captions were found (${captioned})`);
  });
}

// South lifts his reserve, drawn at the top for North who watches: the hand above it must not be cut off, nor cover
// the numbers of the cups.
test('the sowing hand stays inside the board', async () => {
  for (const viewport of SIZES) {
    const page = await open('cups', viewport);
    const seen = await page.evaluate(async () => {
      const { board, fixture } = window;
      const svg = board.element.getBoundingClientRect();
      const boxes = [];
      const watch = setInterval(() => {
        const hand = document.querySelector('.hand');
        if (hand) boxes.push(hand.getBoundingClientRect().toJSON());
      }, 20);
      const events = [{ event: 'turn', player: 0, trace: [{ from: 0, count: 3, dir: 'R' }] }];
      await board.play(events, fixture.state, fixture.state);
      clearInterval(watch);
      return { svg: svg.toJSON(), boxes };
    });
    assert.ok(seen.boxes.length > 0, 'the hand was drawn');
    for (const box of seen.boxes) {
      assert.ok(box.top >= seen.svg.top && box.left >= seen.svg.left && box.right <= seen.svg.right &&
        box.bottom <= seen.svg.bottom, `hand at ${JSON.stringify(box)} inside ${JSON.stringify(seen.svg)} (${viewport.width})`);
    }
    await page.close();
  }
});
