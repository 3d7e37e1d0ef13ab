// Tournaments (issue 48): an account creates an arena of Cups from the tournaments page (its
// start in its own time zone, sent as UTC); four players join from the tournament page (one
// withdraws and joins again); at the start each is taken to their game; in every game the player
// later in ORDER resigns, and each goes back to the tournament page, from where the next pairing
// takes them on, until the arena's end. The standings on a watcher's page reach the scores the
// games give (a win 2, a loss 0, doubled on a streak of two wins), pushed live. Screenshots of
// the list and the tournament page at 1280 and 390 px. The winner's profile lists the arena (at
// 1280 and 390 px), the last player's does not.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, newVisitor, fillOptions, screenshot } from '../lib/harness.js';

const LAPTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const PASSWORD = 'correct horse battery';
// A tournament minute of 15 s: the arena of one minute lasts 15 s.
const MINUTE_MS = 15000;
// Who beats whom: in every game the one later in this order resigns.
const ORDER = ['Ada', 'Bo', 'Cy', 'Di'];
// Long enough for four players to join from the page before the start.
const LEAD_S = 25;

let server, browser;
before(async () => {
  server = await startServer({ args: ['--test-tournament-minute-ms', String(MINUTE_MS)] });
  browser = await launchBrowser();
});
after(async () => { await browser?.close(); await server?.stop(); });

const online = (page) => page.waitForSelector('[data-testid=connection][data-status=online]');

// A new account, signed up from the name page, in a browser set to `timezoneId`.
async function newAccount(name, { viewport = LAPTOP, timezoneId } = {}) {
  const context = await browser.newContext({ viewport, timezoneId });
  await context.addInitScript(() => { if (!localStorage.getItem('mancala.animation')) localStorage.setItem('mancala.animation', '"off"'); });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (error) => page.errors.push(error.message));
  page.on('dialog', (dialog) => dialog.accept());
  await page.goto(`${server.url}/#/`);
  await page.getByTestId('name-signup').click();
  const dialog = page.getByTestId('signup-dialog');
  await dialog.getByTestId('signup-name').fill(name);
  await dialog.getByTestId('signup-password').fill(PASSWORD);
  await dialog.getByTestId('signup-repeat').fill(PASSWORD);
  await dialog.getByTestId('signup-submit').click();
  await page.getByTestId('nav-account').waitFor();
  await online(page);
  return page;
}

// An arena of Cups (three cups a row, 3+2) from the list page's form, starting in `leadS`
// seconds; its id.
async function createArena(page, name, { leadS, minutes }) {
  await page.goto(`${server.url}/#/tournaments`);
  await page.getByTestId('tn-name').fill(name);
  await page.getByTestId('tn-game').selectOption('cups');
  await fillOptions(page.getByTestId('tournament-form'), { cups_per_side: 3 });
  await page.getByTestId('tn-minutes').fill(String(minutes));
  await page.getByTestId('tn-starts').fill(await localField(page, Date.now() + leadS * 1000));
  await page.getByTestId('tn-create').click();
  await page.waitForURL(new RegExp(`#/tournaments/[^/]+$`));
  return /#\/tournaments\/([^/?]+)/.exec(page.url())[1];
}

// The datetime-local value of `at` in the page's own time zone, to the second.
function localField(page, at) {
  return page.evaluate((at) => {
    const d = new Date(at);
    const pad = (n) => String(n).padStart(2, '0');
    // The field writes a whole minute without its seconds (and Playwright compares what it shows).
    const seconds = d.getSeconds() ? `:${pad(d.getSeconds())}` : '';
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}${seconds}`;
  }, Math.ceil(at / 1000) * 1000);
}

// A fresh browser profile with no name chosen, at `hash`.
const visitorAt = (hash, viewport = LAPTOP) => newVisitor(browser, server.url, hash, viewport);

// The arena's points for one player's results in order ('win' | 'loss'): 2 for a win, doubled
// after two wins in a row (tournaments/scoring.cpp), the streak kept.
function arenaScore(results) {
  let score = 0;
  let streak = 0;
  for (const result of results) {
    const onFire = streak >= 2;
    streak = result === 'win' ? streak + 1 : 0;
    if (result === 'win') score += onFire ? 4 : 2;
  }
  return { score, streak };
}

const standing = (page, name) => page.getByTestId(`standing-${name}`);
const roomOfUrl = (page) => /#\/room\/([^/?]+)/.exec(page.url())?.[1] ?? null;

// One player's arena: from the tournament page to each paired game, the game decided by ORDER
// (the later one resigns at once), back to the tournament page by the bar's link, until the
// page says the tournament is finished. Each game's result goes into `results` (by the loser).
async function playArena(page, name, results, rooms) {
  let last = null;
  for (;;) {
    const handle = await page.waitForFunction((last) => (location.hash.startsWith('#/room/') && location.hash !== `#/room/${last}` ? 'room'
      : document.querySelector('[data-testid=tournament-page][data-status=finished]') ? 'end' : null), last, { timeout: 60000 });
    if (await handle.jsonValue() === 'end') return;
    const roomId = roomOfUrl(page);
    last = roomId;
    await page.waitForSelector(`[data-testid=room][data-room="${roomId}"][data-settled=true]`, { timeout: 20000 });
    // The bar above a tournament's room leads back to it.
    await page.getByTestId('tournament-back').waitFor();
    const names = await Promise.all([0, 1].map((seat) => page.getByTestId(`seat-name-${seat}`).textContent()));
    assert.ok(names.includes(name), `${name} is seated in ${roomId}: ${names}`);
    const other = names.find((seated) => seated !== name);
    rooms.add(roomId);
    if (name === 'Ada' && !rooms.shot) {
      rooms.shot = true;
      await screenshot(page, 'tournament-room-bar-1280');
    }
    if (ORDER.indexOf(name) > ORDER.indexOf(other)) {
      await page.getByTestId('resign').click();
      results.push({ room: roomId, winner: other, loser: name });
    }
    await page.getByTestId('result').waitFor({ timeout: 20000 });
    await page.getByTestId('tournament-back').click();
  }
}

describe('tournaments', () => {
  let ada, id, watcher;
  const guests = {};

  it('an account creates an arena of Cups in its own time zone; the list shows it', async () => {
    ada = await newAccount('Ada', { timezoneId: 'Asia/Ho_Chi_Minh' });
    await ada.getByTestId('nav-tournaments').click();
    await ada.getByTestId('tournament-form').waitFor();
    await ada.getByTestId('tn-name').fill('Friday Cups');
    await ada.getByTestId('tn-game').selectOption('cups');
    await fillOptions(ada.getByTestId('tournament-form'), { cups_per_side: 3 });
    await ada.getByTestId('tn-clock').selectOption('3+2');
    await ada.getByTestId('tn-kind').selectOption('arena');
    await ada.getByTestId('tn-minutes').fill('1');
    // The start in the browser's own time (Vietnam, UTC+7), to the second.
    const startsAt = new Date(Math.ceil((Date.now() + LEAD_S * 1000) / 1000) * 1000);
    const local = await localField(ada, startsAt.getTime());
    const utcHour = startsAt.getUTCHours();
    assert.equal(Number(local.slice(11, 13)), (utcHour + 7) % 24, 'the field is in Vietnam time');
    await ada.getByTestId('tn-starts').fill(local);
    await screenshot(ada, 'tournaments-create-1280');
    await ada.setViewportSize(PHONE);
    await screenshot(ada, 'tournaments-create-390');
    await ada.setViewportSize(LAPTOP);
    await ada.getByTestId('tn-create').click();
    await ada.waitForURL(/#\/tournaments\/[^/]+$/);
    id = /#\/tournaments\/([^/?]+)/.exec(ada.url())[1];
    await ada.getByTestId('tournament-status').filter({ hasText: 'Upcoming' }).waitFor();

    // Sent as UTC: the server holds the same instant.
    const stored = await (await fetch(`${server.url}/api/tournaments/${id}`)).json();
    assert.equal(Date.parse(stored.starts_at), startsAt.getTime());
    assert.equal(stored.game, 'cups');
    assert.equal(stored.kind, 'arena');
    assert.deepEqual(stored.clock, { initial_s: 180, increment_s: 2 });
    // The page says the start in Vietnam's time, and the rules in words.
    const shown = await ada.evaluate((at) => new Intl.DateTimeFormat('en', { dateStyle: 'full', timeStyle: 'short' }).format(new Date(at)), stored.starts_at);
    assert.match(await ada.getByTestId('tournament-timing').textContent(), new RegExp(`Starts ${shown.replace(/[()]/g, '.')}`));
    assert.match(await ada.getByTestId('tournament-countdown').textContent(), /starts in 0:[0-2]\d/);
    const rules = await ada.getByTestId('tournament-rules').textContent();
    assert.match(rules, /An arena of 1 minute/);
    assert.match(rules, /A win gives 2 points, a draw 1, a loss 0/);
    assert.match(rules, /Two wins in a row/);
    assert.match(await ada.getByTestId('tournament-facts').textContent(), /Cups · Arena · 3 min \+ 2 s · casual/);

    // The list: upcoming, with its game, kind, clock, start and number of players.
    await ada.getByTestId('tournaments-all').click();
    const card = ada.getByTestId(`tournament-${id}`);
    await card.waitFor();
    assert.equal(await ada.getByTestId('tournaments-upcoming').getByTestId(`tournament-${id}`).count(), 1);
    const listed = await ada.evaluate((at) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at)), stored.starts_at);
    assert.match(await card.textContent(), new RegExp(`Friday Cups.*Cups · Arena · 3 min \\+ 2 s.*Starts ${listed}.*0 players`));
    await ada.getByTestId(`tournament-link-${id}`).click();
    await ada.getByTestId('tournament-join').click();
    await ada.getByTestId('standing-Ada').waitFor();
    assert.equal(await ada.getByTestId('tournament-you').count(), 1);
  });

  it('three guests join from the page; one withdraws and joins again', async () => {
    for (const name of ['Bo', 'Cy']) {
      const page = await newPlayer(browser, server.url, name);
      guests[name] = page;
      await page.goto(`${server.url}/#/tournaments/${id}`);
      await page.getByTestId('tournament-join').click();
      await page.getByTestId(`standing-${name}`).waitFor();
    }
    // Di comes by the link with no name yet: the page is open to read; joining asks the name
    // and comes back to the page.
    const di = await visitorAt(`#/tournaments/${id}`);
    guests.Di = di;
    await standing(di, 'Cy').waitFor();
    await di.getByTestId('tournament-pick-name').click();
    await di.getByTestId('name-input').fill('Di');
    await di.getByTestId('name-submit').click();
    await online(di);
    await di.getByTestId('tournament-join').click();
    await standing(di, 'Di').waitFor();
    await di.getByTestId('tournament-withdraw').click();
    await di.getByTestId('tournament-join').waitFor();
    assert.equal(await di.getByTestId('standing-Di').count(), 0);
    await di.getByTestId('tournament-join').click();
    await di.getByTestId('standing-Di').waitFor();
    // Pushed to the others: Ada's page has all four without a reload.
    for (const name of ORDER) await standing(ada, name).waitFor();
    assert.match(await ada.getByTestId('tournament-standings').textContent(), /Standings \(4 players\)/);

    // A watcher with a name (who does not play) follows it live, at 1280 px.
    watcher = await newPlayer(browser, server.url, 'Eve');
    await watcher.goto(`${server.url}/#/tournaments`);
    await watcher.getByTestId(`tournament-entrants-${id}`).filter({ hasText: '4 players' }).waitFor();
    await screenshot(watcher, 'tournaments-list-1280');
    const phone = await newPlayer(browser, server.url, 'Fay', { viewport: PHONE });
    await phone.goto(`${server.url}/#/tournaments`);
    await phone.getByTestId(`tournament-${id}`).waitFor();
    await screenshot(phone, 'tournaments-list-390');
    await phone.goto(`${server.url}/#/tournaments/${id}`);
    await standing(phone, 'Di').waitFor();
    await screenshot(phone, 'tournament-upcoming-390');
    await phone.context().close();
    await watcher.goto(`${server.url}/#/tournaments/${id}`);
    await standing(watcher, 'Di').waitFor();
    assert.equal(await watcher.getByTestId('tournament-join').count(), 1, 'Eve may join too');
  });

  it('at the start each player is taken to a game; they play until the end; the standings add up', async () => {
    const players = { Ada: ada, ...guests };
    const results = [];
    const rooms = new Set();
    // The watcher sees it start and the games being played, pushed.
    const playing = Promise.all(ORDER.map((name) => playArena(players[name], name, results, rooms)));
    await watcher.getByTestId('tournament-status').filter({ hasText: 'Running' }).waitFor({ timeout: (LEAD_S + 10) * 1000 });
    await watcher.locator('[data-testid^=tournament-room-]').first().waitFor();
    await watcher.locator('[data-testid^=playing-]').first().waitFor();
    await screenshot(watcher, 'tournament-running-1280');
    await playing;
    assert.ok(rooms.size >= 2, `at least the first round's two games were played: ${rooms.size}`);
    assert.equal(results.length, rooms.size, 'every game was decided');

    // What the games give, each player's results in the order they were played.
    const expected = Object.fromEntries(ORDER.map((name) => {
      const mine = results.filter((r) => r.winner === name || r.loser === name).map((r) => (r.winner === name ? 'win' : 'loss'));
      return [name, { ...arenaScore(mine), games: mine.length }];
    }));
    await watcher.getByTestId('tournament-status').filter({ hasText: 'Finished' }).waitFor({ timeout: 20000 });
    for (const name of ORDER) {
      const row = standing(watcher, name);
      await watcher.waitForFunction(({ name, score, games }) => {
        const node = document.querySelector(`[data-testid="standing-${name}"]`);
        return node && Number(node.dataset.score) === score && Number(node.dataset.games) === games;
      }, { name, ...expected[name] }, { timeout: 10000 });
      assert.equal(await watcher.getByTestId(`score-${name}`).textContent(), String(expected[name].score));
      assert.equal(await row.locator('[data-testid^=streak-]').count(), expected[name].streak >= 2 ? 1 : 0, `${name}'s flames`);
    }
    // Ranked by score; Ada, who beats everyone, scored; Di, who loses to everyone, did not.
    const ranked = await watcher.locator('table.standings tbody tr').evaluateAll((rows) => rows.map((row) => Number(row.dataset.score)));
    assert.deepEqual(ranked, [...ranked].sort((a, b) => b - a));
    assert.ok(expected.Ada.score > 0 && expected.Di.score === 0, JSON.stringify(expected));
    await screenshot(watcher, 'tournament-finished-1280');

    // The winner's profile (from the standings) lists the arena with a link back; the last's does
    // not. The best score may be shared: all who share it won.
    const best = Math.max(...ORDER.map((name) => expected[name].score));
    const winner = ORDER.find((name) => expected[name].score === best);
    const winnerHref = await standing(watcher, winner).locator('.player-link').getAttribute('href');
    const loserHref = await standing(watcher, 'Di').locator('.player-link').getAttribute('href');
    const winnerId = decodeURIComponent(winnerHref.replace('#/player/', ''));
    // The live arena says finished a moment before the database does: wait for the stored win.
    await watcher.waitForFunction(async ({ player, id }) => {
      const profile = await (await fetch(`/api/players/${encodeURIComponent(player)}`)).json();
      return profile.tournaments_won?.some((won) => won.id === id);
    }, { player: winnerId, id }, { timeout: 10000, polling: 200 });
    await standing(watcher, winner).locator('.player-link').click();
    const won = watcher.getByTestId('profile-tournaments-won');
    await won.getByTestId(`won-${id}`).waitFor();
    assert.match(await won.textContent(), /Tournaments won/);
    assert.match(await won.getByTestId(`won-${id}`).textContent(), /Cups · Arena · Ended /);
    assert.equal(await won.getByTestId(`won-link-${id}`).getAttribute('href'), `#/tournaments/${id}`);
    assert.equal(await won.locator('svg.trophy').count(), 2, 'a drawn trophy by the heading and the tournament');
    await screenshot(watcher, 'profile-tournaments-won-1280');
    await watcher.goto(`${server.url}/${loserHref}`);
    await watcher.getByTestId('profile-name').filter({ hasText: 'Di' }).waitFor();
    assert.equal(await watcher.getByTestId('profile-tournaments-won').count(), 0, 'the last won nothing');

    // The list has it among the finished.
    await watcher.goto(`${server.url}/#/tournaments`);
    await watcher.getByTestId('tournaments-finished').getByTestId(`tournament-${id}`).waitFor();
    const phone = await newPlayer(browser, server.url, 'Gus', { viewport: PHONE });
    await phone.goto(`${server.url}/#/tournaments/${id}`);
    await standing(phone, 'Ada').waitFor();
    await screenshot(phone, 'tournament-finished-390');
    await phone.goto(`${server.url}/${winnerHref}`);
    await phone.getByTestId('profile-tournaments-won').getByTestId(`won-link-${id}`).click();
    await phone.waitForURL(new RegExp(`#/tournaments/${id}$`));
    await phone.goto(`${server.url}/${winnerHref}`);
    await phone.getByTestId(`won-${id}`).waitFor();
    await screenshot(phone, 'profile-tournaments-won-390');
    for (const page of [ada, ...Object.values(guests), watcher, phone]) assert.deepEqual(page.errors, []);
    await phone.context().close();
  });

  it('a player pauses during an arena (the game goes on and counts), then rejoins and is paired again', async () => {
    const { Bo: bo, Cy: cy } = guests;
    const second = await createArena(ada, 'Pause Cups', { leadS: 8, minutes: 2 });
    for (const page of [bo, cy]) {
      await page.goto(`${server.url}/#/tournaments/${second}`);
      await page.getByTestId('tournament-join').click();
    }
    await standing(bo, 'Cy').waitFor();
    // At the start both are taken to their game.
    const [boRoom, cyRoom] = await Promise.all([bo, cy].map(async (page) => {
      await page.waitForURL(/#\/room\//, { timeout: 20000 });
      return roomOfUrl(page);
    }));
    assert.equal(boRoom, cyRoom);
    // Cy goes back to the page during the game: not sent back to it, but offered it; she pauses.
    await cy.waitForSelector(`[data-testid=room][data-room="${cyRoom}"][data-settled=true]`);
    await cy.getByTestId('tournament-back').click();
    await cy.getByTestId('tournament-my-game').waitFor();
    await cy.getByTestId('tournament-pause').click();
    await cy.getByTestId('tournament-rejoin').waitFor();
    await cy.getByTestId('paused-Cy').waitFor();
    // The game goes on: she resigns it, and it counts for Bo.
    await cy.getByTestId('tournament-my-game').click();
    await cy.getByTestId('resign').click();
    for (const page of [bo, cy]) await page.getByTestId('result').waitFor();
    await bo.getByTestId('tournament-back').click();
    await bo.waitForFunction(() => document.querySelector('[data-testid="standing-Bo"]')?.dataset.score === '2');
    assert.equal(await bo.getByTestId('tournament-you').textContent(), 'Waiting for your next opponent: stay on this page to be taken to your game.');
    // Paused, Cy gets no new game; once she rejoins, both are taken to the next one.
    await cy.getByTestId('tournament-back').click();
    await cy.getByTestId('paused-Cy').waitFor();
    assert.equal(await cy.getByTestId('tournament-my-game').count(), 0);
    await cy.getByTestId('tournament-rejoin').click();
    const [boNext, cyNext] = await Promise.all([bo, cy].map(async (page) => {
      await page.waitForURL((url) => url.hash.startsWith('#/room/') && !url.hash.endsWith(boRoom), { timeout: 20000 });
      return roomOfUrl(page);
    }));
    assert.equal(boNext, cyNext);
    for (const page of [bo, cy]) assert.deepEqual(page.errors, []);
  });

  it('a rated round robin: its rules in words, refused to a guest in words, read in German on a phone', async () => {
    await ada.goto(`${server.url}/#/tournaments`);
    await ada.getByTestId('tn-name').fill('Sunday round robin');
    await ada.getByTestId('tn-game').selectOption('cups');
    await ada.getByTestId('tn-clock').selectOption('none');
    await ada.getByTestId('tn-kind').selectOption('round_robin');
    assert.equal(await ada.getByTestId('tn-minutes').isVisible(), false, 'a round robin has no length');
    await ada.getByTestId('tn-rated').check();
    await ada.getByTestId('tn-starts').fill(await localField(ada, Date.now() + 3600 * 1000));
    await ada.getByTestId('tn-create').click();
    await ada.waitForURL(/#\/tournaments\/[^/]+$/);
    const robin = /#\/tournaments\/([^/?]+)/.exec(ada.url())[1];
    // No clock given: a day per move, as the server sets it.
    await ada.getByTestId('tournament-facts').filter({ hasText: 'Cups · Round robin · 1 day per move · Rated' }).waitFor();
    const rules = await ada.getByTestId('tournament-rules').textContent();
    assert.match(rules, /every pair of players meets once/);
    assert.match(rules, /A win gives 1 point, a draw ½, a loss 0/);
    await ada.getByTestId('tournament-join').click();
    await standing(ada, 'Ada').waitFor();

    // A guest may read it, but the server refuses him a rated tournament: said in words.
    await watcher.goto(`${server.url}/#/tournaments/${robin}`);
    await watcher.getByTestId('tournament-join').click();
    await watcher.getByTestId('error').filter({ hasText: 'Only players with an account can play a rated tournament' }).waitFor();

    // In German, on a phone.
    const context = await browser.newContext({ viewport: PHONE, locale: 'de-DE', timezoneId: 'Europe/Berlin' });
    const page = await context.newPage();
    page.errors = [];
    page.on('pageerror', (error) => page.errors.push(error.message));
    await page.goto(`${server.url}/#/tournaments/${robin}`);
    await page.getByTestId('tournament-facts').filter({ hasText: 'Rundenturnier' }).waitFor();
    assert.match(await page.getByTestId('tournament-rules').textContent(), /Ein Sieg bringt 1 Punkt, ein Remis ½, eine Niederlage 0/);
    assert.match(await page.getByTestId('tournament-countdown').textContent(), /^beginnt in (59:\d\d|1:00:00)$/);
    await screenshot(page, 'tournament-round-robin-de-390');
    await page.goto(`${server.url}/#/tournaments`);
    await page.getByTestId('tournaments-upcoming').getByTestId(`tournament-${robin}`).waitFor();
    await screenshot(page, 'tournaments-list-de-390');
    assert.deepEqual(page.errors, []);
    await context.close();
  });
});
