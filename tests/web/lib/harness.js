// Shared by the browser tests: a real mancala-server on a free port with a throwaway database,
// Debian's Chromium driven by playwright-core, players who pick a name, and screenshots saved
// as test artifacts.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '../../..');
export const artifacts = process.env.MANCALA_ARTIFACTS ?? path.join(repo, 'build', 'test-artifacts');
const serverBinary = process.env.MANCALA_SERVER ?? path.join(repo, 'build', 'server', 'mancala-server');
const staticDir = process.env.MANCALA_STATIC ?? path.join(repo, 'web-client');

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// `args`: more flags, like `--clock-speed 50` (clocks and grace times 50 times faster; tests only).
// `db`: a database file instead of memory, to restart a server on the same games; `port`: a
// fixed port (0: any free one), so that the pages of a killed server find its successor.
export async function startServer({ args = [], db = ':memory:', port = 0 } = {}) {
  const child = spawn(serverBinary, ['--port', String(port), '--db', db, '--static', staticDir, '--log-level', 'warn', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk) => { log += chunk; });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`mancala-server did not start:\n${out}\n${log}`)), 15000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (\S+):(\d+)/.exec(out);
      if (match) { clearTimeout(timer); resolve(`http://127.0.0.1:${match[2]}`); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`mancala-server exited (${code}):\n${out}\n${log}`)); });
    child.on('error', (error) => { clearTimeout(timer); reject(new Error(`cannot start ${serverBinary}: ${error.message}`)); });
  });
  const end = (signal) => new Promise((resolve) => { child.once('exit', resolve); child.kill(signal); });
  return { url, log: () => log, stop: () => end('SIGTERM'), crash: () => end('SIGKILL') };
}

export async function launchBrowser() {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

// A player in a fresh browser profile: opens the site and picks a name. `fakeClock`: the page's
// time runs on Playwright's clock (page.clock), which a test can stop and move by exact amounts.
// A fresh browser profile with no name chosen, at `hash` of the site: animations off, errors
// kept in `page.errors`, confirmations answered yes.
export async function newVisitor(browser, url, hash = '#/', viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(() => { if (!localStorage.getItem('mancala.animation')) localStorage.setItem('mancala.animation', '"off"'); });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (error) => page.errors.push(error.message));
  page.on('dialog', (dialog) => dialog.accept());
  await page.goto(`${url}/${hash}`);
  return page;
}

export async function newPlayer(browser, url, name, { viewport = { width: 1280, height: 900 }, speed = 'off', fakeClock = false } = {}) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript((value) => { if (!localStorage.getItem('mancala.animation')) localStorage.setItem('mancala.animation', JSON.stringify(value)); }, speed);
  if (fakeClock) await context.clock.install();
  const page = await context.newPage();
  page.socketLog = recordSocketMessages(page);
  page.errors = [];
  page.on('pageerror', (error) => page.errors.push(error.message));
  // What the page's Content-Security-Policy refuses (an inline style, a foreign script) is an error too.
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) page.errors.push(message.text());
  });
  // Confirmation questions are answered yes, unless a test sets `page.refuseDialogs`.
  page.on('dialog', (dialog) => (page.refuseDialogs ? dialog.dismiss() : dialog.accept()));
  await page.goto(url);
  await page.getByTestId('name-input').fill(name);
  await page.getByTestId('name-submit').click();
  await page.waitForSelector('[data-testid=connection][data-status=online]');
  return page;
}

// Creates a room from the lobby form: `options` maps option names to the values to pick;
// `grace` is the room's grace time in seconds; `clock` a preset of the form ('5+3', '1d', …,
// 'custom') with `clockFields` for the custom values ({'new-clock-minutes': 0.2, …}).
export async function createRoom(page, game, { options = {}, isPrivate = false, grace = null, clock = null, clockFields = {} } = {}) {
  await page.goto(new URL('/#/', page.url()).href);
  await page.getByTestId('new-game').selectOption(game);
  await fillOptions(page.getByTestId('create-form'), options);
  if (isPrivate) await page.getByTestId('new-private').check();
  if (grace !== null) {
    await unfold(page.getByTestId('new-grace'));
    await page.getByTestId('new-grace').fill(String(grace));
  }
  if (clock) await page.getByTestId('new-clock').selectOption(clock);
  for (const [testid, value] of Object.entries(clockFields)) await page.getByTestId(testid).fill(String(value));
  await page.getByTestId('create-room').click();
  await page.waitForSelector('[data-testid=room][data-room]');
  return page.getAttribute('[data-testid=room]', 'data-room');
}

// Sets option fields (`data-testid="option-<name>"`) inside `scope` (a form or a dialog).
// Options folded away under "More … options" are unfolded first.
export async function fillOptions(scope, options) {
  for (const [name, value] of Object.entries(options)) {
    const field = scope.getByTestId(`option-${name}`);
    await unfold(field);
    if (typeof value === 'boolean') await field.setChecked(value);
    else if (await field.evaluate((node) => node.tagName === 'SELECT')) await field.selectOption(JSON.stringify(value));
    else await field.fill(String(value));
  }
}

// Opens the <details> folds around a field, so that it can be filled.
export function unfold(field) {
  return field.evaluate((node) => { for (let fold = node.closest('details'); fold; fold = fold.parentElement.closest('details')) fold.open = true; });
}

export async function roomInfo(page) {
  return page.$eval('[data-testid=room]', (node) => ({ ...node.dataset }));
}

// Waits until every page shows at least this version, fully drawn.
export async function settled(pages, version) {
  for (const page of pages) {
    await page.waitForFunction((v) => {
      const room = document.querySelector('[data-testid=room]');
      return room && Number(room.dataset.version) >= v && room.dataset.settled === 'true';
    }, version, { timeout: 20000 });
  }
}

// The page whose player is to move, or null when nobody can act.
export async function pageToMove(pages) {
  for (const page of pages) {
    if ((await roomInfo(page)).myTurn === 'true') return page;
  }
  return null;
}

// Clicks one of the offered choices (board places or buttons) and waits for the next version.
export async function playChoice(page, pick = (tokens) => tokens[0]) {
  const tokens = await page.$$eval('[data-testid=board] [data-token], [data-testid=choices] [data-token]',
    (nodes) => nodes.map((node) => node.dataset.token));
  const token = pick(tokens);
  const before = Number((await roomInfo(page)).version);
  await page.locator(`[data-token="${token}"]`).first().click();
  await page.waitForFunction((v) => Number(document.querySelector('[data-testid=room]').dataset.version) > v, before, { timeout: 20000 });
  return token;
}

export async function screenshot(page, name, locator = null) {
  fs.mkdirSync(artifacts, { recursive: true });
  const file = path.join(artifacts, `${name}.png`);
  if (locator) await page.locator(locator).screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage: true });
  return file;
}

// A small deterministic random source, so a failing game can be replayed.
export function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

// The messages a page sent and received on its WebSockets, in the order they passed
// ({ sent, message }). A test that something was not sent looks at what the page sent before a
// later message it waits for: the page sends in order, so a message it sent earlier is there.
function recordSocketMessages(page) {
  const log = [];
  const parsed = (payload) => { try { return JSON.parse(payload); } catch { return { unparsed: String(payload) }; } };
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => log.push({ sent: true, message: parsed(payload) }));
    socket.on('framereceived', ({ payload }) => log.push({ sent: false, message: parsed(payload) }));
  });
  return log;
}

// Waits until the page's socket log has, from `from` on, an entry that `match` accepts; its index.
export function waitForSocketMessage(page, from, match, what) {
  return waitUntil(() => {
    const index = page.socketLog.findIndex((entry, at) => at >= from && match(entry));
    return index >= 0 ? { index } : null;
  }, { what }).then(({ index }) => index);
}

// Polls `check` (which may be async) until it returns something truthy, and returns that: for
// what no page event reports. Fails naming `what` after `timeout` ms.
export async function waitUntil(check, { what, timeout = 10000, every = 20 }) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() >= deadline) throw new Error(`waited ${timeout} ms in vain for ${what}`);
    // The browser tests' one polling pause: between two looks at something that sends no event.
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}
