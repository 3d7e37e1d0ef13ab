// The chat of issue 33 in real browsers: two players write (a quick phrase and typed text) and
// both read it, also a late spectator; spectators' messages reach the other spectators but not
// the players while the game is played; the sixth message in 10 s is refused in words; the
// room's creator turns spectators' chat off and on; a muted player's messages are hidden (and
// stay hidden after a reload) until shown again; a report is confirmed; the tab's title tells a
// message while the tab is hidden; and the finished game's history shows the chat placed among
// its moves. Screenshots of a room with chat on a laptop (1280×860) and a phone (390×844).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, createRoom, settled, screenshot, pageToMove, playChoice } from '../lib/harness.js';

const LAPTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };
let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

// "Name: text" for each chat line the page shows, oldest first.
const LINES = (selector) => [...document.querySelectorAll(selector)].map((line) =>
  `${line.querySelector('[data-testid=chat-name]').textContent}: ${line.querySelector('[data-testid=chat-text]').textContent}`);
const chatLines = (page) => page.evaluate(LINES, '[data-testid=chat-list] [data-testid=chat-line]');
// The page's Content-Security-Policy allows no eval, so LINES cannot be rebuilt from its text in
// the page: the same "Name: text" is written out here.
const waitForLine = (page, line) => page.waitForFunction((wanted) =>
  [...document.querySelectorAll('[data-testid=chat-list] [data-testid=chat-line]')].some((shown) =>
    `${shown.querySelector('[data-testid=chat-name]').textContent}: ${shown.querySelector('[data-testid=chat-text]').textContent}` === wanted),
line, { timeout: 10000 });

async function type(page, text) {
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-input').press('Enter');
}

// The page believes its tab is hidden (or visible again), as after switching tabs.
const setHidden = (page, hidden) => page.evaluate((value) => {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => value });
  document.dispatchEvent(new Event('visibilitychange'));
}, hidden);

describe('chat', () => {
  it('players and spectators write, refusals are said, mute hides, the history keeps it', async () => {
    const ada = await newPlayer(browser, server.url, 'Ada', { viewport: LAPTOP });
    const bo = await newPlayer(browser, server.url, 'Bo', { viewport: PHONE });
    const roomId = await createRoom(ada, 'cups');
    await bo.goto(`${server.url}/#/`);
    await bo.getByTestId(`join-${roomId}`).click();
    await settled([ada, bo], 0);

    // A quick phrase is one click; typed text goes with Enter; both read both.
    await ada.locator('[data-testid=chat-phrase][data-phrase="Good luck"]').click();
    const link = 'Thanks, you too! <b>see</b> https://example.org';
    await type(bo, link);
    for (const page of [ada, bo]) {
      await waitForLine(page, 'Ada: Good luck');
      await waitForLine(page, `Bo: ${link}`);
    }
    assert.equal(await bo.getByTestId('chat-input').inputValue(), '', 'the box is emptied once sent');
    assert.equal(await ada.locator('[data-testid=chat] a, [data-testid=chat] b').count(), 0, 'text only: no link, no markup');
    assert.deepEqual(await chatLines(ada), ['Ada: Good luck', `Bo: ${link}`]);
    // Two moves, so that later messages come after them in the history.
    for (let version = 1; version <= 2; version += 1) {
      await playChoice(await pageToMove([ada, bo]));
      await settled([ada, bo], version);
    }

    // Spectators arrive late and read the conversation so far; they write to each other.
    const cy = await newPlayer(browser, server.url, 'Cy', { viewport: LAPTOP });
    const dan = await newPlayer(browser, server.url, 'Dan', { viewport: PHONE });
    for (const page of [cy, dan]) {
      await page.goto(`${server.url}/#/`);
      await page.getByTestId(`watch-${roomId}`).click();
      await settled([page], 2);
      await waitForLine(page, `Bo: ${link}`);
    }
    assert.match(await cy.getByTestId('chat-input').getAttribute('placeholder'), /spectators/);
    await type(cy, 'Ada opens well');
    await waitForLine(dan, 'Cy: Ada opens well');
    assert.equal(await dan.locator('[data-testid=chat-line][data-channel=spectators] .tag.spectator').count(), 1, 'marked as a spectator\'s');
    // Ada writes after Cy: once her line is there, Cy's would have been too.
    await type(ada, 'Let us play');
    for (const page of [ada, bo]) {
      await waitForLine(page, 'Ada: Let us play');
      assert.ok(!(await chatLines(page)).includes('Cy: Ada opens well'), 'players do not read spectators while playing');
    }
    // Said as it is: the players never read what spectators wrote during play (issue 49).
    assert.match(await ada.getByTestId('chat-note').textContent(), /spectators' messages are not shown to you/);

    // The sixth message in 10 s is refused, in words; the same text twice in a row too.
    for (let i = 1; i <= 5; i += 1) {
      await type(dan, `Message ${i}`);
      await waitForLine(dan, `Dan: Message ${i}`);
    }
    await type(dan, 'Message 6');
    await dan.waitForFunction(() => document.querySelector('[data-testid=chat-error]').textContent.startsWith('Slow down: '));
    assert.ok(!(await chatLines(dan)).includes('Dan: Message 6'));
    assert.equal(await dan.getByTestId('chat-input').inputValue(), 'Message 6', 'a refused text stays in the box');
    await type(cy, 'Ada opens well');
    await cy.waitForFunction(() => document.querySelector('[data-testid=chat-error]').textContent.startsWith('Slow down: '));
    const refusal = await cy.getByTestId('chat-error').textContent();
    await screenshot(dan, 'chat-spectator-refused-390');

    // The room's creator turns spectators' chat off: a spectator can only read; then on again.
    await ada.getByTestId('spectator-chat-toggle').uncheck();
    await cy.waitForFunction(() => document.querySelector('[data-testid=chat-input]').disabled);
    assert.match(await cy.getByTestId('chat-note').textContent(), /turned spectators' chat off/);
    assert.equal(await bo.getByTestId('spectator-chat-toggle').isVisible(), false, 'only the creator has the switch');
    await ada.getByTestId('spectator-chat-toggle').check();
    await cy.waitForFunction(() => !document.querySelector('[data-testid=chat-input]').disabled);

    // Ada's tab is hidden: Bo's message shows in its title and icon; seen again, back to normal.
    await setHidden(ada, true);
    await type(bo, 'Your move!');
    await waitForLine(ada, 'Bo: Your move!');
    await ada.waitForFunction(() => document.title === '● New message — Mancala Online');
    assert.match(await ada.getAttribute('link[rel=icon]', 'href'), /d3263a/);
    await setHidden(ada, false);
    await ada.waitForFunction(() => document.title === 'Mancala Online');
    assert.doesNotMatch(await ada.getAttribute('link[rel=icon]', 'href'), /d3263a/);

    await screenshot(ada, 'chat-room-1280');
    await screenshot(bo, 'chat-room-390');
    await screenshot(ada, 'chat-panel-1280', '[data-testid=chat]');

    // Ada reports one of Bo's messages, then mutes him: his messages are hidden, also after a
    // reload, until she shows them again.
    const boLine = ada.locator('[data-testid=chat-line][data-player]').filter({ hasText: 'Your move!' });
    await boLine.getByTestId('chat-report').click();
    await ada.getByTestId('notice').filter({ hasText: 'Reported' }).waitFor();
    assert.equal(await ada.locator('[data-testid=chat-line].mine [data-testid=chat-mute]').count(), 0, 'no mute on one\'s own messages');
    await boLine.getByTestId('chat-mute').click();
    await ada.waitForFunction(() => !document.querySelector('[data-testid=chat-list]').textContent.includes('Your move!'));
    assert.match(await ada.getByTestId('chat-muted').textContent(), /Muted: Bo \(2 messages hidden\)/);
    await type(bo, 'Can you read me?');
    await waitForLine(bo, 'Bo: Can you read me?');
    await ada.reload();
    await settled([ada], 2);
    await waitForLine(ada, 'Ada: Let us play');
    assert.ok(!(await chatLines(ada)).some((line) => line.startsWith('Bo: ')), `no line of Bo's: ${await chatLines(ada)}`);
    assert.match(await ada.getByTestId('chat-muted').textContent(), /Muted: Bo \(3 messages hidden\)/);
    await screenshot(ada, 'chat-muted-1280', '[data-testid=chat]');
    await ada.getByTestId('chat-unmute').click();
    await waitForLine(ada, 'Bo: Can you read me?');

    // The game ends: spectators' messages reach the players from then on.
    await ada.getByTestId('resign').click();
    await ada.getByTestId('result').waitFor();
    await type(cy, 'Good game both');
    await waitForLine(ada, 'Cy: Good game both');
    await waitForLine(bo, 'Cy: Good game both');

    // The history shows the chat Ada could read, each message after the move it followed.
    await ada.goto(`${server.url}/#/history/${roomId}`);
    await ada.getByTestId('replay-chat').waitFor();
    const replay = () => ada.evaluate(LINES, '[data-testid=replay-chat-list] [data-testid=replay-chat-line]');
    const shown = await replay();
    assert.deepEqual(shown.slice(0, 3), ['Ada: Good luck', `Bo: ${link}`, 'Ada: Let us play']);
    const when = await ada.$$eval('[data-testid=replay-chat-line] .chat-when', (nodes) => nodes.map((node) => node.textContent));
    assert.deepEqual(when.slice(0, 3), ['before the first move', 'before the first move', 'after move 2']);
    assert.ok(shown.includes('Cy: Good game both'), shown.join('\n'));
    assert.ok(!shown.includes('Cy: Ada opens well'), 'a spectator\'s message during play is not the player\'s to read');
    assert.ok(!shown.includes('Dan: Message 1'));
    assert.match(await ada.locator('[data-testid=replay-chat-line]').last().textContent(), /after the game/);
    await ada.getByTestId('replay-last').click();
    await ada.waitForFunction(() => [...document.querySelectorAll('[data-testid=replay-chat-line]')].every((line) => line.dataset.shown === 'true'));
    await screenshot(ada, 'chat-history-1280');

    // A spectator's history has the spectators' messages too.
    await cy.goto(`${server.url}/#/history/${roomId}`);
    await cy.getByTestId('replay-chat').waitFor();
    const cyShown = await cy.evaluate(LINES, '[data-testid=replay-chat-list] [data-testid=replay-chat-line]');
    assert.ok(cyShown.includes('Cy: Ada opens well'), cyShown.join('\n'));

    assert.match(refusal, /^Slow down: /);
    for (const page of [ada, bo, cy, dan]) assert.deepEqual(page.errors, []);
  });
});
