// The lobby in Chromium, three browser contexts: Ann (desktop, English) posts a challenge;
// Ben (a phone, Chinese) sees it appear live and accepts; both land in the game; a guest
// watches it from the lobby's games in play; greetings and chat reach the others as text
// (never HTML); a muted author disappears for the one who muted; both play by clicks. With a
// second server's address (a third argument), Ben and the guest use that server: the same
// flow across two nodes of one database.
'use strict';
const path = require('path');
const { base, shots, check, text, run, pages, newPage, stone, hit } = require('./common.js');

// Ben's and the guest's server: the second node, or the same one.
const other = process.argv[4] || base;
// Screenshots of the two-node run are named lobby2-….
const shot = (name) => path.join(shots, other === base ? name : name.replace(/^lobby-/, 'lobby2-'));


async function signUp(page, name, server = base) {
  await page.goto(server + '/login');
  await page.locator('#login-form input[name=name]').fill(name);
  await page.locator('#login-form input[name=password]').fill(`${name}'s password`);
  await page.locator('#sign-up').click();
  await page.waitForURL(new RegExp(`/players/${name}$`));
  await page.locator('#account-nav .me').waitFor();
}

// Waits until the chat list `list` of `page` has a line whose text is `said`.
const heard = (page, list, said) => page.waitForFunction(([l, s]) =>
  [...document.querySelectorAll(`#${l} .chat-text`)].some((e) => e.textContent === s), [list, said], { timeout: 3000 });

async function lobby(browser) {
  const ann = await newPage(browser, { viewport: { width: 1280, height: 860 } }, 'en');
  const ben = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }, 'zh');
  const guest = await newPage(browser, { viewport: { width: 1100, height: 800 } }, 'en');
  await signUp(ann, 'Ann');
  await signUp(ben, 'Ben', other);
  for (const [page, server] of [[ann, base], [ben, other], [guest, other]]) {
    await page.goto(server + '/lobby');
    await page.locator('#no-challenges').waitFor();
  }
  check(await guest.locator('#challenge-form').isHidden(), 'a guest is offered no form');
  check(/Log in/.test(await text(guest, '#lobby-login')), 'a guest is told to log in');
  check(await text(ben, '#lobby h1') === '对局室', 'the phone speaks Chinese');

  // Ann posts a 9×9 challenge, she takes Black; Ben sees it live.
  await ann.locator('#challenge-form select[name=size]').selectOption('9');
  await ann.locator('#challenge-form select[name=color]').selectOption('black');
  const posted = Date.now();
  await ann.locator('#post-challenge').click();
  await ben.locator('.challenge .take').waitFor({ timeout: 1000 });
  const seen = Date.now() - posted;
  console.log(`Ben's lobby showed Ann's challenge ${seen} ms after her click${other === base ? '' : ' (another server)'}`);
  await guest.locator('.challenge').waitFor({ timeout: 1000 });
  check(/Ann \[6k\?\]/.test(await text(guest, '.challenge .challenger')), 'the challenger with her rank');
  check(await guest.locator('.challenge .take').count() === 0, 'a guest cannot accept');
  check(await ann.locator('.challenge .withdraw').count() === 1, 'Ann may withdraw hers');
  await ben.screenshot({ path: shot('lobby-1-challenge-phone-zh.png') });
  await ann.screenshot({ path: shot('lobby-1-posted.png') });

  // Ben accepts: both land in the game.
  await ben.locator('.challenge .take').click();
  await ben.waitForURL(/\/games\/[0-9a-f]+$/);
  await ann.waitForURL(/\/games\/[0-9a-f]+$/, { timeout: 3000 });
  const game = ann.url().split('/').pop();
  check(ben.url().endsWith(game), 'both in the same game');
  await guest.locator('.challenge').waitFor({ state: 'detached', timeout: 2000 });

  // The guest finds it among the games in play and opens it to watch.
  await guest.goto(other + '/lobby');
  await guest.locator(`#playing-list a[href="/games/${game}"]`).waitFor();
  check(/Ann \[6k\?\] – Ben \[6k\?\]/.test(await text(guest, '#playing-list li')), 'both names and ranks');
  await guest.locator(`#playing-list a[href="/games/${game}"]`).click();
  await guest.waitForURL(new RegExp(`/games/${game}$`));
  await guest.locator('#chat-login').waitFor();
  check(await guest.locator('#chat-form').isHidden(), 'a guest watcher reads the chat only');

  // Greetings, one click each, in each player's language; how long each took to reach the
  // other pages (across the two servers in the two-node run).
  let slowestChat = 0, slowestMove = 0;
  let sent = Date.now();
  await ben.locator('#greet-start').click();
  for (const page of [ann, guest]) await heard(page, 'chat-players', '请多指教');
  slowestChat = Math.max(slowestChat, Date.now() - sent);
  sent = Date.now();
  await ann.locator('#greet-start').click();
  await heard(ben, 'chat-players', 'Have a nice game');
  await heard(guest, 'chat-players', 'Have a nice game');
  slowestChat = Math.max(slowestChat, Date.now() - sent);

  // Moves by clicks, seen by the watcher.
  const moves = ['E5', 'C3', 'G7', 'C7'];
  for (const [i, v] of moves.entries()) {
    const [page, color] = i % 2 === 0 ? [ann, 'black'] : [ben, 'white'];
    await page.waitForFunction(() => !document.querySelector('#pass').disabled);
    const clicked = Date.now();
    await hit(page, v).click();
    for (const p of [ann, ben, guest]) await stone(p, color, v).waitFor({ timeout: 3000 });
    slowestMove = Math.max(slowestMove, Date.now() - clicked);
  }
  console.log(`slowest move on all three pages ${slowestMove} ms after the click; slowest greeting ${slowestChat} ms`);

  // A message is text, never HTML.
  const sly = '<img src=x onerror="window.pwned=1"> <b>bold</b>';
  await ann.locator('#chat-input').fill(sly);
  await ann.locator('#chat-form button[type=submit]').click();
  for (const page of [ben, guest]) {
    await heard(page, 'chat-players', sly);
    check(await page.evaluate(() => window.pwned === undefined && !document.querySelector('#chat img, #chat b')), 'no markup from a message');
  }
  await guest.screenshot({ path: shot('lobby-2-watcher.png') });
  await ann.screenshot({ path: shot('lobby-2-game-chat.png') });
  await ben.screenshot({ path: shot('lobby-2-game-chat-phone-zh.png'), fullPage: true });

  // Ben mutes Ann for himself: her lines go from his page only.
  await ben.locator('#chat-players .chat-line', { hasText: 'Have a nice game' }).locator('.mute').click();
  await ben.waitForFunction(() => ![...document.querySelectorAll('.chat-text')].some((e) => e.textContent === 'Have a nice game'));
  check(await guest.locator('#chat-players .chat-line').count() === 3, 'the watcher still reads all three');

  // Ben resigns; both thank each other.
  await ben.locator('#resign').click();
  await ben.locator('#resign').click();
  await ann.locator('#greet-end').waitFor({ timeout: 3000 });
  await ann.locator('#greet-end').click();
  await ben.locator('#greet-end').click();
  await heard(ann, 'chat-players', '谢谢');
  await heard(guest, 'chat-players', 'Thank you');
  await ann.screenshot({ path: shot('lobby-3-thanks.png') });

  // A correspondence game: Ben's move waits in his list and the header's count.
  await ann.goto(base + '/lobby');
  await ben.goto(other + '/lobby');
  await ann.locator('#challenge-form select[name=clock]').selectOption('corr3');
  await ann.locator('#challenge-form select[name=color]').selectOption('black');
  await ann.locator('#post-challenge').click();
  await ben.locator('.challenge .take').waitFor({ timeout: 2000 });
  check(/每手 3 天/.test(await text(ben, '.challenge .terms')), 'days a move, in Chinese');
  await ben.locator('.challenge .take').click();
  await ann.waitForURL(/\/games\/[0-9a-f]+$/, { timeout: 3000 });
  await ann.waitForFunction(() => /\dd \d+h/.test(document.querySelector('.player.black .clock')?.textContent || ''));
  await ann.locator('#abort').waitFor();
  await ann.waitForFunction(() => !document.querySelector('#pass').disabled);
  await hit(ann, 'E5').click();
  await stone(ben, 'black', 'E5').waitFor({ timeout: 3000 });
  await ben.goto(other + '/lobby');
  await ben.locator('#turns-list li').waitFor({ timeout: 3000 });
  check(await text(ben, '#turns-badge') === '1', 'one game waits for Ben');
  await ben.screenshot({ path: shot('lobby-4-my-turn-phone-zh.png') });

  // A live game Ben leaves at once (back to the lobby): past the grace, Ann may claim it.
  await ann.goto(base + '/lobby');
  await ann.locator('#challenge-form select[name=color]').selectOption('black');
  await ann.locator('#post-challenge').click();
  await ben.locator('.challenge .take').waitFor({ timeout: 2000 });
  await ben.locator('.challenge .take').click();
  await ben.waitForURL(/\/games\/[0-9a-f]+$/);
  await ann.waitForURL(/\/games\/[0-9a-f]+$/, { timeout: 3000 });
  await ben.goto(other + '/lobby');
  await ann.locator('#presence').waitFor({ timeout: 15000 });
  check(/White has left the board/.test(await text(ann, '#presence')), 'the opponent said away');
  // A claim needs the opponent on move: Ann plays, then waits.
  check(await ann.locator('#claim').isHidden(), 'no claim on one\'s own move');
  await ann.waitForFunction(() => !document.querySelector('#pass').disabled);
  await hit(ann, 'E5').click();
  await ann.locator('#claim').waitFor({ timeout: 15000 });
  await ann.screenshot({ path: shot('lobby-5-claim.png') });
  await ann.locator('#claim').click();
  await ann.waitForFunction(() => /B\+F/.test(document.querySelector('#status').textContent));
}

run('lobby test', lobby, async () => {
  for (const [i, page] of pages.entries()) {
    await page.screenshot({ path: shot(`lobby-failure-${i}.png`) }).catch(() => {});
  }
});
