// What the browser scripts share: their arguments, checks, and a run in Debian's Chromium.
'use strict';
const { chromium } = require('playwright-core');
const fs = require('fs');

const [base, shots] = process.argv.slice(2);
const check = (ok, what) => { if (!ok) throw new Error(`failed: ${what}`); };
const text = (page, selector) => page.locator(selector).textContent();

// Runs `body(browser)` in a headless Chromium; on a failure `onFailure()` says what the pages
// showed. Prints "NAME passed" at the end; any failure exits with code 1.
function run(name, body, onFailure = async () => {}) {
  (async () => {
    fs.mkdirSync(shots, { recursive: true });
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      await body(browser);
    } catch (e) {
      await onFailure();
      throw e;
    } finally {
      await browser.close();
    }
    console.log(`${name} passed`);
  })().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

// The pages opened, for the screenshots of a failure.
const pages = [];

// A page in a browser context of its own (`options` as Playwright's; `lang`, if given, is the
// page's language from the start): a dialog or a script error on it fails the test.
async function newPage(browser, options = {}, lang) {
  const context = await browser.newContext(options);
  if (lang) await context.addInitScript((l) => localStorage.setItem('tengen-lang', l), lang);
  const page = await context.newPage();
  pages.push(page);
  page.on('dialog', (d) => { throw new Error(`a dialog opened: ${d.message()}`); });
  page.on('pageerror', (e) => { throw new Error(`page error: ${e.message} ${e.stack}`); });
  return page;
}

// A stone on the board, and the click target of a point.
const stone = (page, color, vertex) => page.locator(`circle.stone.${color}[data-vertex="${vertex}"]`);
const hit = (page, vertex) => page.locator(`rect.hit[data-vertex="${vertex}"]`);

module.exports = { base, shots, check, text, run, pages, newPage, stone, hit };
