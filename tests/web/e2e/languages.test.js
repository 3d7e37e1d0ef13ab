// The client in Vietnamese and German (issue 49): a browser that speaks Vietnamese gets it from
// its first page (navigator.languages), a German player picks Deutsch in the header's chooser
// and keeps it after a reload; <html lang> follows. They play O An Quan and Duovallis rooms, chat
// (a line over the 280-character limit is refused with the limit said, not cut), resign, and
// open the history viewer. The lobby, the rooms and the viewer are shot at 1280 and 390 px in
// both languages, and no page is wider than the window (long German words must wrap). Then Cups,
// Coin Duel (stage 3, with its round panel) and Njaka in both languages: their boards' words,
// the sentences of a move, the reserve's buttons and the rules cards. The rules page of every game
// in both languages, at both widths: its words, none of the English page's, none cut. The room
// form's options of every game, with their help sentences in both languages, not the server's.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import vi from '../../../web-client/js/i18n/vi.js';
import de from '../../../web-client/js/i18n/de.js';
import { startServer, launchBrowser, createRoom, settled, screenshot } from '../lib/harness.js';
import { playComputer, waitForChoices } from '../lib/computer.js';

const LAPTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };
let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const text = (page, testid) => page.getByTestId(testid).innerText();

// A visitor whose browser speaks `locale`, on the name page.
async function visitor(locale) {
  const context = await browser.newContext({ viewport: LAPTOP, locale });
  await context.addInitScript(() => { if (!localStorage.getItem('mancala.animation')) localStorage.setItem('mancala.animation', '"off"'); });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (error) => page.errors.push(error.message));
  page.on('dialog', (dialog) => dialog.accept());
  await page.goto(server.url);
  await page.getByTestId('name-input').waitFor();
  return page;
}

async function playAs(page, name) {
  await page.getByTestId('name-input').fill(name);
  await page.getByTestId('name-submit').click();
  await page.waitForSelector('[data-testid=connection][data-status=online]');
}

// Elements whose words are cut off: text wider than its box (no wrapping, hidden overflow), and
// the page itself wider than the window.
const cutOff = (page) => page.evaluate(() => {
  const cut = [...document.querySelectorAll('button, a.button, label, h1, h2, h3, .tag, .seat-name, th, summary, select')]
    .filter((node) => node.offsetParent !== null && node.scrollWidth > node.clientWidth + 1
      && getComputedStyle(node).overflowX !== 'visible')
    .map((node) => `${node.tagName.toLowerCase()} "${node.textContent.trim().slice(0, 40)}"`);
  if (document.documentElement.scrollWidth > window.innerWidth + 1) cut.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  return cut;
});

// Lists whose chosen value is wider than the list's box (a select cuts it without overflowing,
// so cutOff does not see it): measured in the select's own font.
const selectsCut = (page, root) => page.locator(root).evaluate((box) => {
  const context = document.createElement('canvas').getContext('2d');
  return [...box.querySelectorAll('select')].filter((select) => select.offsetParent !== null).filter((select) => {
    const style = getComputedStyle(select);
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16; // the arrow
    return context.measureText(select.selectedOptions[0]?.textContent ?? '').width > room;
  }).map((select) => `${select.name}: "${select.selectedOptions[0].textContent}"`);
});

// The header's other items whose line is the language chooser's.
const sharingTheChoosersRow = (page) => page.evaluate(() => {
  const chooser = document.querySelector('[data-testid=language]').getBoundingClientRect();
  return [...document.querySelectorAll('.top .me > *')].filter((node) => node.offsetParent !== null && !node.contains(document.querySelector('[data-testid=language]')))
    .filter((node) => { const box = node.getBoundingClientRect(); return box.bottom > chooser.top + 1 && box.top < chooser.bottom - 1; })
    .map((node) => node.className || node.tagName);
});

// Shoots the page at both widths, checking nothing is cut at either.
async function shootBoth(page, name) {
  for (const [size, viewport] of [['1280', LAPTOP], ['390', PHONE]]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    assert.deepEqual(await cutOff(page), [], `${name} at ${size} px: nothing cut off`);
    await screenshot(page, `${name}-${size}`);
  }
  await page.setViewportSize(LAPTOP);
}

// A game's rules page, opened; its text blocks (titles, sentences, the card's lines).
async function rulesPage(page, game) {
  await page.goto(`${server.url}/#/rules/${game}`);
  const rules = page.getByTestId('rules-page');
  await rules.locator('figure svg[data-testid=board]').first().waitFor();
  return rules.locator('h1, h2, p, li').allInnerTexts();
}

// The rules page's words that do not fit: a text block whose words are wider than its box (a
// long word that does not wrap), a block or picture sticking out of the page's column, a
// picture's caption running past the drawing's edge, and a section's sentences running into
// its picture.
const rulesPageCut = (page) => page.evaluate(() => {
  const article = document.querySelector('[data-testid=rules-page]');
  const frame = article.getBoundingClientRect();
  const name = (node) => `${node.tagName.toLowerCase()} "${node.textContent.trim().slice(0, 40)}"`;
  const problems = [];
  for (const node of article.querySelectorAll('h1, h2, p, li, nav, a, figure')) {
    const box = node.getBoundingClientRect();
    if (getComputedStyle(node).display !== 'inline' && node.scrollWidth > node.clientWidth + 1) problems.push(`${name(node)} is wider than its box`);
    if (box.left < frame.left - 1 || box.right > frame.right + 1) problems.push(`${name(node)} sticks out of the page`);
  }
  // A picture's captions stay in the drawing (the SVG cuts what runs past its edge).
  for (const svg of article.querySelectorAll('figure svg')) {
    const drawing = svg.getBoundingClientRect();
    for (const label of svg.querySelectorAll('text')) {
      const box = label.getBoundingClientRect();
      if (box.width && (box.left < drawing.left - 1 || box.right > drawing.right + 1 || box.top < drawing.top - 1 || box.bottom > drawing.bottom + 1)) {
        const words = [...label.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent).join('');
        problems.push(`the picture's caption "${words.trim()}" runs past its edge`);
      }
    }
  }
  for (const section of article.querySelectorAll('.rules-section')) {
    const figure = section.querySelector('figure')?.getBoundingClientRect();
    const words = section.firstElementChild.getBoundingClientRect();
    if (figure && words.left < figure.right - 1 && figure.left < words.right - 1 && words.top < figure.bottom - 1 && figure.top < words.bottom - 1) {
      problems.push(`${name(section.querySelector('h2'))}: the sentences run into the picture`);
    }
  }
  return problems;
});

// Shoots a rules page at both widths, checking at each that no word is cut or out of its box.
async function rulesAtBothWidths(page, name) {
  for (const [size, viewport] of [['1280', LAPTOP], ['390', PHONE]]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    assert.deepEqual(await cutOff(page), [], `${name} at ${size} px: nothing cut off`);
    assert.deepEqual(await rulesPageCut(page), [], `${name} at ${size} px: every word in its box`);
    await screenshot(page, `${name}-${size}`);
  }
  await page.setViewportSize(LAPTOP);
}

// The account forms (their words and checks before sending) and an empty leaderboard, in German
// (jonas) and Vietnamese (lan), each shot at both widths; the pages have thrown nothing.
async function accountFormsAndLeaderboard(lan, jonas) {
  await jonas.getByTestId('sign-up').click();
  const signup = jonas.getByTestId('signup-dialog');
  assert.equal(await signup.locator('h2').innerText(), 'Lege dein Konto an');
  await jonas.getByTestId('signup-password').fill('kurz');
  await jonas.getByTestId('signup-submit').click();
  assert.equal(await text(jonas, 'signup-password-problem'), 'Nimm mindestens 10 Zeichen.');
  assert.equal(await text(jonas, 'signup-repeat-problem'), 'Die beiden Passwörter sind verschieden.');
  await shootBoth(jonas, 'languages-signup-de');
  await jonas.getByTestId('account-cancel').click();
  await lan.getByTestId('log-in').click();
  await lan.getByTestId('login-submit').click();
  assert.equal(await text(lan, 'login-name-problem'), 'Hãy nhập tên của bạn.');
  await shootBoth(lan, 'languages-login-vi');
  await lan.getByTestId('account-cancel').click();

  // A leaderboard with nobody on it yet.
  await lan.goto(`${server.url}/#/leaderboard/cups`);
  assert.match(await text(lan, 'leaderboard-empty'), /^Chưa có ai trong bảng Cups: /);
  await shootBoth(lan, 'languages-leaderboard-vi');
  for (const page of [lan, jonas]) assert.deepEqual(page.errors, []);
}

describe('languages', () => {
  it('Vietnamese from the browser, German from the chooser: lobby, rooms and the viewer', async () => {
    const lan = await visitor('vi-VN');
    assert.equal(await lan.getAttribute('html', 'lang'), 'vi');
    assert.equal(await lan.locator('h1').innerText(), 'Chào mừng đến với Mancala Online');
    assert.equal(await lan.getByTestId('connection').isVisible(), false, 'no "not connected" before anything happened');
    await playAs(lan, 'Lan');
    await lan.getByTestId('create-form').waitFor();
    assert.equal(await lan.getByTestId('create-room').innerText(), 'Tạo phòng');
    await shootBoth(lan, 'languages-lobby-vi');

    const jonas = await visitor('en-US');
    assert.equal(await jonas.getAttribute('html', 'lang'), 'en');
    await jonas.getByTestId('language').selectOption('de');
    await jonas.waitForFunction(() => document.documentElement.lang === 'de');
    await jonas.getByTestId('name-submit').waitFor();
    assert.equal(await jonas.getByTestId('name-submit').innerText(), 'Als Gast spielen');
    await playAs(jonas, 'Jonas');
    await jonas.reload();
    await jonas.waitForSelector('[data-testid=connection][data-status=online]');
    assert.equal(await jonas.getAttribute('html', 'lang'), 'de', 'the choice is kept');
    assert.equal(await jonas.getByTestId('nav-history').innerText(), 'Partien');
    await shootBoth(jonas, 'languages-lobby-de');
    // On a phone the chooser has its own row in every language (English's header is the shortest).
    await jonas.setViewportSize(PHONE);
    for (const code of ['en', 'vi', 'de']) {
      await jonas.getByTestId('language').selectOption(code);
      await jonas.waitForFunction((lang) => document.documentElement.lang === lang, code);
      assert.deepEqual(await sharingTheChoosersRow(jonas), [], `${code}: on a phone the language chooser has its own row`);
    }
    await jonas.setViewportSize(LAPTOP);

    // O An Quan, hosted by the Vietnamese player; the German one joins from the lobby.
    const roomId = await createRoom(lan, 'oanquan');
    await jonas.goto(`${server.url}/#/`);
    await jonas.getByTestId(`join-${roomId}`).click();
    await settled([lan, jonas], 0);
    assert.match(await text(lan, 'room-status'), /^Lượt của /);
    assert.match(await text(jonas, 'room-status'), / ist am Zug/);
    // The host (South) moves first: a square, then its direction.
    await lan.getByTestId('place-q3').click();
    await lan.getByTestId('place-q4').click();
    await settled([lan, jonas], 1);

    // A line one over the limit is refused with the limit said, and stays in the box.
    const long = 'x'.repeat(281);
    await jonas.getByTestId('chat-input').fill(long);
    assert.match(await text(jonas, 'chat-count'), /281 \/ 280/);
    await jonas.getByTestId('chat-input').press('Enter');
    assert.match(await text(jonas, 'chat-error'), /höchstens 280 Zeichen; diese hat 281/);
    assert.equal(await jonas.getByTestId('chat-input').inputValue(), long, 'nothing is cut');
    await jonas.getByTestId('chat-input').fill('Viel Glück!');
    await jonas.getByTestId('chat-input').press('Enter');
    await lan.getByTestId('chat-line').filter({ hasText: 'Viel Glück!' }).waitFor();
    await shootBoth(lan, 'languages-room-vi');
    await shootBoth(jonas, 'languages-room-de');

    await jonas.getByTestId('resign').click();
    for (const page of [lan, jonas]) await page.getByTestId('result').waitFor();
    assert.match(await text(lan, 'result-headline'), /^Lan thắng/);
    assert.match(await text(jonas, 'result-headline'), /^Lan gewinnt/);
    await shootBoth(jonas, 'languages-result-de');

    // The history viewer in both languages.
    for (const [page, lang] of [[lan, 'vi'], [jonas, 'de']]) {
      await page.goto(`${server.url}/#/history/${roomId}`);
      await page.getByTestId('replay-slider').waitFor();
      assert.match(await text(page, 'replay-where'), lang === 'vi' ? /^Nước 0 \/ / : /^Zug 0 von /);
      await page.getByTestId('replay-next').click();
      await shootBoth(page, `languages-history-${lang}`);
    }

    // Duovallis in German, a room waiting for its second player (the seats and the form's words).
    const duo = await createRoom(jonas, 'duovallis');
    assert.ok(duo);
    await jonas.getByTestId('seats').waitFor();
    await shootBoth(jonas, 'languages-duovallis-waiting-de');


    await accountFormsAndLeaderboard(lan, jonas);
  });

  // The rules card of the room's game, opened and shot, then closed.
  async function rulesCard(page, game, name) {
    await page.getByTestId(`show-rules-${game}`).first().click();
    const card = page.getByTestId(`rules-${game}`);
    await card.waitFor();
    const words = await card.innerText();
    await shootBoth(page, name);
    await page.getByTestId('close-rules').click();
    await card.waitFor({ state: 'detached' });
    return words;
  }

  it('Cups, Coin Duel and Njaka in Vietnamese and German: boards, moves, panel and rules cards', async () => {
    const lan = await visitor('vi-VN');
    await playAs(lan, 'Lan');
    const jonas = await visitor('de-DE');
    assert.equal(await jonas.getAttribute('html', 'lang'), 'de');
    await playAs(jonas, 'Jonas');

    // Cups between the two: the reserve's buttons, the pot's caption, a move said in words.
    const cups = await createRoom(lan, 'cups', { options: { cups_per_side: 4 } });
    await jonas.goto(`${server.url}/#/`);
    await jonas.getByTestId(`join-${cups}`).click();
    await settled([lan, jonas], 0);
    assert.equal(await text(lan, 'choice-r2'), 'Rải 2 từ kho dự trữ');
    assert.match(await text(lan, 'prompt'), /^Đến lượt bạn: bấm vào một cốc/, 'the prompt says whose turn in Vietnamese');
    assert.match(await lan.locator('[data-caption-for=s0res]').first().textContent(), /^Dự trữ của Lan/);
    assert.match(await lan.getByTestId('board').getAttribute('aria-label'), /^Bàn cờ /);
    await lan.getByTestId('choice-r3').click();
    await settled([lan, jonas], 1);
    assert.match(await jonas.getByTestId('board').textContent(), /Vorrat von Lan/);
    assert.match(await jonas.locator('[data-caption-for=s1pot]').first().textContent(), /Topf von|Jonas/);
    assert.match(await text(jonas, 'move-list'), /Lan sät 3 Bohnen aus dem Vorrat/);
    assert.match(await text(lan, 'move-list'), /Lan rải 3 hạt từ kho dự trữ/);
    await shootBoth(jonas, 'languages-cups-de');
    await shootBoth(lan, 'languages-cups-vi');
    assert.match(await rulesCard(jonas, 'cups', 'languages-cups-rules-de'), /Becher.*Topf|Topf.*Becher/s);
    assert.match(await rulesCard(lan, 'cups', 'languages-cups-rules-vi'), /cốc.*hũ/s);

    // Coin Duel, stage 3, against the computer: the round panel and the coins left to place.
    for (const [page, lang] of [[jonas, 'de'], [lan, 'vi']]) {
      await playComputer(page, 'coin_duel', { level: 1, starter: 'you' });
      await waitForChoices(page);
      assert.match(await text(page, 'coin-panel'), lang === 'de' ? /^Runde 1 von 4/ : /^Hiệp 1\/4/);
      // The computer is named in the player's language, from its level, not by the server's English.
      assert.equal(await text(page, 'seat-name-1'), lang === 'de' ? 'Computer, Stufe 1' : 'Máy, cấp 1');
      assert.match(await text(page, 'winning-coin'), lang === 'de' ? /^Gewinnmünze:[\s\S]*Penny, im Topf 10 wert$/ : /^Đồng xu thắng:[\s\S]*Penny, trong hũ đáng 10$/);
      assert.match(await text(page, 'winning-places'), lang === 'de' ? /^Die beiden Pennys: Vorrat von / : /^Hai đồng penny: Dự trữ của /);
      await page.getByTestId('choice-r3').click();
      await page.getByTestId('choice-P').or(page.getByTestId('choice-N')).first().waitFor();
      assert.match(await page.locator('.guide').innerText(), lang === 'de' ? /Wähle die nächste Münze zum Säen \(noch 3 der 3 Münzen aus deinem Vorrat zu setzen\)/ : /Chọn đồng xu tiếp theo để rải \(còn 3 trong 3 đồng xu/);
      await shootBoth(page, `languages-coin-duel-${lang}`);
      assert.match(await rulesCard(page, 'coin_duel', `languages-coin-duel-rules-${lang}`), lang === 'de' ? /Gewinnmünze/ : /đồng xu thắng/);
    }

    // Njaka against the computer: the stores of sets and the rules card.
    for (const [page, lang] of [[lan, 'vi'], [jonas, 'de']]) {
      await playComputer(page, 'njaka', { level: 1, starter: 'you' });
      await waitForChoices(page);
      assert.match(await page.getByTestId('board').textContent(), lang === 'de' ? /0 Vierer/ : /0 bộ/);
      await shootBoth(page, `languages-njaka-${lang}`);
      assert.match(await rulesCard(page, 'njaka', `languages-njaka-rules-${lang}`), lang === 'de' ? /Vierer/ : /bộ bốn/);
    }

    await accountFormsAndLeaderboard(lan, jonas);
  });

  it('the rules pages of every game in Vietnamese and German, at 1280 and 390 px', async () => {
    const GAMES = ['cups', 'coin_duel', 'oanquan', 'njaka', 'duovallis'];
    // The English pages' sentences, none of which may be left in the other languages.
    const english = await visitor('en-US');
    const englishBlocks = new Set();
    for (const game of GAMES) for (const block of await rulesPage(english, game)) englishBlocks.add(block);
    await english.context().close();

    const WORDS = {
      vi: { title: (name) => `Cách chơi ${name}`, four: 'Luật chơi trong bốn dòng', others: 'Trò chơi khác', crumb: /› Luật chơi$/,
        names: { cups: 'Cups', coin_duel: 'Coin Duel', oanquan: 'Ô ăn quan', njaka: 'Mancala của Njaka', duovallis: 'Duovallis' },
        // Each game's own words (web-client/README.md's glossaries), O An Quan's the folk ones.
        game: { cups: /kho dự trữ.*hũ/s, coin_duel: /đồng xu thắng/, oanquan: /ô dân.*ô quan.*phần ăn/s, njaka: /bộ/, duovallis: /hàng sau.*Quân lạ.*khay giữ/s },
        missing: 'Không có trò chơi này' },
      de: { title: (name) => `So spielt man ${name}`, four: 'Die Regeln in vier Zeilen', others: 'Andere Spiele', crumb: /› Regeln$/,
        names: { cups: 'Cups', coin_duel: 'Coin Duel', oanquan: 'O An Quan', njaka: 'Njakas Mancala-Spiel', duovallis: 'Duovallis' },
        // Duovallis in the words of its German rule text.
        game: { cups: /Vorrat.*Becher.*Topf/s, coin_duel: /Gewinnmünze/, oanquan: /Endfeld/, njaka: /Vierer/, duovallis: /Mulde.*hinteren Reihe.*Fremde Steine.*Ablage/s },
        missing: 'Dieses Spiel gibt es nicht' },
    };
    for (const [locale, lang] of [['vi-VN', 'vi'], ['de-DE', 'de']]) {
      const page = await visitor(locale);
      const words = WORDS[lang];
      for (const game of GAMES) {
        const blocks = await rulesPage(page, game);
        const rules = page.getByTestId('rules-page');
        assert.equal(await rules.locator('h1').innerText(), words.title(words.names[game]), `${lang} ${game}: the title`);
        assert.match(await rules.locator('p.muted').first().innerText(), words.crumb);
        assert.ok(blocks.includes(words.four), `${lang} ${game}: "${words.four}"`);
        assert.equal(await rules.locator('nav.rules-others').getAttribute('aria-label'), words.others);
        assert.match(blocks.join('\n'), words.game[game], `${lang} ${game}: the game's own words`);
        assert.deepEqual(blocks.filter((block) => englishBlocks.has(block)), [], `${lang} ${game}: no English sentence left`);
        await rulesAtBothWidths(page, `languages-rules-${game}-${lang}`);
      }
      await page.goto(`${server.url}/#/rules/chess`);
      await page.getByTestId('rules-page').locator('h1').filter({ hasText: words.missing }).waitFor();
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  });

  it('the room form in Vietnamese and German: every option\'s help in the language, not the server\'s English', async () => {
    const types = await (await fetch(`${server.url}/api/game-types`)).json();
    // The server's sentences as the form would show them when no catalogue has the option.
    const english = (help) => help.charAt(0).toUpperCase() + help.slice(1);
    for (const [locale, catalogue] of [['vi-VN', vi], ['de-DE', de]]) {
      const page = await visitor(locale);
      await playAs(page, locale === 'vi-VN' ? 'Lan' : 'Jonas');
      const form = page.getByTestId('create-form');
      await form.waitFor();
      for (const game of types.games) {
        await page.getByTestId('new-game').selectOption(game.id);
        await form.getByTestId(`option-${Object.keys(game.options)[0]}`).waitFor({ state: 'attached' });
        const helps = await form.locator('[data-testid^=option-]').evaluateAll((nodes) => nodes.map((node) => ({
          name: node.name,
          help: document.getElementById(node.getAttribute('aria-describedby')).textContent,
          shown: node.checkVisibility(),
        })));
        assert.deepEqual(helps.map((field) => field.name).sort(), Object.keys(game.options).sort(), `${locale} ${game.id}: every option`);
        for (const { name, help } of helps) {
          assert.ok(!help.includes(english(game.options[name].help)), `${locale} ${game.id}.${name}: not the server's English: ${help}`);
          assert.ok(help.startsWith(catalogue[`option.${game.id}.${name}.help`]), `${locale} ${game.id}.${name}: the catalogue's help: ${help}`);
        }
        // At least one field in view, its help read as the player sees it (Duovallis has all its
        // options folded under "More …": unfolded first).
        if (!helps.some((field) => field.shown)) await form.getByTestId('more-game-options').locator('summary').click();
        const { name } = helps[0];
        const seen = page.locator(`#${await form.getByTestId(`option-${name}`).getAttribute('aria-describedby')}`);
        await seen.waitFor();
        assert.ok((await seen.innerText()).startsWith(catalogue[`option.${game.id}.${name}.help`]), `${locale} ${game.id}.${name}: its help in view`);
      }
      // Njaka, the game with the most options, every one unfolded, on a phone: nothing cut off,
      // not even a list's chosen value.
      await page.getByTestId('new-game').selectOption('njaka');
      await form.getByTestId('more-game-options').locator('summary').click();
      await form.getByTestId('option-plex_window_ms').waitFor();
      await page.setViewportSize(PHONE);
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      assert.deepEqual(await cutOff(page), [], `the ${locale} room form at 390 px: nothing cut off`);
      assert.deepEqual(await selectsCut(page, '[data-testid=create-form]'), [], `the ${locale} room form at 390 px: every chosen value in its list`);
      await screenshot(page, `languages-room-form-njaka-${locale.slice(0, 2)}-390`, '[data-testid=create-form]');
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  });

  it('the account settings page in Vietnamese and German, after a sign-up with no games to keep', async () => {
    for (const [locale, name, words] of [
      ['vi-VN', 'Lan_vi', { created: 'Đã tạo tài khoản: bạn là Lan_vi.', title: 'Tài khoản của bạn', here: 'thiết bị này', password: 'Đổi mật khẩu' }],
      ['de-DE', 'Jonas_de', { created: 'Konto angelegt: Du bist Jonas_de.', title: 'Dein Konto', here: 'dieses Gerät', password: 'Passwort ändern' }],
    ]) {
      const page = await visitor(locale);
      await page.getByTestId('name-signup').click();
      const dialog = page.getByTestId('signup-dialog');
      await dialog.getByTestId('signup-name').fill(name);
      for (const field of ['signup-password', 'signup-repeat']) await dialog.getByTestId(field).fill('lange genug 42!');
      await dialog.getByTestId('signup-submit').click();
      await page.getByTestId('notice').filter({ hasText: words.created }).waitFor();
      await page.getByTestId('this-device').waitFor();
      assert.equal(await page.locator('.account-page h1').innerText(), words.title);
      assert.equal(await text(page, 'this-device'), words.here);
      assert.equal(await page.locator('.account-page h2').nth(1).innerText(), words.password);
      // Shot once the welcome is gone: on a phone it covers the password form.
      await page.getByTestId('notice').waitFor({ state: 'detached' });
      await shootBoth(page, `languages-account-${locale.slice(0, 2)}`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  });
});

// A whole game as a record (docs/records.md's example), for the import page.
const CUPS_RECORD = `[Game "cups"]
[Options "cups_per_side=3"]
[Seat0 "Ana"]
[Seat1 "Bo"]
[Result "S0 wins (no_moves)"]

1. S0 r3 2. S1 r3 3. S0 r2 4. S1 r2 5. S0 c2 6. S1 c3 7. S0 r2 8. S1 r1
9. S0 r3 10. S1 r2 11. S0 r3 12. S1 r2 13. S0 r2 14. S1 r2 15. S0 r1 16. S1 r2
17. S0 c2 18. S1 r3 19. S0 r3 20. S1 r1 21. S0 r1 22. S1 r2 23. S0 r1 24. S1 r2
25. S0 r1 26. S1 r3 27. S0 r3 28. S1 r1 29. S0 c2 30. S1 r2 31. S0 r2 32. S1 r1
33. S0 r2 34. S1 r1 35. S0 c2 <pass S1> 36. S0 r1 <game_end>
`;

describe('languages: import and analysis', () => {
  it('the import page in German, on a phone', async () => {
    const page = await visitor('de-DE');
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/#/import`);
    await page.getByTestId('import-page').waitFor();
    assert.equal(await page.locator('.import-page h1').innerText(), 'Partie importieren');
    await page.getByTestId('import-open').click();
    assert.equal(await text(page, 'import-error'), 'Füge eine Partieaufzeichnung ein oder wähle eine Datei.');
    await page.getByTestId('import-file').setInputFiles({ name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.alloc(70 * 1024, 'x') });
    await page.getByTestId('import-error').filter({ hasText: 'Diese Partieaufzeichnung ist 70 KB groß; erlaubt sind höchstens 64 KB.' }).waitFor();
    assert.match(await page.locator('#import-help').innerText(), /„Als Text herunterladen“/);
    await shootBoth(page, 'languages-import-de');
    await page.setViewportSize(PHONE);
    await page.getByTestId('import-text').fill(CUPS_RECORD);
    await page.getByTestId('import-open').click();
    await page.getByTestId('replay').waitFor();
    assert.equal(await page.getByTestId('import-another').innerText(), 'Weitere Partie importieren');
    // Its analysis in German: the card, the progress or result words, the marks and the help.
    assert.equal(await page.locator('[data-testid=analysis] h2').innerText(), 'Engine-Analyse');
    await page.getByTestId('analyse').click();
    await page.waitForSelector('[data-testid=analysis][data-status=done]');
    assert.match(await text(page, 'accuracy-0'), /^\d+ % Genauigkeit$/);
    assert.equal(await page.locator('[data-testid=analysis-help] summary').innerText(), 'Über die Analyse');
    assert.match(await page.getByTestId('analysis-help').textContent(), /um 0,10 oder mehr senkt, ist eine Ungenauigkeit/);
    // On the phone (the viewer was opened at 390 px: its board is drawn for a portrait screen).
    assert.deepEqual(await cutOff(page), [], 'the German analysis at 390 px: nothing cut off');
    await screenshot(page, 'languages-analysis-de-390');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

// Issue 49: an account's language is kept by the server. Chosen in one browser, it is the page's
// in a fresh profile whose browser speaks English as soon as the account logs in there (once:
// the page switches to it and stays), and the chooser there shows it.
describe("an account's language", () => {
  it('follows the account from one browser profile to another', async () => {
    const PASSWORD = 'correct horse battery';
    const first = await visitor('en-US');
    await first.getByTestId('name-signup').click();
    await first.getByTestId('signup-name').fill('Linh');
    await first.getByTestId('signup-password').fill(PASSWORD);
    await first.getByTestId('signup-repeat').fill(PASSWORD);
    await first.getByTestId('signup-submit').click();
    await first.getByTestId('nav-account').waitFor();
    assert.equal(await first.getAttribute('html', 'lang'), 'en');
    const kept = first.waitForResponse((response) => response.url().endsWith('/api/account/language'));
    await first.getByTestId('language').selectOption('vi');
    assert.equal((await kept).status(), 200, 'the chooser keeps an account\'s choice on the server');
    await first.waitForFunction(() => document.documentElement.lang === 'vi');
    assert.equal(await first.getByTestId('nav-account').innerText(), 'Tài khoản', 'still logged in, in Vietnamese');

    const second = await visitor('en-US');
    assert.equal(await second.getAttribute('html', 'lang'), 'en', 'a fresh profile starts in its browser\'s language');
    let loads = 0;
    second.on('load', () => { loads += 1; });
    await second.getByTestId('name-login').click();
    await second.getByTestId('login-name').fill('Linh');
    await second.getByTestId('login-password').fill(PASSWORD);
    await second.getByTestId('login-submit').click();
    await second.waitForFunction(() => document.documentElement.lang === 'vi');
    await second.waitForSelector('[data-testid=connection][data-status=online]');
    assert.equal(await second.getByTestId('nav-account').innerText(), 'Tài khoản');
    assert.equal(await second.getByTestId('language').inputValue(), 'vi', 'the chooser shows it');
    await second.getByTestId('create-form').waitFor();
    assert.equal(await second.getByTestId('create-room').innerText(), 'Tạo phòng', 'the lobby in Vietnamese');
    assert.equal(loads, 1, 'the page switched once, and stays');
    await screenshot(second, 'languages-account-vi-elsewhere');
    for (const page of [first, second]) assert.deepEqual(page.errors, []);
  });
});
