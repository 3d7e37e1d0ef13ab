// What happens around a game rather than on its board: the room form drawn from the server's
// `/api/game-types`, a spectator who watches a game and cannot play in it, conceding a round and
// resigning with the buttons, and claiming the game of a player who left once the room's grace
// time is over. The claim must wait out the shortest grace time the server allows (30 s), so the
// four cases run side by side, each in its own browser contexts.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import en from '../../../web-client/js/i18n/en.js';
import { startServer, launchBrowser, newPlayer, createRoom, roomInfo, settled, pageToMove, playChoice,
  screenshot, seeded, waitForSocketMessage } from '../lib/harness.js';

const GRACE_SECONDS = 30;   // the protocol's minimum
let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const text = (page, testid) => page.getByTestId(testid).textContent();
const counts = (page) => page.$$eval('[data-testid=board] [data-testid^=count-]',
  (nodes) => Object.fromEntries(nodes.map((node) => [node.dataset.testid, node.textContent])));

describe('rooms', { concurrency: true }, () => {
  it('claims the game of a player who left, after the grace time', async () => {
    const ada = await newPlayer(browser, server.url, 'Ada');
    const bo = await newPlayer(browser, server.url, 'Bo');
    await createRoom(ada, 'cups', { options: { first_player: 1 }, isPrivate: true, grace: GRACE_SECONDS });
    await bo.goto(await ada.getByTestId('invite-link').inputValue());
    await settled([ada, bo], 0);
    assert.equal((await roomInfo(bo)).myTurn, 'true');
    assert.equal(await ada.getByTestId('concede').count(), 0, 'only Coin Duel stage 3 has rounds to concede');

    // Bo, who is to move, closes his browser.
    await bo.context().close();
    const left = Date.now();
    await ada.locator('[data-testid=seat-1] .presence.away').waitFor();
    await ada.getByTestId('absence').waitFor();
    assert.match(await text(ada, 'absence'), /Bo has left\. .* claim the win in \d+ s/);
    assert.equal(await ada.getByTestId('claim-abandon').count(), 0, 'no claim during the grace time');
    // The countdown redraws the actions every second; a keyboard user's focused Resign button
    // stays the same node, focused, across a tick (issue 50).
    await ada.getByTestId('resign').focus();
    const before = await ada.getByTestId('absence').evaluate((note) => {
      document.activeElement.focusMark = 'kept';  // a property: redraws sync attributes
      return note.textContent;
    });
    await ada.waitForFunction((seen) => document.querySelector('[data-testid=absence]')?.textContent !== seen, before);
    assert.deepEqual(await ada.evaluate(() => [document.activeElement?.dataset.testid, document.activeElement?.focusMark]),
      ['resign', 'kept'], 'the focused button survives the redraw');
    await screenshot(ada, 'room-opponent-away');
    // A reload keeps the countdown: the room message says when Bo's grace time ends.
    await ada.reload();
    await ada.getByTestId('absence').waitFor();
    assert.match(await text(ada, 'absence'), /Bo has left\. .* claim the win in \d+ s/);
    assert.equal(await ada.getByTestId('claim-abandon').count(), 0, 'still no claim after a reload');

    // Once the grace time is over the claim is offered, and it ends the game.
    await ada.getByTestId('claim-abandon').waitFor({ timeout: (GRACE_SECONDS + 10) * 1000 });
    assert.ok(Date.now() - left >= (GRACE_SECONDS - 2) * 1000, 'the claim waits for the grace time');
    assert.match(await text(ada, 'absence'), /Bo has left and may not come back/);
    await ada.getByTestId('claim-abandon').click();
    await ada.getByTestId('result').waitFor();
    assert.equal((await roomInfo(ada)).status, 'finished');
    assert.match(await text(ada, 'result'), /Ada wins/);
    assert.match(await text(ada, 'result'), /Bo left the game\./);
    assert.equal(await ada.getByTestId('claim-abandon').count(), 0);
    assert.equal(await ada.getByTestId('resign').count(), 0);
    await screenshot(ada, 'room-abandon-claimed');
    assert.deepEqual([...ada.errors, ...bo.errors], []);
  });

  it('a spectator sees the game move on but cannot play', async () => {
    const ada = await newPlayer(browser, server.url, 'Ada');
    const bo = await newPlayer(browser, server.url, 'Bo');
    const cy = await newPlayer(browser, server.url, 'Cy');
    const roomId = await createRoom(ada, 'cups', { options: { cups_per_side: 5 } });
    await bo.goto(`${server.url}/#/`);
    await bo.getByTestId(`join-${roomId}`).click();
    await settled([ada, bo], 0);

    // Cy finds the running game in the lobby and watches it.
    await cy.goto(`${server.url}/#/`);
    await cy.getByTestId(`watch-${roomId}`).click();
    await settled([cy], 0);
    await cy.getByText('You are watching.').waitFor();
    assert.equal(await text(cy, 'seat-name-0'), 'Ada');
    assert.equal(await text(cy, 'seat-name-1'), 'Bo');
    await ada.waitForFunction(() => /1 watching/.test(document.querySelector('[data-testid=room-status]').textContent));

    const random = seeded(11);
    for (let version = 1; version <= 6; version += 1) {
      const mover = await pageToMove([ada, bo]);
      assert.ok(mover);
      await playChoice(mover, (tokens) => tokens[Math.floor(random() * tokens.length)]);
      await settled([ada, bo, cy], version);
      assert.deepEqual(await counts(cy), await counts(ada), `the spectator sees version ${version}`);
      if (version === 3) {
        // A reload keeps Cy watching (not seated) and catches up.
        await cy.reload();
        await settled([cy], 3);
        assert.deepEqual(await counts(cy), await counts(ada));
      }
    }
    assert.match(await text(cy, 'caption'), /(Ada|Bo) (sowed \d+ beans? from the reserve|played cup \d)/);

    // Nothing to click for the spectator: no choices, no game buttons, and clicking the cups
    // and reserves of the board changes nothing.
    const info = await roomInfo(cy);
    assert.equal(info.myTurn, 'false');
    assert.equal(await cy.locator('[data-token]').count(), 0);
    for (const action of ['resign', 'concede', 'claim-abandon', 'plex-button']) {
      assert.equal(await cy.getByTestId(action).count(), 0, action);
    }
    assert.equal(await cy.locator('[data-testid^=sit-]').count(), 0);
    const beforeClicks = cy.socketLog.length;
    for (const seat of [0, 1]) {
      // The places are buttons marked disabled for a spectator: clicked anyway, to be sure.
      for (const place of ['c1', 'c2', 'c3', 'c4', 'c5', 'res']) await cy.getByTestId(`place-s${seat}${place}`).click({ force: true });
    }
    // Then Cy writes in the chat: once that message has gone, a move sent by a click would have
    // gone before it.
    await cy.getByTestId('chat-input').fill('Just watching');
    await cy.getByTestId('chat-input').press('Enter');
    const chatSent = await waitForSocketMessage(cy, beforeClicks, ({ sent, message }) => sent && message.type === 'chat', "Cy's chat message");
    assert.deepEqual(cy.socketLog.slice(beforeClicks, chatSent).filter(({ sent }) => sent).map(({ message }) => message), [],
      'the clicks sent nothing');
    assert.equal((await roomInfo(cy)).version, info.version);
    assert.equal((await roomInfo(ada)).version, info.version);
    await cy.getByTestId('board').waitFor();
    await screenshot(cy, 'room-spectator');
    assert.deepEqual([...ada.errors, ...bo.errors, ...cy.errors], []);
  });

  it('concedes a Coin Duel round, then resigns the game', async () => {
    const ada = await newPlayer(browser, server.url, 'Ada');
    const bo = await newPlayer(browser, server.url, 'Bo');
    await createRoom(ada, 'coin_duel', { isPrivate: true });
    await bo.goto(await ada.getByTestId('invite-link').inputValue());
    await settled([ada, bo], 0);
    assert.match(await text(bo, 'room-status'), /^Round 1 · /);

    // Saying no to the question sends nothing: the concession said yes to is the first one sent.
    const beforeNo = ada.socketLog.length;
    ada.refuseDialogs = true;
    await ada.getByTestId('concede').click();
    ada.refuseDialogs = false;

    // Ada concedes round 1: the round is recorded as conceded, and round 2 starts.
    await ada.getByTestId('concede').click();
    await settled([ada, bo], 1);
    const answered = await waitForSocketMessage(ada, beforeNo, ({ sent, message }) => !sent && message.type === 'update',
      'the answer to the concession');
    assert.equal(ada.socketLog.slice(beforeNo, answered).filter(({ sent, message }) => sent && message.type === 'concede').length, 1,
      'one concession sent, not two');
    for (const page of [ada, bo]) {
      assert.equal(await page.locator('[data-testid=coin-rounds] tbody tr.round-scores').count(), 1);
      assert.match(await page.locator('[data-testid=coin-rounds] tbody').first().textContent(), /conceded the round/);
      assert.match(await text(page, 'round-announcement'), /^Round 1 is over/);
      assert.match(await text(page, 'room-status'), /^Round 2 · /);
      assert.equal((await roomInfo(page)).status, 'playing');
    }
    await screenshot(bo, 'room-round-conceded');

    // Bo resigns: the game is over and Ada wins it.
    await bo.getByTestId('resign').click();
    await settled([ada, bo], 2);
    for (const page of [ada, bo]) {
      await page.getByTestId('result').waitFor();
      assert.equal((await roomInfo(page)).status, 'finished');
      assert.match(await text(page, 'result'), /Ada wins/);
      assert.match(await text(page, 'result'), /Bo resigned\./);
      assert.doesNotMatch(await text(page, 'result'), /ended by/);
      assert.equal(await page.getByTestId('resign').count(), 0);
      assert.equal(await page.getByTestId('concede').count(), 0);
    }
    await screenshot(ada, 'room-resigned');
    assert.deepEqual([...ada.errors, ...bo.errors], []);
  });

  it('draws the room form from the server\'s game types', async () => {
    const ada = await newPlayer(browser, server.url, 'Ada');
    const types = await (await fetch(`${server.url}/api/game-types`)).json();
    const ids = await ada.$$eval('[data-testid=new-game] option', (nodes) => nodes.map((node) => node.value));
    assert.deepEqual(ids, types.games.map((game) => game.id));

    // Every option of every game, in the server's order, with the server's default, and the help
    // in the catalogue's words (the server's own sentence for an option the catalogue lacks).
    for (const game of types.games) {
      await ada.getByTestId('new-game').selectOption(game.id);
      const fields = await ada.$$eval('[data-testid=create-form] [data-testid^=option-]', (nodes) => nodes.map((node) => ({
        name: node.name,
        value: node.type === 'checkbox' ? node.checked : node.tagName === 'SELECT' ? JSON.parse(node.value) : Number(node.value),
        help: document.getElementById(node.getAttribute('aria-describedby')).textContent,
      })));
      // The main options first, the others folded away under "More … options", each part in the
      // server's order.
      const names = Object.keys(game.options);
      const folded = await ada.$$eval('[data-testid=create-form] [data-testid^=option-]', (nodes) => nodes.map((node) => Boolean(node.closest('details'))));
      const inOrder = (fold) => fields.filter((_, i) => folded[i] === fold).map((field) => field.name);
      assert.deepEqual([...inOrder(false), ...inOrder(true)].sort(), [...names].sort(), game.id);
      for (const fold of [false, true]) assert.deepEqual(inOrder(fold), names.filter((name) => inOrder(fold).includes(name)), game.id);
      for (const field of fields) {
        const option = game.options[field.name];
        assert.deepEqual(field.value, option.default, `${game.id}.${field.name}`);
        const help = en[`option.${game.id}.${field.name}.help`] ?? option.help;
        assert.ok(field.help.toLowerCase().startsWith(help.toLowerCase()), `${game.id}.${field.name} help`);
      }
    }

    // Njaka's first player can only be a seat the room has.
    await ada.getByTestId('new-game').selectOption('njaka');
    const firstPlayers = () => ada.$$eval('[data-testid=option-first_player] option', (nodes) => nodes.map((node) => node.value));
    const yourSeats = () => ada.$$eval('[data-testid=new-seat] option', (nodes) => nodes.map((node) => node.value));
    assert.deepEqual(await firstPlayers(), ['"random"', '0', '1']);
    assert.deepEqual(await yourSeats(), ['0', '1', 'spectate']);
    // The advanced variant is for two players (the API's only_with): offered only then.
    const advanced = ada.getByTestId('option-advanced');
    await ada.getByText('More Njaka\'s Mancala Game options').click();
    assert.equal(await advanced.isEnabled(), true);
    await advanced.check();
    await ada.getByTestId('option-players').selectOption('4');
    assert.equal(await advanced.isEnabled(), false, 'advanced is for two players only');
    assert.equal(await advanced.isChecked(), false, 'and goes back to its default');
    assert.deepEqual(await firstPlayers(), ['"random"', '0', '1', '2', '3']);
    assert.deepEqual(await yourSeats(), ['0', '1', '2', '3', 'spectate']);
    await ada.getByTestId('option-first_player').selectOption('3');
    await ada.getByTestId('option-players').selectOption('3');
    assert.deepEqual(await firstPlayers(), ['"random"', '0', '1', '2']);
    assert.equal(await ada.getByTestId('option-first_player').inputValue(), '"random"', 'seat 4 is gone, so back to the default');
    await ada.getByTestId('option-first_player').selectOption('2');
    await ada.getByTestId('option-direction').selectOption('"cw"');
    await screenshot(ada, 'lobby-njaka-form', '[data-testid=create-form]');

    // The room is created with those options, and the lobby lists them for others.
    const roomId = await createRoom(ada, 'njaka', { options: { players: 3, first_player: 2, direction: 'cw' } });
    const room = await ada.evaluate(() => document.querySelector('[data-testid=room]').dataset.room);
    assert.equal(room, roomId);
    assert.deepEqual(await ada.$$eval('[data-testid=seats] > li', (nodes) => nodes.length), 3);
    const bo = await newPlayer(browser, server.url, 'Bo');
    const card = bo.getByTestId(`room-${roomId}`);
    await card.waitFor();
    const notes = await card.textContent();
    assert.match(notes, /Players at the table: 3/);
    assert.match(notes, /Who moves first: Seat 3/);
    assert.match(notes, /Sowing direction and turn order: Clockwise/);
    await screenshot(bo, 'lobby-room-list', '[data-testid=room-list]');
    assert.deepEqual([...ada.errors, ...bo.errors], []);
  });
});
