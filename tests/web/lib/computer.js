// Helpers for games against the computer: start one from the lobby's "Play the computer" card,
// and play it to the end by clicking the choices the page offers (board places or buttons).
import { fillOptions, roomInfo } from './harness.js';

const OFFERED = '[data-testid=board] [data-token], [data-testid=choices] [data-token]';

// Clicks the game's button, sets what is asked (who starts, opponents, options behind "More
// options"), then clicks the level. With nothing asked that is two clicks. Returns the room id.
export async function playComputer(page, game, { level = 1, starter = null, opponents = null, options = {}, beforeStart = null } = {}) {
  await page.goto(new URL('/#/', page.url()).href);
  await page.getByTestId(`play-computer-${game}`).click();
  const dialog = page.getByTestId('bot-dialog');
  await dialog.waitFor();
  if (starter) await dialog.getByTestId(`bot-starter-${starter}`).check();
  if (opponents !== null) await dialog.getByTestId('bot-opponents').selectOption(String(opponents));
  if (Object.keys(options).length) {
    await dialog.getByText('More options').click();
    await fillOptions(dialog, options);
  }
  await beforeStart?.(dialog);
  await dialog.getByTestId(`bot-level-${level}`).click();
  await page.waitForSelector('[data-testid=room][data-room]');
  await dialog.waitFor({ state: 'detached' });
  return page.getAttribute('[data-testid=room]', 'data-room');
}

const offered = (page) => page.$$eval(OFFERED, (nodes) => nodes.map((node) => node.dataset.token));

// Waits until the player may act (returns 'turn'), a Plex! window this player has not called
// yet is open ('plex:<window>'), or the game is over and drawn ('finished').
async function nextThing(page, calledWindows) {
  const handle = await page.waitForFunction(({ called, selector }) => {
    const room = document.querySelector('[data-testid=room]')?.dataset;
    if (!room) return false;
    if (room.status === 'finished' && room.settled === 'true') return 'finished';
    const plex = document.querySelector('[data-testid=plex-button]');
    if (plex && !called.includes(plex.dataset.window)) return `plex:${plex.dataset.window}`;
    return room.myTurn === 'true' && document.querySelectorAll(selector).length > 0 ? 'turn' : false;
  }, { called: calledWindows, selector: OFFERED }, { timeout: 30000, polling: 50 });
  return handle.jsonValue();
}

// Waits until the player may act ('turn'), the game is over ('finished') or, in Njaka's game,
// a Plex! race is open ('plex:<window>'). A computer's replies differ from run to run, and some
// games can end after a few moves (O An Quan, when both big stones fall early).
export const waitForTurnOrEnd = (page) => nextThing(page, []);

// Waits until the player may act and the page offers choices.
export async function waitForChoices(page, timeout = 30000) {
  await page.waitForFunction((selector) => document.querySelector('[data-testid=room]')?.dataset.myTurn === 'true' &&
    document.querySelectorAll(selector).length > 0, OFFERED, { timeout, polling: 50 });
}

// One click on an offered choice; waits until it was sent and answered (a new version) or it
// only led to the next choice (O An Quan: a square first, then its direction).
export async function clickChoice(page, pick) {
  const tokens = await offered(page);
  const token = pick(tokens);
  const before = Number((await roomInfo(page)).version);
  await page.locator(`[data-token="${token}"]`).first().click();
  await page.waitForFunction(({ v, shown, selector }) => {
    const room = document.querySelector('[data-testid=room]').dataset;
    if (Number(room.version) > v) return true;
    const now = [...document.querySelectorAll(selector)].map((node) => node.dataset.token);
    return room.myTurn === 'true' && now.length > 0 && JSON.stringify(now) !== JSON.stringify(shown);
  }, { v: before, shown: tokens, selector: OFFERED }, { timeout: 20000, polling: 50 });
  return token;
}

// Plays until the game is over, picking among the offered choices with `random`; calls Plex!
// once in every race it sees. Returns how many clicks it took.
export async function playToEnd(page, random, { maxClicks = 600, onClick = null } = {}) {
  const called = [];
  let clicks = 0;
  for (;;) {
    const next = await nextThing(page, called);
    if (next === 'finished') return clicks;
    if (next.startsWith('plex:')) {
      called.push(next.slice('plex:'.length));
      // The computers race too: the button may be gone before the click lands.
      await page.getByTestId('plex-button').click({ timeout: 1000 }).catch(() => {});
      continue;
    }
    await clickChoice(page, (tokens) => tokens[Math.floor(random() * tokens.length)]);
    clicks += 1;
    await onClick?.(clicks);
    if (clicks >= maxClicks) throw new Error(`no end after ${clicks} clicks`);
  }
}
