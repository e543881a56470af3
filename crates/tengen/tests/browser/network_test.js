// The page on a server with KataGo's network (`tengen serve --model`), driven by playwright-core:
// node network_test.js URL SCREENSHOT_DIR. "Review the game" is the network's, the page says
// which engine judged, a 19×19 network review draws the network's first look at once and offers
// the quick playout review instead.
// Prints "network test passed" at the end; any failure throws (exit code 1).
'use strict';
const path = require('path');
const { base, shots, check, text, run } = require('./common.js');

async function upload(page, name, sgf) {
  await page.goto(base + '/games');
  await page.locator('#upload input[type=file]').setInputFiles({ name, mimeType: 'application/x-go-sgf', buffer: Buffer.from(sgf) });
  await page.waitForURL(/\/games\/[0-9a-f]+$/);
  await page.locator('#review-start').waitFor({ state: 'visible' });
}

// A 9×9 record reviewed by the network at the server's default visits (4 here).
async function aNetworkReview(page) {
  await upload(page, 'nine.sgf', '(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[cg];B[gc];W[ii];B[dg];W[cc])');
  await page.locator('#review-start').click();
  await page.waitForFunction(() => document.querySelectorAll('#review-mistakes li').length > 0, null, { timeout: 60000 });
  const engine = await text(page, '#review-engine');
  check(engine === 'Judged by the network b10c384h6nbttflrs, 4 visits a position.', `the engine said: ${engine}`);
  check(await page.locator('#review-quick').isHidden(), 'nothing to offer once done');
  await page.screenshot({ path: path.join(shots, 'net-1-review.png') });
}

// A 19×19 record: the network's first look fills the graph for every move before the search has
// judged them all; while the network reviews it, the quick playout review is offered; taken, the
// page says the playout search judged.
async function aQuickReviewInstead(page) {
  await upload(page, 'nineteen.sgf',
    '(;GM[1]FF[4]SZ[19]KM[7.5];B[pd];W[dp];B[pp];W[dd];B[fq];W[cn];B[jp];W[qf];B[nc];W[rd];B[qc];W[qi])');
  await page.locator('#review-start').click();
  await page.waitForFunction(() => /the graph is the network's first look; \d+ of 12 moves/.test(document.querySelector('#review-progress').textContent),
    null, { timeout: 60000 });
  // The curve: move 0 and a point after each of the 12 moves.
  const curve = await page.locator('#review-graph .graph-winrate').getAttribute('d');
  check((curve.match(/[ML]/g) || []).length === 13, `the first look's curve: ${curve}`);
  check(!(await page.locator('#review-graph').evaluate((svg) => svg.hasAttribute('hidden'))), 'the graph is shown');
  await page.screenshot({ path: path.join(shots, 'net-2-first-look.png'), fullPage: true });
  await page.locator('#review-quick').waitFor({ state: 'visible', timeout: 30000 });
  const engine = await text(page, '#review-engine');
  check(engine.startsWith('Judged by the network'), `a network review at first: ${engine}`);
  await page.screenshot({ path: path.join(shots, 'net-2-review-19.png') });
  await page.locator('#review-quick').click();
  await page.waitForFunction(() => document.querySelector('#review-engine').textContent.startsWith('Judged by the playout search'), null, { timeout: 30000 });
  await page.waitForFunction(() => document.querySelectorAll('#review-mistakes li').length > 0, null, { timeout: 120000 });
  check(await text(page, '#review-engine') === 'Judged by the playout search, 1000 simulations a position.', 'the quick review said');
  await page.screenshot({ path: path.join(shots, 'net-3-quick.png') });
}

let page = null;
run('network test', async (browser) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  page = await context.newPage();
  page.on('pageerror', (e) => { throw new Error(`page error: ${e.message} ${e.stack}`); });
  await aNetworkReview(page);
  await aQuickReviewInstead(page);
}, async () => {
  if (!page) return;
  await page.screenshot({ path: path.join(shots, 'net-failure.png') }).catch(() => {});
  console.error(`page (${page.url()}): ${await text(page, '#review-progress').catch(() => '')} ${await text(page, '#message').catch(() => '')}`);
});
