// Learning from a finished game (issue 32): a Cups game against the computer ends by resigning;
// the result banner's "Analyse" opens the history viewer asking for the analysis; the graph and
// the marks appear; a marked move is clicked, the better move tried as a what-if, a move of our
// own after it, the engine's reply, and back to the game; the record is downloaded as text and
// imported in a fresh browser context, where it shows the same positions and can be analysed
// too. Screenshots at 1280×800 and at phone size (390×844).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser, newPlayer, screenshot, seeded } from '../lib/harness.js';
import { playComputer, waitForChoices, clickChoice } from '../lib/computer.js';

// A small budget: the test is about the page, not the engine's strength.
const ANALYSIS_FLAGS = ['--analysis-playouts', '300'];
const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let server, browser;
before(async () => { server = await startServer({ args: ANALYSIS_FLAGS }); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const text = (page, testid) => page.getByTestId(testid).textContent();
const analysed = (page) => page.waitForSelector('[data-testid=analysis][data-status=done] [data-testid=eval-graph]', { timeout: 120000 });
const shownVersion = (page) => page.$eval('[data-testid=replay]', (node) => Number(node.dataset.version));
const whatIf = (page, on) => page.waitForSelector(`[data-testid=replay][data-whatif=${on}]`);
// What the board shows: every place's count, by place.
// A page in a fresh context that keeps its errors, the page's Content-Security-Policy refusals too.
async function freshPage(viewport) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (error) => page.errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) page.errors.push(message.text());
  });
  return { context, page };
}
const boardCounts = (page) => page.$$eval('[data-testid=board] [data-testid^=count-]',
  (nodes) => Object.fromEntries(nodes.map((node) => [node.dataset.testid, node.textContent])));

test('analyse a finished game, try other moves, take it away as text and bring it back', async () => {
  const ada = await newPlayer(browser, server.url, 'Ada', { viewport: LAPTOP });
  const roomId = await playComputer(ada, 'cups', { level: 1, options: { cups_per_side: 3 } });
  // Some careless moves, then resigning ends the game at once.
  const random = seeded(32);
  for (let i = 0; i < 10; i += 1) {
    await waitForChoices(ada);
    await clickChoice(ada, (tokens) => tokens[Math.floor(random() * tokens.length)]);
  }
  await waitForChoices(ada);
  await ada.getByTestId('resign').click();
  await ada.getByTestId('result').waitFor();

  // The banner's Analyse opens the viewer, which asks for the analysis by itself.
  await ada.getByTestId('analyse-game').click();
  await ada.waitForFunction((id) => location.hash === `#/history/${id}?analyse`, roomId);
  await ada.getByTestId('analysis').waitFor();
  await analysed(ada);
  const marks = await ada.$$eval('[data-testid^=mark-]', (nodes) => nodes.map((node) => ({
    version: Number(node.dataset.testid.slice('mark-'.length)), symbol: node.textContent })));
  assert.ok(marks.length > 0, 'random moves against the computer leave some marked');
  for (const mark of marks) assert.ok(['?!', '?', '??'].includes(mark.symbol), JSON.stringify(mark));
  assert.equal(await ada.locator('[data-testid^=graph-mark-]').count(), marks.length);
  assert.match(await text(ada, 'accuracy-0'), /^\d+% accuracy$/);
  assert.match(await text(ada, 'analysis-help'), /0\.10.*inaccuracy.*0\.20.*mistake.*0\.30.*blunder/s);

  // A marked move: the board shows the position after it, the graph marks it, the words say
  // what it cost and what was better.
  const marked = marks[0].version;
  await ada.getByTestId(`move-${marked}`).click();
  assert.equal(await shownVersion(ada), marked);
  const markedBoard = await boardCounts(ada);
  assert.equal(await ada.getByTestId('eval-graph').getAttribute('data-current'), String(marked));
  assert.match(await text(ada, 'hint-mark'), new RegExp(`^Move ${marked} was an? (inaccuracy|mistake|blunder) \\(it lost \\d\\.\\d\\d\\)`));
  assert.match(await text(ada, 'hint-eval'), /is better: \d\.\d\d|Even: \d\.\d\d|with best play/);
  assert.match(await text(ada, 'hint-best'), /^Best move for .+: /, 'says whose move it is');
  assert.ok(await ada.locator('[data-testid=board] .place.hint').count() > 0, 'the best move is pointed out on the board');
  await ada.getByText('About the analysis').click();
  await screenshot(ada, 'analysis-marked-1280');

  // A click on the graph goes to that position.
  const graph = await ada.getByTestId('eval-graph').boundingBox();
  await ada.mouse.click(graph.x + 50, graph.y + graph.height / 2);
  await ada.waitForFunction(() => document.querySelector('[data-testid=replay]').dataset.version === '0');

  // The better move, as a what-if from the position before the marked move.
  await ada.getByTestId(`move-${marked}`).click();
  await ada.getByTestId('try-better').click();
  await whatIf(ada, true);
  assert.equal(await shownVersion(ada), marked - 1);
  assert.match(await text(ada, 'whatif-line'), new RegExp(`1 move tried ${marked > 1 ? `after move ${marked - 1}` : 'from the start'}`));
  assert.match(await text(ada, 'hint-eval'), /^Engine: /);
  // A move of our own on the board after it, and the engine's answer to that.
  const offered = '[data-testid=board] [data-token], [data-testid=choices] [data-token]';
  if (await ada.locator(offered).count()) {
    await ada.locator(offered).first().click();
    await ada.waitForFunction(() => /2 moves tried/.test(document.querySelector('[data-testid=whatif-line]').textContent));
  }
  await screenshot(ada, 'analysis-whatif-1280');
  if (await ada.getByTestId('whatif-engine').isVisible()) {
    const before = await text(ada, 'whatif-line');
    await ada.getByTestId('whatif-engine').click();
    await ada.waitForFunction((was) => document.querySelector('[data-testid=whatif-line]').textContent !== was
      && document.querySelector('[data-testid=whatif]').dataset.busy === 'false', before);
  }
  // Take back costs no request: the line is one move shorter at once.
  const line = await text(ada, 'whatif-line');
  const tried = Number(/(\d+) moves? tried/.exec(line)[1]);
  if (tried > 1) {
    await ada.getByTestId('whatif-undo').click();
    assert.match(await text(ada, 'whatif-line'), new RegExp(`^What if… ${tried - 1} moves? tried`));
  }
  await ada.getByTestId('whatif-back').click();
  await whatIf(ada, false);
  assert.equal(await shownVersion(ada), marked - 1);
  assert.match(await text(ada, 'replay-where'), new RegExp(`^Move ${marked - 1} of`));

  // The record as text.
  const [download] = await Promise.all([ada.waitForEvent('download'), ada.getByTestId('download-record').click()]);
  const record = fs.readFileSync(await download.path(), 'utf8');
  assert.match(record, /^\[Game "cups"\]$/m);
  assert.match(record, /^\[Options "cups_per_side=3"\]$/m);
  assert.match(record, /\bresign\b/);
  const last = Number(/of (\d+)$/.exec(await text(ada, 'replay-where'))[1]);
  await ada.getByTestId('replay-last').click();
  const finalBoard = await boardCounts(ada);
  // On a phone (the board stands on its side when drawn for a portrait screen: a new page).
  await ada.setViewportSize(PHONE);
  await ada.reload();
  await analysed(ada);
  await ada.getByTestId(`move-${marked}`).click();
  await screenshot(ada, 'analysis-viewer-390');
  await ada.setViewportSize(LAPTOP);
  await ada.getByTestId('import-link').click();
  await ada.getByTestId('import-page').waitFor();
  await screenshot(ada, 'analysis-import-1280');

  // In a fresh context on a phone (no name, no token): a mistyped record is refused by line and
  // column, the downloaded one opens with the same positions.
  const { context, page: bo } = await freshPage(PHONE);
  await bo.goto(`${server.url}/#/history`);
  await bo.getByTestId('history-import').click();
  await bo.getByTestId('import-text').fill('[Game "cups"]\n[Options "cups_per_side=3"]\n\n1. S0 r9\n');
  await bo.getByTestId('import-open').click();
  await bo.waitForFunction(() => /line \d+, column \d+/.test(document.querySelector('[data-testid=import-error]').textContent));
  await screenshot(bo, 'analysis-import-error-390');
  await bo.getByTestId('import-file').setInputFiles({ name: 'game.txt', mimeType: 'text/plain', buffer: Buffer.from(record) });
  await bo.waitForFunction((wanted) => document.querySelector('[data-testid=import-text]').value === wanted, record);
  await bo.getByTestId('import-open').click();
  await bo.getByTestId('replay').waitFor();
  assert.equal(await text(bo, 'replay-where'), `Move 0 of ${last}`);
  await bo.getByTestId('replay-last').click();
  assert.deepEqual(await boardCounts(bo), finalBoard);
  // Its analysis too, and a what-if from it.
  await bo.getByTestId('analyse').click();
  await analysed(bo);
  await bo.getByTestId(`move-${marked}`).click();
  assert.deepEqual(await boardCounts(bo), markedBoard);
  assert.match(await text(bo, 'hint-mark'), new RegExp(`^Move ${marked} was`));
  await screenshot(bo, 'analysis-imported-390');
  await bo.getByTestId('try-better').click();
  await whatIf(bo, true);
  await screenshot(bo, 'analysis-whatif-390');
  await bo.getByTestId('whatif-back').click();
  await whatIf(bo, false);
  assert.deepEqual([...ada.errors, ...bo.errors], []);
  await context.close();
});

// Issue 46: a long record (a four-seat Njaka game of 2,601 entries, 28.8 KB, from the engine) is
// imported without its states: the viewer fetches them a few at a time as it steps and jumps,
// and a file larger than a record may be is refused before it is read.
test('a long record opens at once and its positions come as they are shown', async () => {
  const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/njaka-4-seats-long.txt');
  const record = fs.readFileSync(fixture, 'utf8');
  const { context, page } = await freshPage(LAPTOP);
  const pages = [];
  page.on('request', (request) => { if (/\/positions\?/.test(request.url())) pages.push(request.url()); });
  let imported = 0;
  page.on('response', async (response) => {
    if (response.url().endsWith('/api/records')) imported = (await response.body()).length;
  });
  await page.goto(`${server.url}/#/import`);
  await page.getByTestId('import-file').setInputFiles({ name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.alloc(70 * 1024, 'x') });
  await page.getByTestId('import-error').filter({ hasText: 'This record is 70 KB; a game record may be at most 64 KB.' }).waitFor();
  assert.equal(await page.getByTestId('import-text').inputValue(), '', 'not read');

  await page.getByTestId('import-file').setInputFiles({ name: 'njaka.txt', mimeType: 'text/plain', buffer: Buffer.from(record) });
  await page.waitForFunction((wanted) => document.querySelector('[data-testid=import-text]').value === wanted, record);
  await page.getByTestId('import-open').click();
  await page.getByTestId('replay').waitFor();
  const last = Number(/^Move 0 of (\d+)$/.exec(await text(page, 'replay-where'))[1]);
  assert.equal(last, 2420);
  assert.ok(imported > 0 && imported <= 10 * record.length + 64 * 1024, `the import answered ${imported} bytes`);
  assert.equal(pages.length, 1, 'one page of positions to start with');

  // Stepping on past the first page, a jump to the middle and to the end: pages as needed.
  for (let v = 1; v <= 12; v += 1) {
    await page.getByTestId('replay-next').click();
    await page.waitForFunction((want) => document.querySelector('[data-testid=replay]').dataset.version === String(want), v);
  }
  assert.equal(await text(page, 'replay-where'), `Move 12 of ${last}`);
  await page.getByTestId('replay-slider').fill('1200');
  await page.waitForFunction(() => document.querySelector('[data-testid=replay]').dataset.version === '1200');
  await page.getByTestId('replay-last').click();
  await page.waitForFunction((want) => document.querySelector('[data-testid=replay]').dataset.version === String(want), last);
  assert.equal(await text(page, 'replay-where'), `Move ${last} of ${last}`);
  assert.ok(pages.length > 2 && pages.length < 20, `${pages.length} pages fetched`);
  await screenshot(page, 'analysis-import-long-1280');
  assert.deepEqual(page.errors, []);
  await context.close();
});
