// The page in a real Chromium, driven by playwright-core: node page_test.js URL SCREENSHOT_DIR
// Prints "page test passed" at the end; any failure throws (exit code 1).
'use strict';
const fs = require('fs');
const path = require('path');
const { base, shots, check, text, run, pages, newPage: openPage, stone, hit } = require('./common.js');

// Pages that may download (the SGF).
const newPage = (browser, options = {}) => openPage(browser, { acceptDownloads: true, ...options });

const { spawn } = require('child_process');
const readline = require('readline');

// What the page's sounds and notifications did: the oscillators started, the notifications
// shown (each browser context counts its own).
const HOOKS = () => {
  window.__tones = 0;
  window.__notes = [];
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...a) { window.__tones++; return start.apply(this, a); };
  window.Notification = class { constructor(title, o) { window.__notes.push(o?.body ?? title); } };
  window.Notification.permission = 'granted';
  window.Notification.requestPermission = async () => 'granted';
};

const inUpperRight = (vertex, n) => 'ABCDEFGHJKLMNOPQRST'.indexOf(vertex[0]) * 2 > n - 1 && (Number(vertex.slice(1)) - 1) * 2 > n - 1;

async function gameAgainstTheComputer(browser) {
  const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(base + '/');
  await page.locator('input[name=level]').fill('1');
  await page.waitForFunction(() => /playout search/.test(document.querySelector('#level-info')?.textContent));
  await page.locator('input[name=size][value="9"]').check();
  await page.locator('input[name=color][value=white]').check();
  await page.screenshot({ path: path.join(shots, '1-new-game.png') });
  await page.locator('#create').click();
  await page.waitForURL(/\/games\/[0-9a-f]+$/);
  await page.locator('rect.hit').nth(80).waitFor({ state: 'attached' });
  check((await page.locator('rect.hit').count()) === 81, '81 points on a 9×9 board');
  // The computer opens as Black in its own upper-right corner (对局礼仪).
  await page.locator('circle.stone.black').first().waitFor();
  const opening = await page.locator('circle.stone.black').first().getAttribute('data-vertex');
  check(inUpperRight(opening, 9), `the computer's first stone in its upper-right corner: ${opening}`);
  check(/tengen \(level 1\)/.test(await text(page, '.player.black .name')) && /\(you\)/.test(await text(page, '.player.white .name')),
    'the computer is named, the player is "you"');
  // A move by clicking; the computer answers.
  await page.waitForFunction(() => !document.querySelector('#pass').disabled);
  await hit(page, 'E5').click();
  await stone(page, 'white', 'E5').waitFor();
  // A move by keyboard.
  await page.waitForFunction(() => Number(document.querySelector('#step').max) >= 3 && !document.querySelector('#pass').disabled);
  const free = await page.evaluate(() => ['C3', 'G3', 'C7', 'D4', 'F4'].find((v) => !document.querySelector(`circle.stone[data-vertex="${v}"]`)));
  await page.keyboard.type(free);
  await page.keyboard.press('Enter');
  await stone(page, 'white', free).waitFor();
  await page.waitForFunction(() => Number(document.querySelector('#step').max) >= 5 && !document.querySelector('#pass').disabled);
  await page.screenshot({ path: path.join(shots, '2-game.png') });
  // The weakest level plays stones on an open board: no pass among its first moves.
  const early = await page.evaluate(async () => (await (await fetch(`/api/games/${location.pathname.split('/')[2]}`)).json()).history);
  check(early.slice(0, 5).every((m) => m.move !== 'pass'), `no early pass: ${JSON.stringify(early)}`);
  // An illegal move explains itself in a line of text.
  await hit(page, 'E5').click();
  await page.waitForFunction(() => /occupied/.test(document.querySelector('#message')?.textContent));
  // Pass until two passes end play (the computer passes back once the board is settled).
  for (let i = 0; i < 120; i++) {
    const phase = await page.evaluate(() => document.querySelector('#accept').hidden ? 'play' : 'counting');
    if (phase === 'counting') break;
    await page.waitForFunction(() => !document.querySelector('#accept').hidden || !document.querySelector('#pass').disabled, null, { timeout: 30000 });
    if (await page.locator('#pass').isEnabled() && await page.locator('#accept').isHidden()) await page.locator('#pass').click();
    await page.waitForTimeout(50);
  }
  check(await page.locator('#accept').isVisible(), 'two passes lead to counting');
  await page.waitForFunction(() => !document.querySelector('#accept').disabled);
  // The engine's proposal arrives; the count is said in English, komi explained.
  await page.waitForFunction(() => /^Black [\d¼½¾]+ stones, White [\d¼½¾]+; komi 3¾ stones — (Black|White) wins by .+ \([BW]\+[\d.]+\)$/.test(document.querySelector('#score')?.textContent));
  // The computer's judgement is shown before anything is accepted: a ▲ on each stone it
  // judges dead, and a line that says how many.
  const judged = await page.evaluate(async () => (await (await fetch(`/api/games/${location.pathname.split('/')[2]}`)).json()).proposal);
  check(await page.locator('path.judged-dead').count() === judged.length, `a ▲ on each stone the computer judges dead: ${judged}`);
  check(new RegExp(judged.length ? `^The computer judges ${judged.length} stones? dead` : '^The computer judges every stone alive').test(await text(page, '#judged-dead')),
    `the judgement in words: ${await text(page, '#judged-dead')}`);
  // A chain it judges dead left alive: it does not agree, and says which.
  if (judged.length) {
    await hit(page, judged[0]).click();
    await page.waitForFunction((v) => !document.querySelector(`circle.stone[data-vertex="${v}"]`).classList.contains('dead'), judged[0]);
    await page.locator('#accept').click();
    await page.waitForFunction(() => /^The computer does not agree: it judges .+ dead/.test(document.querySelector('#dispute')?.textContent));
    check(await page.locator(`circle.stone.dead[data-vertex="${judged[0]}"]`).count() === 1, 'its judgement is back');
  }
  // Marking the computer's chains dead: it does not agree, says which, and puts its own
  // marking back.
  for (let i = 0; i < 40; i++) {
    const black = await page.evaluate(() => [...document.querySelectorAll('circle.stone.black')].find((e) => !e.classList.contains('dead'))?.getAttribute('data-vertex'));
    if (!black) break;
    await hit(page, black).click();
    await page.waitForFunction((v) => document.querySelector(`circle.stone[data-vertex="${v}"]`).classList.contains('dead'), black);
  }
  const black = await page.locator('circle.stone.black').first().getAttribute('data-vertex');
  check(await page.locator('path.cross').count() > 0, 'dead stones are crossed');
  await page.screenshot({ path: path.join(shots, '3-counting.png') });
  await page.locator('#accept').click();
  await page.waitForFunction(() => /^The computer does not agree: it judges .+ alive/.test(document.querySelector('#dispute')?.textContent));
  check(await page.locator('#accept').isVisible() && !(await stone(page, 'black', black).evaluate((e) => e.classList.contains('dead'))),
    'still counting, with the computer\'s marking');
  // Every stone of the chains in question is ringed, not one stone a chain.
  const ringed = await page.locator('circle.chain-mark.alive').count();
  check(ringed === await page.locator('circle.stone.black').count() && ringed > 1, `the disputed chains ringed (${ringed})`);
  await page.screenshot({ path: path.join(shots, '3b-dispute.png') });
  // Its own marking it accepts.
  await page.locator('#accept').click();
  await page.waitForFunction(() => /^Game over: (Black|White) wins by .+ \([BW]\+/.test(document.querySelector('#status')?.textContent));
  await page.screenshot({ path: path.join(shots, '4-result.png') });
  // The SGF download.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#sgf').click()]);
  const sgf = fs.readFileSync(await download.path(), 'utf8');
  check(sgf.startsWith('(;GM[1]') && sgf.includes(';W[ee]') && /RE\[[BW]\+/.test(sgf) && sgf.includes('PB[tengen (level 1)]'), `the SGF: ${sgf.slice(0, 160)}`);
  // Review: arrow keys step back through the moves.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelectorAll('circle.stone').length === 0);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await stone(page, 'white', 'E5').waitFor();
  // The commentary names the move on the board: E5 is 天元, a 星, in the 中腹 (the least
  // specific names behind "more" when the move has more than three).
  await page.waitForFunction(() => document.querySelector('#commentary ul.terms'));
  const shownNames = await page.locator('#commentary li.term').count();
  check(shownNames >= 1 && shownNames <= 3, `at most three names before "more": ${shownNames}`);
  if (await page.locator('#more-names').count()) {
    await page.locator('#more-names').click();
    await page.waitForFunction(() => document.querySelector('#more-names')?.textContent === 'fewer');
  }
  await page.waitForFunction(() => {
    const text = document.querySelector('#commentary')?.textContent;
    return /天元/.test(text) && /centre point/.test(text) && /中腹/.test(text);
  });
  await page.screenshot({ path: path.join(shots, '4b-commentary.png') });
  // The language switch: the result in Chinese, with a full-width colon.
  await page.locator('#lang').click();
  await page.waitForFunction(() => document.querySelector('#undo')?.textContent === '悔棋' && /^终局：[黑白](胜|中盘胜)/.test(document.querySelector('#status')?.textContent));
  await page.context().close();
}

async function newFriendGame(page, { size = '9', handicap, time, name } = {}) {
  await page.goto(base + '/');
  await page.locator('input[name=opponent][value=friend]').check();
  await page.locator(`input[name=size][value="${size}"]`).check();
  await page.locator('input[name=color][value=black]').check();
  if (name !== undefined) await page.locator('#new-form input[name=name]').fill(name);
  if (handicap) await page.locator('#new-form select[name=handicap]').selectOption(handicap);
  if (time) {
    await page.locator('select[name=time]').selectOption(time.kind);
    for (const [field, value] of Object.entries(time)) if (field !== 'kind') await page.locator(`input[name=${field}]`).fill(String(value));
  }
  await page.locator('#create').click();
  await page.waitForURL(/\/games\/[0-9a-f]+$/);
  await page.locator('rect.hit').nth(size * size - 1).waitFor({ state: 'attached' });
  return page.locator('.seat-link').nth(1).inputValue();
}

async function typeMove(page, vertex, color) {
  await page.waitForFunction(() => !document.querySelector('#pass').disabled);
  await page.locator('#move-input').fill(vertex);
  await page.locator('#move-input').press('Enter');
  await stone(page, color, vertex).waitFor({ timeout: 5000 });
}

async function gameBetweenFriends(browser) {
  const one = await newPage(browser, { viewport: { width: 1280, height: 860 } });
  await one.goto(base + '/');
  await one.locator('input[name=opponent][value=friend]').check();
  await one.locator('select[name=time]').selectOption('byoyomi');
  check(await one.locator('input[name=increment]').isHidden(), 'only the chosen control\'s fields');
  const friendLink = await newFriendGame(one, { name: 'Alice', time: { kind: 'byoyomi', main: 5 } });
  check(/#seat=[0-9a-f]{32}&as=white$/.test(friendLink), `the friend's link: ${friendLink}`);
  check(await one.locator('#seats').evaluate((e) => e.open) && await one.locator('#seats button.copy').count() === 3, 'the links open, each with a copy button');
  await one.screenshot({ path: path.join(shots, '5a-links.png') });
  // The friend opens the second link, on a phone, and names the seat.
  const two = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await two.addInitScript(HOOKS);
  await two.addInitScript(() => {
    localStorage.setItem('tengen-settings', JSON.stringify({ sound: true, notify: true }));
    document.hasFocus = () => false;
  });
  await two.goto(friendLink);
  await two.locator('rect.hit').nth(80).waitFor({ state: 'attached' });
  await two.locator('#name-input').fill('Bob');
  await two.locator('#name-form button').click();
  // Guests' names are marked as guests' (no account stands behind them).
  await one.waitForFunction(() => document.querySelector('.player.white .name')?.textContent === 'White · Bob (guest)');
  check(await text(one, '.player.black .name') === 'Black · Alice (guest) (you)', 'the creator sees itself as you');
  check(await text(two, '.player.black .name') === 'Black · Alice (guest)' && await text(two, '.player.white .name') === 'White · Bob (guest) (you)',
    `the friend sees the creator by name: ${await text(two, '.player.black .name')}`);
  // Moves both ways; the friend's page says whose turn in the tab's title and notifies.
  await hit(one, 'C5').click();
  await stone(two, 'black', 'C5').waitFor({ timeout: 5000 });
  await two.waitForFunction(() => document.title.startsWith('●') && window.__notes.length > 0 && window.__tones > 0);
  await typeMove(two, 'E4', 'white');
  await one.waitForFunction(() => !document.querySelector('#seats').open);
  // Each alert can be switched off: the title stays plain, no sound is made.
  await two.locator('#settings summary').click();
  await two.locator('#set-title').uncheck();
  await two.locator('#set-sound').uncheck();
  const tones = await two.evaluate(() => window.__tones);
  await typeMove(one, 'J9', 'black');
  await two.waitForFunction(() => !document.querySelector('#pass').disabled);
  check(await two.title() === 'tengen 天元' && await two.evaluate(() => window.__tones) === tones, 'title and sound off');
  await two.locator('#set-title').check();
  await two.locator('#set-sound').check();
  await two.locator('#settings summary').click();
  await typeMove(two, 'A1', 'white');
  // A ko: White takes at D5; Black may not retake E5 at once. The point is marked, no
  // hover stone shows there, and a click says why.
  for (const [page, v, c] of [[one, 'D4', 'black'], [two, 'E6', 'white'], [one, 'D6', 'black'], [two, 'F5', 'white'], [one, 'E5', 'black'], [two, 'D5', 'white']]) {
    await typeMove(page, v, c);
  }
  await one.locator('rect.ko[data-vertex="E5"]').waitFor();
  await hit(one, 'E5').hover();
  check(await one.locator('circle.shadow').getAttribute('visibility') === 'hidden', 'no hover stone on the ko point');
  await hit(one, 'E5').click();
  await one.waitForFunction(() => /retakes the ko/.test(document.querySelector('#message')?.textContent));
  await one.screenshot({ path: path.join(shots, '6-ko.png') });
  // Move numbers on: the last move (10, White's D5) still stands out.
  await one.locator('#numbers').check();
  check(await one.locator('text.number.last-number').textContent() === '10', 'the last move marked with numbers on');
  await one.screenshot({ path: path.join(shots, '6a-numbers.png') });
  await one.locator('#numbers').uncheck();
  // Undo asked, a click meanwhile, the refusal told.
  await typeMove(one, 'J1', 'black');
  await one.locator('#undo').click();
  await two.locator('#undo-reject').waitFor();
  await hit(one, 'A9').click();
  await one.waitForFunction(() => document.querySelector('#message')?.textContent === 'Waiting for the answer to your undo request.');
  await two.locator('#undo-reject').click();
  await one.waitForFunction(() => document.querySelector('#message')?.textContent === 'Your undo request was refused.');
  // Reviewing on one's own move: the status says so, and a click plays on the live board.
  await two.locator('#first').click();
  await two.waitForFunction(() => document.querySelectorAll('circle.stone').length === 0 && document.querySelector('#status')?.textContent === 'Your turn');
  await hit(two, 'A9').click();
  await stone(one, 'white', 'A9').waitFor({ timeout: 5000 });
  await two.waitForFunction(() => document.querySelectorAll('circle.stone').length > 5);
  // Chinese on the phone: a refusal by its code, not the server's English.
  await two.locator('#lang').click();
  await hit(one, 'B9').click();
  await stone(two, 'black', 'B9').waitFor({ timeout: 5000 });
  await hit(two, 'C5').click();
  await two.waitForFunction(() => document.querySelector('#message')?.textContent === '不行：C5 已有棋子');
  // Layout: one line each for the header, the names and the step label, even in Chinese.
  const height = (page, sel) => page.locator(sel).evaluate((e) => e.getBoundingClientRect().height);
  check(await height(two, 'header') < 50, `the header on one line on a phone: ${await height(two, 'header')}`);
  check(await height(two, '#step-label') < 30 && await height(one, '.player.black .name') < 30, 'the step label and names on one line');
  const box = await two.locator('#board').boundingBox();
  check(box.width <= 390 && box.width > 300, `the board fits a phone: ${box.width}`);
  const wide = await two.evaluate(() => document.documentElement.scrollWidth);
  check(wide <= 390, `nothing wider than the phone: ${wide}`);
  check(await text(two, '#seats summary') === '链接', 'the links box in Chinese');
  await two.screenshot({ path: path.join(shots, '5-phone.png'), fullPage: true });
  await one.screenshot({ path: path.join(shots, '6b-friend-game.png') });
  const desk = await one.locator('#board').boundingBox();
  check(desk.y + desk.height <= 860, `the whole board above the fold at 1280×860: ${desk.y + desk.height}`);
  // The record carries both names.
  const sgf = await one.evaluate(async () => (await fetch(`/api/games/${location.pathname.split('/')[2]}/sgf`)).text());
  check(sgf.includes('PB[Alice]') && sgf.includes('PW[Bob]'), `the names in the SGF: ${sgf.slice(0, 120)}`);
  // Free handicap placement by clicking: two stones, then White moves.
  await one.goto(base + '/');
  await one.locator('input[name=opponent][value=friend]').check();
  await one.locator('input[name=size][value="9"]').check();
  await one.locator('input[name=color][value=black]').check();
  await one.locator('select[name=time]').selectOption('none');
  await one.locator('#new-form select[name=handicap]').selectOption('2');
  await one.locator('select[name=placement]').selectOption('free');
  await one.locator('#create').click();
  await one.waitForURL(/\/games\/[0-9a-f]+$/);
  await one.locator('rect.hit').nth(80).waitFor({ state: 'attached' });
  await hit(one, 'C3').click();
  await hit(one, 'G7').click();
  await one.waitForFunction(() => /White|白/.test(document.querySelector('#status')?.textContent));
  check((await one.locator('circle.stone.black').count()) === 2, 'two handicap stones placed');
  await one.context().close();
  await two.context().close();
}

// Byo-yomi on the page: the clocks wait for the first stone, main time runs out, the period
// counts down with the periods left, the last period is marked, the last seconds beep and
// are counted, and the flag falls.
async function overtimeCountsDown(browser) {
  const one = await newPage(browser, { viewport: { width: 1280, height: 860 } });
  const friendLink = await newFriendGame(one, { time: { kind: 'byoyomi', main: 0.05, period: 2, periods: 3 } });
  const two = await newPage(browser, { viewport: { width: 1280, height: 860 } });
  await two.addInitScript(HOOKS);
  await two.goto(friendLink);
  await two.locator('rect.hit').nth(80).waitFor({ state: 'attached' });
  const clock = (page, side) => text(page, `.player.${side} .clock`);
  const before = await clock(one, 'black');
  await one.waitForTimeout(1500);
  check(before === '0:03 +3×2s' && await clock(one, 'black') === before, `the clock waits for the first stone: ${before}`);
  await hit(one, 'E5').click();
  await stone(two, 'black', 'E5').waitFor({ timeout: 5000 });
  // White's main time (3 s) runs out: the page goes on into the periods by itself.
  await two.waitForFunction(() => /^\d:\d\d ×[23] periods$/.test(document.querySelector('.player.white .clock')?.textContent) &&
    /overtime/.test(document.querySelector('.player.white .caps')?.textContent), null, { timeout: 6000 });
  const seen = new Set();
  const api = async () => (await two.evaluate(async () => (await (await fetch(`/api/games/${location.pathname.split('/')[2]}`)).json()).clocks.white));
  let agreed = 0;
  for (let i = 0; i < 40 && !(await two.locator('.player.white .clock.last-period').count()); i++) {
    const shown = await clock(two, 'white');
    seen.add(shown);
    const server = await api();
    const periods = Number((/×(\d)/.exec(shown) || [0, 1])[1]);
    // Away from a period's end both count the same periods left.
    if (server.period_ms > 400 && server.period_ms < 1600 && server.periods === periods) agreed++;
    await two.waitForTimeout(150);
  }
  check(seen.size >= 4, `the period counts down: ${[...seen].join(' | ')}`);
  check(agreed > 0, 'the page and the server agree on the periods left');
  check(/last period/.test(await clock(two, 'white')), 'the last period is marked');
  await two.screenshot({ path: path.join(shots, '9-last-period.png') });
  await two.waitForFunction(() => /wins on time \(B\+T\)/.test(document.querySelector('#status')?.textContent), null, { timeout: 5000 });
  // The fallen flag reads nothing left, on the page and in the API (it read a period's seconds).
  const fallen = await clock(two, 'white');
  check(/^0:00/.test(fallen), `the lost clock reads 0:00: ${fallen}`);
  check((await api()).remaining_ms === 0, 'the API says no time left');
  const [tones, count] = await two.evaluate(() => [window.__tones, document.querySelector('#countdown')?.textContent]);
  check(tones >= 3 && /^[12]$/.test(count), `the last seconds beep and are counted: ${tones} tones, count ${count}`);
  await one.context().close();
  await two.context().close();
}

// The count explains komi and the handicap's return, in both languages.
async function theCountExplainsItself(browser) {
  const one = await newPage(browser, { viewport: { width: 1280, height: 860 } });
  const friendLink = await newFriendGame(one, { handicap: '2' });
  const two = await newPage(browser, { viewport: { width: 1280, height: 860 } });
  await two.goto(friendLink);
  await two.locator('#pass').waitFor();
  await two.waitForFunction(() => !document.querySelector('#pass').disabled);
  await two.locator('#pass').click();
  await one.waitForFunction(() => !document.querySelector('#pass').disabled);
  await one.locator('#pass').click();
  await one.waitForFunction(() => /^Black 81 stones, White 0; Black returns 1 stone for its 2 handicap stones — Black wins by 39½ stones \(B\+79\)$/.test(document.querySelector('#score')?.textContent));
  check((await text(one, '#score-zh')).startsWith('黑 81 子 · 白 0 子 — 黑胜 39'), `the Chinese count beside: ${await text(one, '#score-zh')}`);
  await one.locator('#lang').click();
  await one.waitForFunction(() => document.querySelector('#score')?.textContent === '黑 81 子 · 白 0 子；黑还 1 子（让 2 子） — 黑胜 39½ 子 · B+79');
  await one.screenshot({ path: path.join(shots, '10-count-zh.png') });
  await one.context().close();
  await two.context().close();
}

// The game settings of the API on the page: rules, komi, a rematch with colours swapped, the
// spectators' link, my games.
async function settingsRematchAndMyGames(browser) {
  const page = await newPage(browser, { viewport: { width: 1280, height: 860 } });
  await page.goto(base + '/');
  await page.locator('input[name=level]').fill('8');
  await page.waitForFunction(() => /20000 simulations a move/.test(document.querySelector('#level-info')?.textContent));
  // Each level's strength is said for the board chosen: measured on 9×9, 13×13 and 19×19 apart.
  check(/^9×9: about 4 kyu; /.test(await text(page, '#level-info')), `level 8 on 9×9: ${await text(page, '#level-info')}`);
  await page.locator('input[name=level]').fill('5');
  await page.locator('input[name=size][value="19"]').check();
  await page.waitForFunction(() => /^19×19: about 13 kyu; the playout search, 1000 simulations/.test(document.querySelector('#level-info')?.textContent));
  await page.locator('input[name=size][value="13"]').check();
  await page.waitForFunction(() => /^13×13: about 8 kyu; /.test(document.querySelector('#level-info')?.textContent));
  await page.locator('input[name=level]').fill('4');
  await page.waitForFunction(() => /^13×13: weaker than level 5 \(not measured\); /.test(document.querySelector('#level-info')?.textContent));
  await page.locator('input[name=level]').fill('2');
  await page.locator('input[name=size][value="19"]').check();
  await page.locator('input[name=color][value=black]').check();
  await page.locator('select[name=rules]').selectOption('tromp-taylor');
  await page.locator('input[name=komi]').fill('6.5');
  check(await page.locator('#new-form .rules-line').isHidden(), 'the line on the Chinese defaults goes with them');
  await page.locator('#create').click();
  await page.waitForURL(/\/games\/[0-9a-f]+$/);
  const first = page.url();
  await page.waitForFunction(() => /^Tromp–Taylor · 贴 3¼ 子 \(komi 6\.5\)/.test(document.querySelector('#players .rules-line')?.textContent));
  const watch = await page.locator('.watch-link').inputValue();
  check(watch === first, `the spectators' link: ${watch}`);
  await page.locator('#resign').click();
  await page.locator('#resign').click();
  await page.waitForFunction(() => /wins by resignation \(W\+R\)/.test(document.querySelector('#status')?.textContent));
  await page.locator('#rematch').click();
  await page.waitForURL((url) => url.href !== first && /\/games\/[0-9a-f]+$/.test(url.href));
  await page.waitForFunction(() => /\(you\)/.test(document.querySelector('.player.white .name')?.textContent));
  check(/^Tromp–Taylor · 贴 3¼ 子/.test(await text(page, '#players .rules-line')), 'the rematch keeps the rules and komi');
  // Now the computer is Black: on 19×19 too it opens in its own upper-right corner.
  await page.locator('circle.stone.black').first().waitFor();
  const opening = await page.locator('circle.stone.black').first().getAttribute('data-vertex');
  check(inUpperRight(opening, 19), `the computer's first stone on 19×19: ${opening}`);
  await page.screenshot({ path: path.join(shots, '11a-rematch-19x19.png') });
  await page.locator('a[href="/games"]').click();
  await page.waitForFunction(() => document.querySelectorAll('#my-list li').length >= 2);
  const mine = await text(page, '#my-list');
  check(/you play Black/.test(mine) && /you play White/.test(mine), `my games: ${mine}`);
  await page.screenshot({ path: path.join(shots, '11-my-games.png') });
  await page.context().close();
}

// The server goes down: the page says so and stops its clocks; back up, it carries on.
async function connectionLost(browser) {
  const dir = fs.mkdtempSync(path.join(shots, '..', 'conn-'));
  const start = (addr) => new Promise((resolve) => {
    const child = spawn(process.env.TENGEN_BIN, ['serve', '--addr', addr, '--db', 'sqlite://games.db'], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
    readline.createInterface({ input: child.stdout }).once('line', (line) => resolve([child, /http:\/\/([^/]+)\//.exec(line)[1]]));
  });
  let [server, addr] = await start('127.0.0.1:0');
  const page = await newPage(browser, { viewport: { width: 1280, height: 860 } });
  await page.goto(`http://${addr}/`);
  await page.locator('input[name=opponent][value=friend]').check();
  await page.locator('input[name=size][value="9"]').check();
  await page.locator('input[name=color][value=black]').check();
  await page.locator('select[name=time]').selectOption('absolute');
  await page.locator('#create').click();
  await page.waitForURL(/\/games\/[0-9a-f]+$/);
  await page.locator('rect.hit').nth(80).waitFor({ state: 'attached' });
  await hit(page, 'E5').click();
  await stone(page, 'black', 'E5').waitFor();
  server.kill('SIGKILL');
  await page.locator('#connection').waitFor({ timeout: 5000 });
  const frozen = await text(page, '.player.white .clock');
  await page.waitForTimeout(1500);
  check(await text(page, '.player.white .clock') === frozen && await page.locator('.clock.offline').count() === 2, 'the clocks stop, greyed, while offline');
  await page.screenshot({ path: path.join(shots, '12-connection-lost.png') });
  [server] = await start(addr);
  await page.locator('#connection').waitFor({ state: 'hidden', timeout: 10000 });
  await page.waitForFunction((f) => document.querySelector('.player.white .clock')?.textContent !== f, frozen, { timeout: 5000 });
  await page.context().close();
  server.kill('SIGKILL');
}

// A refused upload or new game says why where the player acted, in both languages.
async function refusalsShowWhereThePlayerActed(browser) {
  const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(base + '/games');
  const upload = (name, text) =>
    page.locator('#upload input[type=file]').setInputFiles({ name, mimeType: 'application/x-go-sgf', buffer: Buffer.from(text) });
  await upload('broken.sgf', 'not a game at all');
  await page.waitForFunction(() => document.querySelector('#upload-error')?.textContent.length > 0);
  const said = await page.locator('#upload-error').textContent();
  check(await page.locator('#upload-error').isVisible() && /^broken\.sgf: /.test(said), `the upload's refusal is shown: ${said}`);
  await page.screenshot({ path: path.join(shots, '7-upload-refused.png') });
  // In Chinese at once, without a reload: the refusal, the headings and the list of games.
  await page.locator('#lang').click();
  check(await text(page, '#all-games') === '所有对局', `the list's heading is written: ${await text(page, '#all-games')}`);
  await page.waitForFunction(() => [...document.querySelectorAll('#recent-list li')].every((li) => /手|^[0-9a-f]+$/.test(li.textContent)));
  await upload('broken.sgf', 'not a game at all');
  await page.waitForFunction(() => /没有 SGF 棋局/.test(document.querySelector('#upload-error')?.textContent));
  // A record the rules refuse: the move, its point and why, in Chinese as in English.
  await upload('illegal.sgf', '(;GM[1]FF[4]SZ[9];B[ee];W[ee])');
  await page.waitForFunction(() => /第 2 手/.test(document.querySelector('#upload-error')?.textContent));
  const zhReplay = await text(page, '#upload-error');
  check(zhReplay === 'illegal.sgf: 棋谱第 2 手（白 E5）不能按中国规则复盘：E5 已有棋子', `the replay's refusal in Chinese: ${zhReplay}`);
  await page.locator('#lang').click();
  // The same file again is read again (and refused again); a good one opens for review.
  await page.evaluate(() => { document.querySelector('#upload-error').textContent = ''; });
  await upload('broken.sgf', 'not a game at all');
  await page.waitForFunction(() => document.querySelector('#upload-error')?.textContent.length > 0);
  await upload('good.sgf', '(;GM[1]FF[4]SZ[9];B[ee];W[cc])');
  await page.waitForURL(/\/games\/[0-9a-f]+$/);
  check(await text(page, '#message') === '', 'a clean file opens without a word');
  // A file cut short opens with what the reader dropped said on the game's page.
  await page.goto(base + '/games');
  await upload('cut.sgf', '(;GM[1]FF[4]SZ[19];B[qd];W[dc');
  await page.waitForURL(/\/games\/[0-9a-f]+$/);
  await page.waitForFunction(() => /cut\.sgf was read with 2 problems/.test(document.querySelector('#message')?.textContent));
  const warned = await text(page, '#message');
  check(/never closed/.test(warned), `the import's warnings are shown: ${warned}`);
  await page.screenshot({ path: path.join(shots, '7-upload-warned.png') });
  // Handicap stones and 让先 at once: the refusal stands under the form, in Chinese too.
  for (const lang of ['en', 'zh']) {
    await page.goto(base + '/');
    if (lang === 'zh') await page.locator('#lang').click();
    await page.locator('input[name=size][value="9"]').check();
    await page.locator('#new-form select[name=handicap]').selectOption('2');
    await page.locator('input[name=rang_xian]').check();
    await page.locator('#create').click();
    await page.waitForFunction(() => document.querySelector('#new-error')?.textContent.length > 0);
    const text = await page.locator('#new-error').textContent();
    check(await page.locator('#new-error').isVisible() && /让先/.test(text), `the new game's refusal is shown (${lang}): ${text}`);
    if (lang === 'zh') check(text === '让先是不让子的对局：不能同时让子', `in Chinese: ${text}`);
    check(page.url() === base + '/', 'the form stays');
  }
  await page.screenshot({ path: path.join(shots, '8-new-game-refused.png') });
  await page.context().close();
}

// Study: a real game imported, reviewed by the computer, its graph and mistakes followed.
async function studyAGame(browser) {
  const page = await newPage(browser, { viewport: { width: 1280, height: 1000 } });
  await page.goto(base + '/games');
  const file = path.join(__dirname, '../../../../data/records/9x9-gnugo-level10/r1-a-game-018.sgf');
  // The record's players are engine command lines, longer than a name may be.
  const sgf = fs.readFileSync(file, 'utf8').replace(/P[BW]\[[^\]]*\]/g, '');
  await page.locator('#upload input[type=file]').setInputFiles({ name: 'game.sgf', mimeType: 'application/x-go-sgf', buffer: Buffer.from(sgf) });
  await page.waitForURL(/\/games\/[0-9a-f]+$/);
  await page.locator('#review-start').waitFor({ state: 'visible' });
  await page.locator('#review-start').click();
  // Progress shows while it runs, then the mistakes, biggest first.
  await page.waitForFunction(() => /Waiting|Reviewing/.test(document.querySelector('#review-progress').textContent)
    || document.querySelectorAll('#review-mistakes li').length > 0);
  await page.waitForFunction(() => document.querySelectorAll('#review-mistakes li').length > 0, null, { timeout: 90000 });
  await page.screenshot({ path: path.join(shots, '10-review.png') });
  // Which engine judged: this server has no network, so the playout search at the default.
  const engine = await text(page, '#review-engine');
  check(engine === 'Judged by the playout search, 1000 simulations a position.', `the engine said: ${engine}`);
  check(await page.locator('#review-quick').isHidden(), 'no quick review offered for a playout review');
  check(await page.locator('#review-graph path.graph-winrate').count() === 1, 'the win-rate graph is drawn');
  check(await page.locator('#review-graph path.graph-lead').count() === 1, 'the lead graph is drawn');
  const mistakes = page.locator('#review-mistakes button.mistake');
  const count = await mistakes.count();
  check(count > 0 && await page.locator('#review-graph circle.graph-mistake').count() === count, `the ${count} mistakes are marked on the graph`);
  // One judgement a mistake, the most telling; the others on hover.
  const lines = await mistakes.evaluateAll((bs) => bs.map((b) => b.textContent));
  check(lines.every((l) => /^\d+\. \S+ \S+ — lost [0-9.]+ points( · [^,·]+( \+\d+)?)? · best \S+$/.test(l)), `one judgement a mistake: ${lines.join(' | ')}`);
  const losses = await mistakes.evaluateAll((bs) => bs.map((b) => Number(/lost ([0-9.]+)/.exec(b.textContent)[1])));
  check(losses.every((l, i) => i === 0 || losses[i - 1] >= l), `biggest first: ${losses}`);
  // The biggest mistake: the board goes to the position before it (the choice point), the
  // best move's line is drawn there over the stones as they were, the move played crossed.
  const first = await mistakes.first().textContent();
  const [, n, played, best] = /^(\d+)\. \S+ (\S+) — .* best (\S+)$/.exec(first);
  await mistakes.first().click();
  await page.waitForFunction((n) => document.querySelector('#step-label').textContent.startsWith(`${n - 1} /`), n);
  const line = page.locator('circle.pv-stone');
  check(await line.count() >= 1, 'the best line is drawn');
  check(await line.first().getAttribute('data-vertex') === best, `the line starts with the best move ${best}`);
  const onStones = await page.evaluate(() => [...document.querySelectorAll('circle.pv-stone')].map((e) => e.dataset.vertex)
    .filter((v) => document.querySelector(`circle.stone:not(.pv-stone)[data-vertex="${v}"]`)));
  check(onStones.length === 0, `no stone of the line on a stone of the board: ${onStones}`);
  check(played === 'pass' || (await page.locator(`path.played-instead[data-vertex="${played}"]`).count() === 1
    && await page.locator(`circle.stone:not(.pv-stone)[data-vertex="${played}"]`).count() === 0), `the move played, ${played}, crossed on an empty point`);
  const next = await text(page, '#commentary .judged.next');
  check(next.startsWith(`Move ${n}: `) && next.includes(`played ${played}`) && next.includes(`starting with ${best}`), `the line said: ${next}`);
  check(Number(await page.locator('#review-graph line.graph-now').getAttribute('data-move')) === Number(n) - 1, 'the graph marks the move shown');
  await page.screenshot({ path: path.join(shots, '11-mistake.png') });
  // While Analyse runs, its marks alone.
  await page.locator('#analyse').click();
  await page.waitForFunction(() => document.querySelectorAll('#analysis-layer g.candidate').length > 0, null, { timeout: 15000 });
  check(await page.locator('circle.pv-stone').count() === 0 && await page.locator('path.played-instead').count() === 0, 'one set of marks while analysing');
  await page.locator('#analyse').click();
  await page.waitForFunction(() => document.querySelectorAll('#analysis-layer g.candidate').length === 0);
  // A click on the graph goes to the move under it: a quarter of the way along.
  const box = await page.locator('#review-graph').boundingBox();
  await page.mouse.click(box.x + box.width * 0.25, box.y + box.height / 2);
  const total = Number((await text(page, '#step-label')).split('/')[1]);
  await page.waitForFunction((n) => !document.querySelector('#step-label').textContent.startsWith(`${n - 1} /`), n);
  const at = Number((await text(page, '#step-label')).split('/')[0]);
  check(Math.abs(at - total / 4) <= total / 10 + 1, `the graph's click went to move ${at} of ${total}`);
  check(await page.locator('#lead-graph path.graph-lead-line').count() === 1, 'the score-lead graph is drawn');
  await studyTools(page);
  // In Chinese, and on a phone.
  await page.locator('#lang').click();
  await mistakes.first().click();
  const zh = await mistakes.first().textContent();
  check(/损失 [0-9.]+ 目/.test(zh) && /应走/.test(zh), `the mistakes in Chinese: ${zh}`);
  await page.waitForFunction(() => /损失/.test(document.querySelector('#commentary .judged.next')?.textContent));
  check(/棋盘上是电脑/.test(await text(page, '#commentary .judged.next')), 'the line said in Chinese');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('#review-graph').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, '12-review-phone.png'), fullPage: true });
  check((await page.locator('#review-graph').boundingBox()).width <= 390, 'the graph fits a phone');
  await page.context().close();
}

// On a reviewed position: the territory overlay by its key, live analysis started and
// stopped, a variation played (an illegal move refused) and found in the downloaded SGF.
async function studyTools(page) {
  const at = Number((await text(page, '#step-label')).split('/')[0]);
  await page.keyboard.press('t');
  await page.waitForFunction(() => document.querySelectorAll('#analysis-layer rect.owner').length > 5, null, { timeout: 15000 });
  await page.waitForFunction(() => /^Estimate/.test(document.querySelector('#estimate').textContent));
  await page.locator('#board').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, '13-territory.png') });
  await page.keyboard.press('t');
  await page.waitForFunction(() => document.querySelectorAll('#analysis-layer rect.owner').length === 0);
  check(await text(page, '#estimate') === '', 'the overlay and the estimate go with the key');

  const asked = Date.now();
  await page.locator('#analyse').click();
  await page.waitForFunction(() => document.querySelectorAll('#analysis-layer g.candidate').length > 0, null, { timeout: 15000 });
  const firstAfter = Date.now() - asked;
  const visits = () => page.evaluate(() => [...document.querySelectorAll('#analysis-layer .cand-visits')].map((e) => e.textContent).join(' '));
  const before = await visits();
  await page.waitForFunction((b) => [...document.querySelectorAll('#analysis-layer .cand-visits')].map((e) => e.textContent).join(' ') !== b, before, { timeout: 10000 });
  check(/Best [A-T]\d+: /.test(await text(page, '#analysis-info')), 'the best candidate and its line are written out');
  check(await text(page, '#analyse') === 'Stop analysis', 'the button stops the analysis');
  console.log(`analysis: first candidates on the board ${firstAfter} ms after the click`);
  await page.locator('#board').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, '14-analysis.png') });
  await page.locator('#analyse').click();
  await page.waitForFunction(() => document.querySelectorAll('#analysis-layer g.candidate').length === 0);
  check(await text(page, '#analyse') === 'Analyse', 'stopped');

  // A variation from the position shown: two moves on empty points, then one on a stone.
  const empty = await page.evaluate(() => [...document.querySelectorAll('rect.hit')].map((r) => r.dataset.vertex)
    .filter((v) => !document.querySelector(`circle.stone[data-vertex="${v}"]`)));
  const [a, b] = [empty[Math.floor(empty.length / 3)], empty[Math.floor(2 * empty.length / 3)]];
  await hit(page, a).click();
  await page.locator('.variation-move.current').waitFor();
  const hint = await text(page, '#variations .hint');
  check(/^Variation: 1 move after move \d+\./.test(hint), `one move, in the singular: ${hint}`);
  await hit(page, b).click();
  await page.waitForFunction((b) => document.querySelector('.variation-move.current')?.textContent.endsWith(`.${b}`), b);
  check(await page.locator(`circle.stone[data-vertex="${a}"]`).count() === 1 && await page.locator(`circle.stone[data-vertex="${b}"]`).count() === 1, 'the variation is on the board');
  const occupied = await page.locator('circle.stone').first().getAttribute('data-vertex');
  await hit(page, occupied).click();
  await page.waitForFunction(() => /occupied/.test(document.querySelector('#message').textContent));
  const refused = await text(page, '#message');
  check(!/then:|move \d+ \(/.test(refused), `the refusal names the move's fault, not the API's field: ${refused}`);
  await page.locator('#board').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, '15-variation.png') });
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#sgf').click()]);
  const file = path.join(shots, 'variation.sgf');
  await download.saveAs(file);
  const python = process.env.TENGEN_SGFMILL_PYTHON;
  check(python, 'TENGEN_SGFMILL_PYTHON names a Python with sgfmill');
  const read = require('child_process').execFileSync(python, ['-c', `
import sys
from sgfmill import sgf, sgf_moves
game = sgf.Sgf_game.from_bytes(open(sys.argv[1], 'rb').read())
node, n = game.get_root(), int(sys.argv[2])
# After the main line's first n moves: the branch that is not the main line.
while n > 0:
    node = node[0]
    if node.get_move()[0] is not None: n -= 1
branch = node[len(node) - 1]
size = game.get_size()
def vertex(move):
    row, col = move
    return 'ABCDEFGHJKLMNOPQRST'[col] + str(row + 1)
print(len(node), vertex(branch.get_move()[1]), vertex(branch[0].get_move()[1]), len(game.get_main_sequence()) - 1)
`, file, String(at)]).toString().trim().split(' ');
  check(Number(read[0]) >= 2 && read[1] === a && read[2] === b, `sgfmill reads the variation ${a} ${b} after move ${at}: ${read}`);
  await page.locator('#main-line').click();
  await page.waitForFunction((a) => !document.querySelector('.variation-move.current')
    && !document.querySelector(`circle.stone[data-vertex="${a}"]`), a);
  check((await text(page, '#step-label')).startsWith(`${at} /`), 'back on the main line, at the move the variation left');
}

// A commented record with its own rules: its information, its comments move by move, its
// rules on the label.
async function aCommentedRecord(browser) {
  const page = await newPage(browser);
  await page.goto(base + '/games');
  const sgf = '(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]PB[Lee]BR[9p]PW[Cho]WR[9p]DT[2024-05-01]EV[Club match]RE[W+0.5]'
    + 'C[Played at the club.];B[ee]C[A calm start.];W[cc](;B[gg]C[Black takes two corners.])(;B[gc]C[Or the top.]))';
  await page.locator('#upload input[type=file]').setInputFiles({ name: 'commented.sgf', mimeType: 'application/x-go-sgf', buffer: Buffer.from(sgf) });
  await page.waitForURL(/\/games\/[0-9a-f]+$/);
  await page.waitForFunction(() => !document.querySelector('#record-info').hidden);
  const info = await text(page, '#record-info');
  check(info.includes('Lee (9p)') && info.includes('Cho (9p)') && info.includes('W+0.5') && info.includes('Japanese') && info.includes('Club match'), `the record's information: ${info}`);
  const rules = await text(page, '#players .rules-line');
  check(rules.includes('Japanese') && !rules.includes('中国规则'), `labelled with its own rules: ${rules}`);
  check(await text(page, '#comment') === 'Black takes two corners.', 'the last move\'s comment');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('#comment').textContent === 'Played at the club.');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#comment').textContent === 'A calm start.');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#comment').hidden);
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.querySelector('#comment').textContent === 'A calm start.');
  // The record's own variation is in the tree.
  await page.locator('.variation-move[data-line="2:G7"]').waitFor();
  await page.screenshot({ path: path.join(shots, '16-record.png') });
  // A variation from the last position: the SGF keeps the game's three moves and branches one
  // move earlier, repeating the last move.
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('#step-label').textContent.startsWith('3 /'));
  await hit(page, 'D4').click();
  await page.waitForFunction(() => document.querySelector('.variation-move.current')?.textContent === '4.D4');
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#sgf').click()]);
  const file = path.join(shots, 'variation-at-the-end.sgf');
  await download.saveAs(file);
  const read = require('child_process').execFileSync(process.env.TENGEN_SGFMILL_PYTHON, ['-c', `
import sys
from sgfmill import sgf
game = sgf.Sgf_game.from_bytes(open(sys.argv[1], 'rb').read())
node = game.get_root()[0][0]
def vertex(move):
    row, col = move
    return 'ABCDEFGHJ'[col] + str(row + 1)
last = node[len(node) - 1]
print(len(game.get_main_sequence()) - 1, len(node), vertex(last.get_move()[1]), vertex(last[0].get_move()[1]))
`, file]).toString().trim();
  check(read === '3 3 G3 D4', `sgfmill: 3 moves on the main line, the variation after the repeated G3: ${read}`);
  await page.context().close();
}

// A board of one's own: empty, moves played as a variation from the start, analysed.
async function anAnalysisBoard(browser) {
  const page = await newPage(browser, { viewport: { width: 1280, height: 1000 } });
  await page.goto(base + '/games');
  await page.locator('#analysis-size').selectOption('9');
  await page.locator('#analysis-board').click();
  await page.waitForURL(/\/games\/[0-9a-f]+$/);
  await page.locator('rect.hit[data-vertex="E5"]').waitFor();
  for (const [i, v] of ['E5', 'C3'].entries()) {
    await hit(page, v).click();
    await page.waitForFunction(([v, n]) => document.querySelector('.variation-move.current')?.textContent === `${n}.${v}`, [v, i + 1]);
  }
  check(await stone(page, 'black', 'E5').count() === 1 && await stone(page, 'white', 'C3').count() === 1, 'the moves stand on the board');
  await page.locator('#analyse').click();
  await page.waitForFunction(() => document.querySelectorAll('#analysis-layer g.candidate').length > 0, null, { timeout: 15000 });
  const marks = await page.evaluate(() => [...document.querySelectorAll('#analysis-layer g.candidate')].map((g) => g.dataset.vertex));
  check(!marks.includes('E5') && !marks.includes('C3'), `candidates on empty points: ${marks}`);
  await page.locator('#board').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, '17-analysis-board.png') });
  await page.locator('#analyse').click();
  await page.context().close();
}

run('page test', async (browser) => {
  await gameAgainstTheComputer(browser);
  await gameBetweenFriends(browser);
  await overtimeCountsDown(browser);
  await theCountExplainsItself(browser);
  await settingsRematchAndMyGames(browser);
  await connectionLost(browser);
  await refusalsShowWhereThePlayerActed(browser);
  await studyAGame(browser);
  await aCommentedRecord(browser);
  await anAnalysisBoard(browser);
}, async () => {
  // What the page showed when it failed: a screenshot and its text.
  for (const [i, page] of pages.entries()) {
    if (page.isClosed()) continue;
    await page.screenshot({ path: path.join(shots, `failure-${i}.png`) }).catch(() => {});
    const shown = await page.evaluate(() => ['#status', '#message', '#step-label'].map((s) => document.querySelector(s)?.textContent)).catch(() => []);
    console.error(`page ${i} (${page.url()}): ${JSON.stringify(shown)}`);
  }
});
