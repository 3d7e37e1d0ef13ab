// Takes the screenshots in docs/screenshots/: the lobby, every board against the computer a few
// moves in, and the history viewer on the Cups game, analysed, at 1280×860 (what a laptop shows without scrolling: <name>.png, as the README
// shows them) and 390×844 (a phone, the whole page: <name>-phone.png). Run by hand after a change to the look: `node scripts/screenshots.js`
// (MANCALA_SERVER names the server binary, as for the tests).
import path from 'node:path';
import { startServer, launchBrowser, newPlayer, createRoom, repo, seeded } from '../lib/harness.js';
import { playComputer, clickChoice, waitForChoices } from '../lib/computer.js';

const OUT = process.env.SCREENSHOTS ?? path.join(repo, 'docs', 'screenshots');
const SIZES = { '': { width: 1280, height: 860 }, '-phone': { width: 390, height: 844 } };
const GAMES = [
  { game: 'cups', moves: 5 },
  { game: 'coin_duel', moves: 4 },
  { game: 'oanquan', moves: 4 },
  { game: 'njaka', moves: 4, opponents: 2 },
  { game: 'duovallis', moves: 4 },
];
const only = process.argv.slice(2);

const server = await startServer();
const browser = await launchBrowser();
try {
  // Someone else's open room, so that the lobby shows a room card (host, age, clock).
  const host = await newPlayer(browser, server.url, 'Bao');
  await createRoom(host, 'oanquan', { clock: '5+3' });
  for (const [size, viewport] of Object.entries(SIZES)) {
    const page = await newPlayer(browser, server.url, 'Ada', { viewport });
    await page.getByTestId('play-computer').waitFor();
    if (!only.length || only.includes('lobby')) await page.screenshot({ path: path.join(OUT, `lobby${size}.png`), fullPage: size === '-phone' });
    const rooms = {};
    for (const { game, moves, opponents = null } of GAMES) {
      if (only.length && !only.includes(game) && !(game === 'cups' && only.includes('history'))) continue;
      rooms[game] = await playComputer(page, game, { level: 2, starter: 'you', opponents });
      const random = seeded(7);
      for (let i = 0; i < moves; i += 1) {
        await waitForChoices(page);
        await clickChoice(page, (tokens) => tokens[Math.floor(random() * tokens.length)]);
      }
      await waitForChoices(page);
      // A Plex! result floats over the page for a few seconds: wait until it is gone.
      await page.waitForSelector('[data-testid=plex]', { state: 'hidden', timeout: 10000 });
      if (!only.length || only.includes(game)) await page.screenshot({ path: path.join(OUT, `${game}${size}.png`), fullPage: size === '-phone' });
    }
    if (!only.length || only.includes('history')) await historyShot(page, rooms.cups, size);
    if (page.errors.length) console.error(page.errors);
    await page.context().close();
  }
} finally {
  await browser.close();
  await server.stop();
}

// The history viewer on the Cups game just played, ended by resigning and analysed, on its first
// marked move (else three moves in): the evaluation graph, the position and the best move in
// words, the board with the best move pointed out, the move list with its marks.
async function historyShot(page, room, size) {
  await page.goto(new URL(`/#/room/${room}`, page.url()).href);
  await page.getByTestId('resign').click();
  await page.getByTestId('analyse-game').click();
  await page.waitForSelector('[data-testid=analysis][data-status=done] [data-testid=eval-graph]', { timeout: 120000 });
  const marked = await page.$$eval('[data-testid^=mark-]', (nodes) => nodes.map((node) => node.dataset.testid.slice('mark-'.length)));
  await page.getByTestId(`move-${marked[0] ?? 3}`).click();
  await page.screenshot({ path: path.join(OUT, `history${size}.png`), fullPage: size === '-phone' });
}
