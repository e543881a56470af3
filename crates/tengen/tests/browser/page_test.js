// The page in a real Chromium, driven by playwright-core: node page_test.js URL SCREENSHOT_DIR
// Prints "page test passed" at the end; any failure throws (exit code 1).
'use strict';
const { chromium } = require('playwright-core');
const fs = require('fs');
const path = require('path');

const [base, shots] = process.argv.slice(2);
const check = (ok, what) => { if (!ok) throw new Error(`failed: ${what}`); };

const pages = [];

async function newPage(browser, options = {}) {
  const context = await browser.newContext({ acceptDownloads: true, ...options });
  const page = await context.newPage();
  pages.push(page);
  page.on('dialog', (d) => { throw new Error(`a dialog opened: ${d.message()}`); });
  page.on('pageerror', (e) => { throw new Error(`page error: ${e.message}`); });
  return page;
}

const stone = (page, color, vertex) => page.locator(`circle.stone.${color}[data-vertex="${vertex}"]`);
const hit = (page, vertex) => page.locator(`rect.hit[data-vertex="${vertex}"]`);

async function gameAgainstTheComputer(browser) {
  const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(base + '/');
  await page.locator('input[name=level]').fill('1');
  await page.locator('input[name=size][value="9"]').check();
  await page.locator('input[name=color][value=black]').check();
  await page.screenshot({ path: path.join(shots, '1-new-game.png') });
  await page.locator('#create').click();
  await page.waitForURL(/\/games\/[0-9a-f]+$/);
  await page.locator('rect.hit').nth(80).waitFor({ state: 'attached' });
  check((await page.locator('rect.hit').count()) === 81, '81 points on a 9×9 board');
  // A move by clicking; the computer answers.
  await hit(page, 'E5').click();
  await stone(page, 'black', 'E5').waitFor();
  await page.locator('circle.stone.white').first().waitFor();
  // A move by keyboard.
  await page.waitForFunction(() => document.querySelector('#status').textContent.length > 0 && !document.querySelector('#pass').disabled);
  const free = await page.evaluate(() => ['C3', 'G7', 'C7', 'G3', 'D4'].find((v) => !document.querySelector(`circle.stone[data-vertex="${v}"]`)));
  await page.keyboard.type(free);
  await page.keyboard.press('Enter');
  await stone(page, 'black', free).waitFor();
  // The computer's second answer: four moves played, Black to move again.
  await page.waitForFunction(() => Number(document.querySelector('#step').max) >= 4 && !document.querySelector('#pass').disabled);
  await page.screenshot({ path: path.join(shots, '2-game.png') });
  // An illegal move explains itself in a line of text.
  await hit(page, 'E5').click();
  await page.waitForFunction(() => /occupied/.test(document.querySelector('#message').textContent));
  // Pass until two passes end play (the computer passes when it has nothing better).
  for (let i = 0; i < 120; i++) {
    const phase = await page.evaluate(() => document.querySelector('#accept').hidden ? 'play' : 'counting');
    if (phase === 'counting') break;
    await page.waitForFunction(() => !document.querySelector('#accept').hidden || !document.querySelector('#pass').disabled, null, { timeout: 30000 });
    if (await page.locator('#pass').isEnabled() && await page.locator('#accept').isHidden()) await page.locator('#pass').click();
    await page.waitForTimeout(50);
  }
  check(await page.locator('#accept').isVisible(), 'two passes lead to counting');
  // The engine's proposal arrives; then toggle a chain dead and back, mark one dead, accept.
  await page.waitForTimeout(500);
  const white = await page.locator('circle.stone.white').first().getAttribute('data-vertex');
  const wasDead = await stone(page, 'white', white).evaluate((e) => e.classList.contains('dead'));
  await hit(page, white).click();
  await page.waitForFunction(([v, d]) => document.querySelector(`circle.stone[data-vertex="${v}"]`).classList.contains('dead') !== d, [white, wasDead]);
  if (wasDead) {
    await hit(page, white).click();
    await page.waitForFunction((v) => document.querySelector(`circle.stone[data-vertex="${v}"]`).classList.contains('dead'), white);
  }
  check(await page.locator('path.cross').count() > 0, 'dead stones are crossed');
  check(/子/.test(await page.locator('#score').textContent()), 'the count in stones is shown');
  await page.screenshot({ path: path.join(shots, '3-counting.png') });
  await page.locator('#accept').click();
  await page.waitForFunction(() => /[BW]\+/.test(document.querySelector('#status').textContent));
  const status = await page.locator('#status').textContent();
  check(/胜/.test(status), `the result in both forms: ${status}`);
  await page.screenshot({ path: path.join(shots, '4-result.png') });
  // The SGF download.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#sgf').click()]);
  const sgf = fs.readFileSync(await download.path(), 'utf8');
  check(sgf.startsWith('(;GM[1]') && sgf.includes(';B[ee]') && /RE\[[BW]\+/.test(sgf), `the SGF: ${sgf.slice(0, 120)}`);
  // Review: arrow keys step back through the moves.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelectorAll('circle.stone').length === 0);
  await page.keyboard.press('ArrowRight');
  await stone(page, 'black', 'E5').waitFor();
  // The commentary names the move on the board: E5 is 天元, a 星, in the 中腹.
  await page.waitForFunction(() => {
    const text = document.querySelector('#commentary').textContent;
    return /天元/.test(text) && /centre point/.test(text) && /中腹/.test(text);
  });
  await page.screenshot({ path: path.join(shots, '4b-commentary.png') });
  // The language switch.
  await page.locator('#lang').click();
  await page.waitForFunction(() => document.querySelector('#pass').textContent === '停一手' || document.querySelector('#undo').textContent === '悔棋');
  await page.context().close();
}

async function gameBetweenFriends(browser) {
  const one = await newPage(browser, { viewport: { width: 1200, height: 850 } });
  await one.goto(base + '/');
  await one.locator('input[name=opponent][value=friend]').check();
  await one.locator('input[name=size][value="9"]').check();
  await one.locator('input[name=color][value=black]').check();
  await one.locator('select[name=time]').selectOption('byoyomi');
  check(await one.locator('input[name=increment]').isHidden(), 'only the chosen control\'s fields');
  await one.locator('#create').click();
  await one.waitForURL(/\/games\/[0-9a-f]+$/);
  await one.waitForFunction(() => /^\d+:\d\d ×3/.test(document.querySelector('.player.black .clock')?.textContent ?? ''));
  const friendLink = await one.locator('.seat-link').nth(1).inputValue();
  check(/#seat=[0-9a-f]{32}&as=white$/.test(friendLink), `the friend's link: ${friendLink}`);
  // The friend opens the second link, on a phone.
  const two = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await two.goto(friendLink);
  await two.locator('rect.hit').nth(80).waitFor({ state: 'attached' });
  await hit(one, 'D4').click();
  await stone(two, 'black', 'D4').waitFor({ timeout: 5000 });
  await two.locator('#move-input').fill('F6');
  await two.locator('#move-input').press('Enter');
  await stone(one, 'white', 'F6').waitFor({ timeout: 5000 });
  const box = await two.locator('#board').boundingBox();
  // Free handicap placement by clicking: two stones, then White moves.
  await one.goto(base + '/');
  await one.locator('input[name=opponent][value=friend]').check();
  await one.locator('input[name=size][value="9"]').check();
  await one.locator('input[name=color][value=black]').check();
  await one.locator('select[name=handicap]').selectOption('2');
  await one.locator('select[name=placement]').selectOption('free');
  await one.locator('#create').click();
  await one.waitForURL(/\/games\/[0-9a-f]+$/);
  await one.locator('rect.hit').nth(80).waitFor({ state: 'attached' });
  await hit(one, 'C3').click();
  await hit(one, 'G7').click();
  await one.waitForFunction(() => /White|白/.test(document.querySelector('#status').textContent));
  check((await one.locator('circle.stone.black').count()) === 2, 'two handicap stones placed');
  check(box.width <= 390 && box.width > 300, `the board fits a phone: ${box.width}`);
  await two.screenshot({ path: path.join(shots, '5-phone.png'), fullPage: true });
  await one.screenshot({ path: path.join(shots, '6-friend-game.png') });
  await one.context().close();
  await two.context().close();
}

// A refused upload or new game says why where the player acted, in both languages.
async function refusalsShowWhereThePlayerActed(browser) {
  const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(base + '/games');
  const upload = (name, text) =>
    page.locator('#upload input[type=file]').setInputFiles({ name, mimeType: 'application/x-go-sgf', buffer: Buffer.from(text) });
  await upload('broken.sgf', 'not a game at all');
  await page.waitForFunction(() => document.querySelector('#upload-error').textContent.length > 0);
  const said = await page.locator('#upload-error').textContent();
  check(await page.locator('#upload-error').isVisible() && /^broken\.sgf: /.test(said), `the upload's refusal is shown: ${said}`);
  await page.screenshot({ path: path.join(shots, '7-upload-refused.png') });
  // The same file again is read again (and refused again); a good one opens for review.
  await page.evaluate(() => { document.querySelector('#upload-error').textContent = ''; });
  await upload('broken.sgf', 'not a game at all');
  await page.waitForFunction(() => document.querySelector('#upload-error').textContent.length > 0);
  await upload('good.sgf', '(;GM[1]FF[4]SZ[9];B[ee];W[cc])');
  await page.waitForURL(/\/games\/[0-9a-f]+$/);
  // Handicap stones and 让先 at once: the refusal stands under the form, in Chinese too.
  for (const lang of ['en', 'zh']) {
    await page.goto(base + '/');
    if (lang === 'zh') await page.locator('#lang').click();
    await page.locator('input[name=size][value="9"]').check();
    await page.locator('select[name=handicap]').selectOption('2');
    await page.locator('input[name=rang_xian]').check();
    await page.locator('#create').click();
    await page.waitForFunction(() => document.querySelector('#new-error').textContent.length > 0);
    const text = await page.locator('#new-error').textContent();
    check(await page.locator('#new-error').isVisible() && /让先/.test(text), `the new game's refusal is shown (${lang}): ${text}`);
    check(page.url() === base + '/', 'the form stays');
  }
  await page.screenshot({ path: path.join(shots, '8-new-game-refused.png') });
  await page.context().close();
}

(async () => {
  fs.mkdirSync(shots, { recursive: true });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    await gameAgainstTheComputer(browser);
    await gameBetweenFriends(browser);
    await refusalsShowWhereThePlayerActed(browser);
  } catch (e) {
    // What the page showed when it failed: a screenshot and its text.
    for (const [i, page] of pages.entries()) {
      if (page.isClosed()) continue;
      await page.screenshot({ path: path.join(shots, `failure-${i}.png`) }).catch(() => {});
      const text = await page.evaluate(() => ['#status', '#message', '#step-label'].map((s) => document.querySelector(s)?.textContent)).catch(() => []);
      console.error(`page ${i} (${page.url()}): ${JSON.stringify(text)}`);
    }
    throw e;
  } finally {
    await browser.close();
  }
  console.log('page test passed');
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
