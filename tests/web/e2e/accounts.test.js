// Accounts, ratings, profiles and leaderboards (issue 31), against a server with the accounts
// API: a guest plays a casual Cups game, signs up and still finds it among their games; two
// accounts play a rated game to its end and both ratings move; one of them logs in from a fresh
// browser and sees the same profile, rating and graph, then changes the password (which ends the
// other session); a reset link from the operator sets a new one. Then three accounts play enough
// rated games for their ratings to settle, and the profile and the leaderboard are shot at
// 1280×860 and 390×844. The steps build on each other, so the tests run in order.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServer, launchBrowser, newPlayer, newVisitor, createRoom, roomInfo, settled, playChoice, fillOptions, screenshot } from '../lib/harness.js';

const LAPTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };
const PASSWORD = 'correct horse battery';
const serverBinary = process.env.MANCALA_SERVER;
const db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mancala-accounts-')), 'games.db');
let server, browser;
before(async () => { server = await startServer({ db }); browser = await launchBrowser(); });
after(async () => {
  await browser?.close();
  await server?.stop();
  fs.rmSync(path.dirname(db), { recursive: true, force: true });  // its accounts stay nowhere
});

const text = (page, testid) => page.getByTestId(testid).first().textContent();
const storedIdentity = (page) => page.evaluate(() => localStorage.getItem('mancala.identity'));
const online = (page) => page.waitForSelector('[data-testid=connection][data-status=online]');

// A fresh browser profile (no name chosen yet), on the name page or at `hash`.
async function visitor(viewport = LAPTOP, hash = '#/') {
  const page = await newVisitor(browser, server.url, hash, viewport);
  if (hash === '#/') await page.getByTestId('name-page').waitFor();
  return page;
}

// Fills and sends the sign-up or log-in dialog (opened already).
async function sendAccountForm(page, kind, name, password = PASSWORD) {
  const dialog = page.getByTestId(`${kind}-dialog`);
  await dialog.waitFor();
  await dialog.getByTestId(`${kind}-name`).fill(name);
  await dialog.getByTestId(`${kind}-password`).fill(password);
  if (kind === 'signup') await dialog.getByTestId('signup-repeat').fill(password);
  await dialog.getByTestId(`${kind}-submit`).click();
}

// Logged in: the dialog is gone, the header names the account, no guest mark, no token kept.
async function loggedInAs(page, name) {
  await page.getByTestId('nav-account').waitFor();
  await online(page);
  assert.equal(await text(page, 'my-name'), name);
  assert.equal(await page.locator('.who .tag.guest').count(), 0);
  assert.equal(await storedIdentity(page), null, 'an account keeps no token in localStorage');
}

// A new visitor who creates an account from the name page.
async function newAccount(name, viewport = LAPTOP) {
  const page = await visitor(viewport);
  await page.getByTestId('name-signup').click();
  await sendAccountForm(page, 'signup', name);
  // Nobody's games to keep: the welcome does not say any were kept.
  await page.getByTestId('notice').filter({ hasText: `Account created: you are ${name}.` }).waitFor();
  await loggedInAs(page, name);
  return page;
}

async function profileRating(page, name, game = 'cups') {
  await page.goto(`${server.url}/#/player/${name}`);
  await page.getByTestId('profile-name').waitFor();
  return text(page, `rating-value-${game}`);
}

// A rated Cups room from the lobby form, the creator moving first.
async function createRatedRoom(page) {
  await page.goto(`${server.url}/#/`);
  await page.getByTestId('new-game').selectOption('cups');
  await fillOptions(page.getByTestId('create-form'), { cups_per_side: 3, first_player: 0 });
  await page.getByTestId('new-rated').check();
  await page.getByTestId('create-room').click();
  await page.waitForSelector('[data-testid=room][data-room]');
  return page.getAttribute('[data-testid=room]', 'data-room');
}

const shared = {};   // what one step leaves to the next

describe('accounts', () => {
  it('a guest plays a casual game, signs up, and keeps it', async () => {
    // An account called Zed exists already (made through the API, as any client may).
    const made = await fetch(`${server.url}/api/accounts`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Zed', password: PASSWORD }) });
    assert.equal(made.status, 201);

    const ada = await newPlayer(browser, server.url, 'Ada the guest');
    const bo = await newPlayer(browser, server.url, 'Bo');
    assert.equal(await ada.locator('.who .tag.guest').count(), 1, 'the header marks a guest');
    const roomId = await createRoom(ada, 'cups', { options: { cups_per_side: 3 }, isPrivate: true });
    // A guest cannot make a rated room: the box is off, and the form says why.
    await ada.goto(`${server.url}/#/`);
    assert.equal(await ada.getByTestId('new-rated').isDisabled(), true);
    assert.match(await text(ada, 'rated-hint'), /account/);
    await ada.goto(`${server.url}/#/room/${roomId}`);
    await bo.goto(await ada.getByTestId('invite-link').inputValue());
    await settled([ada, bo], 0);
    for (const seat of [0, 1]) assert.equal(await ada.locator(`[data-testid=seat-${seat}] .tag.guest`).count(), 1, `seat ${seat} is a guest's`);
    await bo.getByTestId('resign').click();
    await ada.getByTestId('result').waitFor();
    assert.equal((await roomInfo(ada)).status, 'finished');

    // Sign up: the guest's name is offered; problems are said next to their field.
    await ada.getByTestId('sign-up').click();
    const dialog = ada.getByTestId('signup-dialog');
    assert.equal(await dialog.getByTestId('signup-name').inputValue(), 'Ada the guest');
    await dialog.getByTestId('signup-password').fill('short');
    await dialog.getByTestId('signup-submit').click();
    assert.match(await text(ada, 'signup-name-problem'), /no spaces/);
    assert.match(await text(ada, 'signup-password-problem'), /at least 10/);
    assert.match(await text(ada, 'signup-repeat-problem'), /differ/);
    await sendAccountForm(ada, 'signup', 'zed');
    await ada.getByTestId('signup-name-problem').filter({ hasText: /taken/ }).waitFor();
    await screenshot(ada, 'accounts-signup-refused');
    await sendAccountForm(ada, 'signup', 'Ada');
    await ada.getByTestId('notice').filter({ hasText: 'Account created: you are Ada, with your games kept.' }).waitFor();
    await loggedInAs(ada, 'Ada');
    // Signed up in a room, Ada stays there; the header leads to the account.
    assert.equal(new URL(ada.url()).hash, `#/room/${roomId}`);
    await ada.getByTestId('nav-account').click();
    await ada.getByTestId('account-page').waitFor();
    assert.equal(await ada.getByTestId('this-device').count(), 1);

    // The game Ada played as a guest is hers still.
    await ada.goto(`${server.url}/#/player/Ada`);
    assert.equal(await text(ada, 'profile-name'), 'Ada');
    await ada.getByTestId(`history-game-${roomId}`).waitFor();
    assert.equal(await ada.locator('[data-testid=profile] .tag.guest').count(), 0);
    assert.match(await text(ada, 'profile-totals'), /1 game played · 1 won/);
    assert.deepEqual([...ada.errors, ...bo.errors], []);
  });

  it('two accounts play a rated game to its end, and both ratings move', async () => {
    const cleo = await newAccount('Cleo');
    const dan = await newAccount('Dan');
    const roomId = await createRatedRoom(cleo);
    await cleo.getByTestId('room-rated').waitFor();
    assert.equal(await text(cleo, 'seat-rating-0'), '1500?');

    // Bo, a guest, sees the rated room but may only watch it.
    const bo = await newPlayer(browser, server.url, 'Bo');
    await bo.goto(`${server.url}/#/`);
    await bo.getByTestId(`room-rated-${roomId}`).waitFor();
    assert.equal(await bo.getByTestId(`join-${roomId}`).count(), 0, 'no Join for a guest');
    await bo.getByTestId(`watch-${roomId}`).click();
    await bo.getByTestId('sign-up-to-sit-1').waitFor();
    assert.equal(await bo.getByTestId('sit-1').count(), 0);
    await screenshot(bo, 'accounts-rated-room-guest');

    await dan.goto(`${server.url}/#/`);
    await dan.getByTestId(`join-${roomId}`).click();
    await settled([cleo, dan], 0);
    for (const page of [cleo, dan]) {
      assert.equal(await text(page, 'seat-rating-0'), '1500?');
      assert.equal(await text(page, 'seat-rating-1'), '1500?');
      assert.equal(await page.locator('[data-testid=seat-name-1] a').getAttribute('href'), '#/player/Dan');
      assert.equal(await page.getByTestId('seat-account-1').getAttribute('title'), 'An account: this name is theirs alone');
    }
    await playChoice(cleo);
    await settled([cleo, dan], 1);
    await dan.getByTestId('resign').click();
    for (const page of [cleo, dan]) {
      await page.getByTestId('result').waitFor();
      assert.match(await text(page, 'result'), /Cleo wins/);
      // The result says what the game did to both ratings, and what the "?" means (issue 49).
      await page.getByTestId('rating-changes').waitFor();
      const changes = await text(page, 'rating-changes');
      assert.match(changes, /Cleo: rating 1500\? → \d+\? \(\+\d+\)/);
      assert.match(changes, /Dan: rating 1500\? → \d+\? \(−\d+\)/);
      assert.match(await text(page, 'result'), /provisional rating/);
    }
    await screenshot(cleo, 'accounts-rated-result');

    // Both ratings moved, the winner's up and the loser's down, each still provisional.
    const cleoRating = await profileRating(cleo, 'Cleo');
    const danRating = await profileRating(dan, 'Dan');
    assert.match(cleoRating, /^\d+\?$/);
    assert.ok(parseInt(cleoRating, 10) > 1500, `Cleo ${cleoRating}`);
    assert.ok(parseInt(danRating, 10) < 1500, `Dan ${danRating}`);
    await cleo.getByTestId(`graph-point-${roomId}`).waitFor();
    assert.match(await text(cleo, 'profile-totals'), /1 game played · 1 won · 0 drawn · 0 lost/);
    // A point of the graph opens the game's replay, whose seats show the ratings.
    await cleo.getByTestId(`graph-point-${roomId}`).click();
    await cleo.getByTestId('replay-where').waitFor();
    assert.equal(new URL(cleo.url()).hash, `#/history/${roomId}`);
    await cleo.getByTestId('replay-rating-1').filter({ hasText: danRating }).waitFor();
    assert.deepEqual([...cleo.errors, ...dan.errors, ...bo.errors], []);
    Object.assign(shared, { cleo, dan, cleoRating, roomId });
  });

  it('logs in from a fresh browser to the same profile; a new password ends the other session', async () => {
    const { cleo, cleoRating, roomId } = shared;
    // A visitor may not take an account's name as a guest.
    const page = await visitor(LAPTOP);
    await page.getByTestId('name-input').fill('cleo');
    await page.getByTestId('name-submit').click();
    await page.getByTestId('name-problem').filter({ hasText: /account/ }).waitFor();

    await page.getByTestId('name-login').click();
    await sendAccountForm(page, 'login', 'Cleo', 'not the password');
    await page.getByTestId('login-problem').filter({ hasText: 'Wrong name or password.' }).waitFor();
    await sendAccountForm(page, 'login', 'Cleo');
    await loggedInAs(page, 'Cleo');
    assert.equal(await profileRating(page, 'Cleo'), cleoRating);
    await page.getByTestId(`graph-point-${roomId}`).waitFor();

    await page.goto(`${server.url}/#/account`);
    await page.getByTestId('this-device').waitFor();
    assert.equal(await page.locator('[data-testid=sessions] > li').count(), 2);
    await page.getByTestId('current-password').fill(PASSWORD);
    await page.getByTestId('new-password').fill(`${PASSWORD}!`);
    await page.getByTestId('new-repeat').fill(`${PASSWORD}!`);
    await page.getByTestId('change-password-submit').click();
    await page.locator('[data-testid=sessions] > li').nth(1).waitFor({ state: 'detached' });
    await screenshot(page, 'accounts-account-page');

    // The first browser's session has ended: its open page is told at once (the server closed
    // its connection, and the reconnection's hello is refused) and is a new visitor again.
    await cleo.getByTestId('error').filter({ hasText: 'Your session has ended' }).waitFor();
    await cleo.getByTestId('name-page').waitFor();
    await screenshot(cleo, 'accounts-session-ended-elsewhere');
    assert.equal(await cleo.getByTestId('my-name').count(), 0);
    await cleo.reload();
    await cleo.getByTestId('name-page').waitFor();
    assert.equal(await cleo.getByTestId('my-name').count(), 0);

    // Log out: back to the name page, with nothing kept.
    await page.getByTestId('log-out').click();
    await page.getByTestId('name-page').waitFor();
    assert.equal(await page.getByTestId('my-name').count(), 0);
    assert.equal(await storedIdentity(page), null);
    assert.deepEqual([...page.errors, ...cleo.errors], []);
    shared.cleoPassword = `${PASSWORD}!`;
  });

  it('tells a visitor with a link what it leads to, and lands them in the room after the name or the log-in', async () => {
    const { dan } = shared;
    // A private invite: the name page reads what it opens (/api/invites), an unknown one says so;
    // once in the room, the invite's sentence again.
    await dan.goto(`${server.url}/#/`);
    const roomId = await createRoom(dan, 'cups', { isPrivate: true, clock: '5+3' });
    const link = await dan.getByTestId('invite-link').inputValue();
    const stranger = await visitor(PHONE, '#/join/no-such-invite');
    await stranger.getByTestId('invite-sentence').filter({ hasText: 'This invite link is unknown, or its room expired.' }).waitFor();
    await stranger.context().close();
    const guest = await visitor(PHONE, `#/join/${link.split('#/join/')[1]}`);
    await guest.getByTestId('invite-sentence').filter({ hasText: 'Dan invites you to Cups, 5 min + 3 s' }).waitFor();
    await screenshot(guest, 'accounts-name-page-invite-390');
    await guest.getByTestId('name-input').fill('Hal');
    await guest.getByTestId('name-submit').click();
    await guest.getByTestId('notice').filter({ hasText: 'Dan invites you to Cups, 5 min + 3 s' }).waitFor();
    await settled([guest, dan], 0);
    assert.equal((await roomInfo(guest)).room, roomId);
    assert.equal(await guest.locator('[data-testid=seat-0] .rating').count(), 1, 'Dan\'s seat shows his rating');
    assert.equal(await guest.locator('[data-testid=seat-1] .tag.guest').count(), 1, 'Hal is a guest');

    // A room link of a public game being played: the history API knows it before any hello.
    // Logging in from the name page lands in the room too.
    const publicId = await createRoom(dan, 'cups', { clock: '5+3' });
    await guest.goto(`${server.url}/#/`);
    await guest.getByTestId(`join-${publicId}`).click();
    await settled([guest, dan], 0);
    const watcher = await visitor(LAPTOP, `#/room/${publicId}`);
    await watcher.getByTestId('invite-sentence').filter({ hasText: 'Dan and Hal are playing Cups, 5 min + 3 s: you can watch.' }).waitFor();
    await screenshot(watcher, 'accounts-name-page-room-1280');
    await watcher.getByTestId('name-login').click();
    await sendAccountForm(watcher, 'login', 'Cleo', shared.cleoPassword);
    await loggedInAs(watcher, 'Cleo');
    await settled([watcher], 0);
    assert.equal((await roomInfo(watcher)).room, publicId);
    await watcher.getByText('You are watching.').waitFor();
    assert.deepEqual([...guest.errors, ...watcher.errors, ...dan.errors], []);
  });

  it('sets a new password from the operator\'s reset link', { skip: !serverBinary && 'MANCALA_SERVER is not set' }, async () => {
    const { stdout } = await promisify(execFile)(serverBinary, ['--db', db, '--reset-password', 'Dan']);
    const code = /#\/reset\/(\S+)/.exec(stdout)?.[1];
    assert.ok(code, `a reset link in: ${stdout}`);
    const page = await visitor(PHONE, `#/reset/${code}`);
    await page.getByTestId('reset-page').waitFor();
    await page.getByTestId('reset-password').fill('new horse battery');
    await page.getByTestId('reset-repeat').fill('new horse battery');
    await page.getByTestId('reset-submit').click();
    await loggedInAs(page, 'Dan');
    await page.getByTestId('account-page').waitFor();
    // The link works once.
    await page.goto(`${server.url}/#/reset/${code}`);
    await page.getByTestId('reset-password').fill('third horse battery');
    await page.getByTestId('reset-repeat').fill('third horse battery');
    await page.getByTestId('reset-submit').click();
    await page.getByTestId('reset-problem').filter({ hasText: /unknown, used already or expired/ }).waitFor();
    assert.deepEqual(page.errors, []);
  });

  it('keeps an account\'s mutes on the server: another browser of the account hides the same player', async () => {
    const ida = await newAccount('Ida');
    const jon = await newAccount('Jon', PHONE);
    await ida.goto(`${server.url}/#/`);
    await ida.getByTestId('new-game').selectOption('cups');
    await ida.getByTestId('create-room').click();
    await ida.waitForSelector('[data-testid=room][data-room]');
    const roomId = await ida.getAttribute('[data-testid=room]', 'data-room');
    await jon.goto(`${server.url}/#/`);
    await jon.getByTestId(`join-${roomId}`).click();
    await settled([ida, jon], 0);
    await jon.getByTestId('chat-input').fill('you will lose');
    await jon.getByTestId('chat-input').press('Enter');
    const line = ida.locator('[data-testid=chat-line]').filter({ hasText: 'you will lose' });
    await line.waitFor();
    assert.equal(await line.getByTestId('chat-account').count(), 1, 'Jon\'s line shows he is an account');
    const saved = ida.waitForResponse((response) => response.url().includes('/api/account/mutes/') && response.request().method() === 'PUT');
    await line.getByTestId('chat-mute').click();
    assert.equal((await saved).status(), 200, 'the mute is kept by the server');
    assert.match(await ida.getByTestId('chat-muted').textContent(), /Muted: Jon \(1 message hidden\)/);

    // Ida on a fresh browser: the same room hides Jon's line at once, from the server's list.
    const elsewhere = await visitor(LAPTOP);
    await elsewhere.getByTestId('name-login').click();
    await sendAccountForm(elsewhere, 'login', 'Ida');
    await loggedInAs(elsewhere, 'Ida');
    await elsewhere.goto(`${server.url}/#/room/${roomId}`);
    await elsewhere.getByTestId('chat-muted').filter({ hasText: /Muted: Jon \(1 message hidden\)/ }).waitFor();
    assert.equal(await elsewhere.locator('[data-testid=chat-line]').filter({ hasText: 'you will lose' }).count(), 0);
    await screenshot(elsewhere, 'accounts-mutes-elsewhere', '[data-testid=chat]');
    await elsewhere.getByTestId('chat-unmute').click();
    await elsewhere.locator('[data-testid=chat-line]').filter({ hasText: 'you will lose' }).waitFor();
    assert.deepEqual([...ida.errors, ...jon.errors, ...elsewhere.errors], []);
  });
});

// --- settled ratings: many quick rated games over each browser's own WebSocket -----------------

// A second connection of the page's player (its session cookie goes with the upgrade), for
// requests the test sends itself: ask(page, message) resolves with the reply.
async function openSocket(page) {
  await page.evaluate(() => {
    window.testSocket = new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://${location.host}/ws`);
      const waiting = new Map();
      let next = 1;
      // The server takes 20 messages a second per connection (bursts of 40), and these games
      // go faster than that: a refused message is sent again a little later, as a player would.
      const ask = (message) => new Promise((done) => {
        const id = next++;
        waiting.set(id, (reply) => {
          if (reply.code === 'rate_limited') setTimeout(() => ask(message).then(done), 300);
          else done(reply);
        });
        socket.send(JSON.stringify({ ...message, id }));
      });
      socket.onopen = () => socket.send(JSON.stringify({ type: 'hello' }));
      socket.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.type === 'welcome') resolve({ ask, me: message.player_id });
        else if (message.type === 'error' && message.id === undefined) reject(new Error(message.message));
        else if (waiting.has(message.id)) { waiting.get(message.id)(message); waiting.delete(message.id); }
      };
    });
  });
}
const ask = (page, message) => page.evaluate(async (m) => (await window.testSocket).ask(m), message);

// One rated Cups game: `host` creates it (public, so that anyone finds it in the profiles),
// `guest` joins, whoever is to move plays once, then `loser` resigns.
async function ratedGame(host, guest, loser) {
  const created = await ask(host, { type: 'create_room', game: 'cups', rated: true, options: { cups_per_side: 3 } });
  assert.equal(created.type, 'room', JSON.stringify(created));
  const joined = await ask(guest, { type: 'join_room', room: created.room.id });
  assert.equal(joined.type, 'room', JSON.stringify(joined));
  assert.equal(joined.room.status, 'playing', JSON.stringify(joined));
  const { state, id } = joined.room;
  const mover = state.to_move === 0 ? host : guest;
  const moved = await ask(mover, { type: 'move', room: id, expected_version: 0, tokens: state.legal[0] });
  assert.equal(moved.type, 'update', JSON.stringify(moved));
  const resigned = await ask(loser, { type: 'resign', room: id });
  assert.equal(resigned.type, 'update', JSON.stringify(resigned));
}

describe('ratings that settle', () => {
  it('shows the profile and the leaderboard on a laptop and a phone', async () => {
    const eve = await newAccount('Eve');
    const fay = await newAccount('Fay');
    const gus = await newAccount('Gus');
    for (const page of [eve, fay, gus]) await openSocket(page);
    // Eve beats Fay two games in three and Gus three in four; Fay and Gus are even.
    for (let round = 0; round < 14; round += 1) {
      await ratedGame(eve, fay, round % 3 === 2 ? eve : fay);
      await ratedGame(gus, eve, round % 4 === 3 ? eve : gus);
      await ratedGame(fay, gus, round % 2 ? fay : gus);
    }

    for (const viewport of [LAPTOP, PHONE]) {
      const page = await visitor(viewport, '#/leaderboard/cups');
      await page.getByTestId('leaderboard-table').waitFor();
      const names = await page.$$eval('[data-testid=leaderboard-table] tbody td.player', (cells) => cells.map((cell) => cell.textContent));
      assert.equal(names[0], 'Eve');
      assert.ok(names.includes('Fay') && names.includes('Gus'), names.join());
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'nothing sticks out sideways');
      await screenshot(page, `accounts-leaderboard-${viewport.width}`);

      await page.getByRole('link', { name: 'Eve' }).click();
      await page.getByTestId('rating-graph-cups').waitFor();
      assert.doesNotMatch(await text(page, 'rating-value-cups'), /\?/, 'a settled rating has no question mark');
      const points = await page.locator('[data-testid=rating-graph-cups] .graph-point').count();
      assert.equal(points, 28);
      const graph = await page.getByTestId('rating-graph-cups').boundingBox();
      assert.ok(graph.width <= viewport.width && graph.width > viewport.width / 3, `graph ${graph.width} wide`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'nothing sticks out sideways');
      await screenshot(page, `accounts-profile-${viewport.width}`);
      // The games, 20 a page, then the older ones.
      assert.equal(await page.locator('[data-testid=profile-games-results] > li').count(), 20);
      await page.getByTestId('profile-games-more').click();
      await page.locator('[data-testid=profile-games-results] > li').nth(27).waitFor();
      assert.deepEqual(page.errors, []);
    }
    assert.deepEqual([...eve.errors, ...fay.errors, ...gus.errors], []);
  });
});
