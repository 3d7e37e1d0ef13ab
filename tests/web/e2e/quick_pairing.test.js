// Quick pairing on the lobby (issue 47): two people in two browser profiles click the same
// preset and land in the same started game; the lobby shows who is here and the open seeks
// (one click seeks the same); a waiting seek can be cancelled, and after a while the card offers
// the computer meanwhile, in words, keeping the seek. Screenshots of the lobby at 1280 and 390 px.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, screenshot } from '../lib/harness.js';

let server, browser;
// Ten times faster: Njaka's 30 s wait before a table of two is 3 s.
before(async () => { server = await startServer({ args: ['--clock-speed', '10'] }); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const roomOf = (page) => /#\/room\/([^/?]+)/.exec(page.url())?.[1];
async function inGame(page) {
  await page.waitForURL(/#\/room\//, { timeout: 10000 });
  await page.waitForSelector('[data-testid=room][data-settled=true]', { timeout: 10000 });
  return roomOf(page);
}

describe('quick pairing', () => {
  it('puts two people who click the same preset into the same game', async () => {
    const ada = await newPlayer(browser, server.url, 'Ada');
    const bo = await newPlayer(browser, server.url, 'Bo');
    await ada.getByTestId('qp-cups-quick').click();
    await ada.getByTestId('qp-cancel').waitFor();
    // Bo sees Ada's seek waiting and Cups counted as played here.
    await bo.getByTestId('qp-open-seeks').filter({ hasText: 'Cups · 3 min + 2 s · 1 waiting' }).waitFor();
    await bo.getByTestId('qp-here-cups').filter({ hasText: '1 here' }).waitFor();
    const clicked = Date.now();
    await bo.getByTestId('qp-cups-quick').click();
    const [adaRoom, boRoom] = await Promise.all([inGame(ada), inGame(bo)]);
    assert.ok(Date.now() - clicked < 5000, 'paired at once');
    assert.equal(adaRoom, boRoom);
    const seats = await ada.getByTestId('seats').textContent();
    assert.match(seats, /Ada/);
    assert.match(seats, /Bo/);
    assert.deepEqual([...ada.errors, ...bo.errors], []);
  });

  it('accepting an open seek seeks the same and pairs', async () => {
    const cy = await newPlayer(browser, server.url, 'Cy');
    const di = await newPlayer(browser, server.url, 'Di');
    await cy.getByTestId('qp-njaka-long').click();
    await cy.getByTestId('qp-cancel').waitFor();
    // Njaka seekers accept 2 to 4 by default: Di's click on the listed seek waits with Cy for a fuller table.
    const entry = di.getByTestId('qp-open-seeks').filter({ hasText: 'Njaka' });
    await entry.waitFor();
    assert.match(await entry.textContent(), /tables of 2–4/);
    await di.getByTestId('qp-accept-0').click();
    await di.getByTestId('qp-cancel').waitFor();
    assert.match(await di.getByTestId('qp-table-rule-njaka').textContent(), /fullest table/);
    // Two of them: a table of two after 30 seconds (3 s on this server's fast clock).
    const [cyRoom, diRoom] = await Promise.all([inGame(cy), inGame(di)]);
    assert.ok(cyRoom && cyRoom === diRoom, 'paired into one table of two after the wait');
    assert.deepEqual([...cy.errors, ...di.errors], []);
  });

  it('tells a player who left paired games unplayed why their seek waits, and keeps Cancel focused', async () => {
    const gil = await newPlayer(browser, server.url, 'Gil');
    const hal = await newPlayer(browser, server.url, 'Hal');
    for (let game = 0; game < 2; game += 1) {
      await gil.getByTestId('qp-cups-long').click();
      await hal.getByTestId('qp-cups-long').click();
      await Promise.all([inGame(gil), inGame(hal)]);
      await gil.getByTestId('resign').click();               // before his first move
      await hal.getByTestId('result').waitFor();
      for (const page of [gil, hal]) await page.goto(new URL('/#/', page.url()).href);
    }
    // Both games counted (the server logs each): his next seek is held back, and the card says why.
    await gil.getByTestId('qp-cups-long').click();
    const held = gil.getByTestId('qp-held');
    await held.waitFor();
    assert.match(await held.textContent(), /You left recent paired games before your first move, so players who come after you are paired first for 30 seconds/);
    await screenshot(gil, 'lobby-quick-pairing-held');
    // The card redraws every second for its clock; a keyboard user's focus on Cancel stays.
    await gil.getByTestId('qp-cancel').focus();
    const clockText = await gil.getByTestId('qp-waiting').textContent();
    await gil.waitForFunction((before) => document.querySelector('[data-testid=qp-waiting]').textContent !== before, clockText);
    assert.equal(await gil.evaluate(() => document.activeElement?.dataset.testid), 'qp-cancel');
    await gil.keyboard.press('Enter');
    await gil.getByTestId('qp-cancel').waitFor({ state: 'detached' });
    assert.deepEqual([...gil.errors, ...hal.errors], []);
  });

  for (const viewport of [{ width: 1280, height: 860 }, { width: 390, height: 844 }]) {
    it(`shows a waiting seek with Cancel and the offer of the computer at ${viewport.width} px`, async () => {
      const eve = await newPlayer(browser, server.url, `Eve ${viewport.width}`, { viewport });
      const fay = await newPlayer(browser, server.url, `Fay ${viewport.width}`, { viewport });
      await fay.getByTestId('qp-oanquan-daily').click();
      await fay.getByTestId('qp-cancel').waitFor();
      await eve.getByTestId('qp-duovallis-long').click();
      await eve.getByTestId('qp-cancel').waitFor();
      await eve.getByTestId('qp-open-seeks').filter({ hasText: 'O An Quan' }).waitFor();
      // Twenty seconds later (the tab's clock moved on): the offer, in words; the seek stays.
      await eve.evaluate(() => { const real = Date.now; Date.now = () => real() + 21000; });
      await eve.getByTestId('qp-offer').waitFor();
      assert.match(await eve.getByTestId('qp-offer').textContent(), /Play the computer while you wait\? Your seek stays open/);
      await screenshot(eve, `lobby-quick-pairing-${viewport.width}`);
      const wide = await eve.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= viewport.width, `nothing sticks out sideways (${wide})`);
      await eve.getByTestId('qp-cancel').click();
      await eve.getByTestId('qp-cancel').waitFor({ state: 'detached' });
      await fay.getByTestId('qp-open-seeks').filter({ hasText: 'Duovallis' }).waitFor({ state: 'detached' });
      await fay.getByTestId('qp-cancel').click();
      assert.deepEqual([...eve.errors, ...fay.errors], []);
    });
  }
});
