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

module.exports = { base, shots, check, text, run };
