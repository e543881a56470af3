// Accounts in Chromium: two players sign up in two browser contexts (one on a phone), play a
// rated 9×9 game by clicks, one then a rated game against a level with the automatic handicap, and see their ranks change in the game and on their pages, in both
// languages; a wrong password, a guest's marked name, and logging out.
'use strict';
const path = require('path');
const { base, shots, check, text, run, pages, newPage, stone, hit } = require('./common.js');


async function signUp(page, name) {
  await page.goto(base + '/login');
  await page.locator('#login-form input[name=name]').fill(name);
  await page.locator('#login-form input[name=password]').fill(`${name}'s password`);
  await page.locator('#sign-up').click();
  await page.waitForURL(new RegExp(`/players/${name}$`));
  await page.locator('#account-nav .me').waitFor();
  check(await text(page, '#account-nav .me') === name, `the header names ${name}`);
  // The player's page, once its profile has arrived.
  await page.waitForFunction((n) => document.querySelector('#player-name')?.textContent === n
    && /No rated games/.test(document.querySelector('#player-ratings').textContent), name);
}

async function accounts(browser) {
  const alice = await newPage(browser, { viewport: { width: 1280, height: 860 } });
  const bob = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await signUp(alice, 'Alice');
  await signUp(bob, 'Bob');
  await bob.screenshot({ path: path.join(shots, 'acc-1-new-player-phone.png') });

  // A wrong password is said so, and the name taken too.
  const carol = await newPage(browser);
  await carol.goto(base + '/login');
  await carol.locator('#login-form input[name=name]').fill('alice');
  await carol.locator('#login-form input[name=password]').fill('not the password');
  await carol.locator('#log-in').click();
  await carol.waitForFunction(() => /Wrong name or password/.test(document.querySelector('#login-error').textContent));
  await carol.screenshot({ path: path.join(shots, 'acc-0-login-refused.png') });
  await carol.locator('#sign-up').click();
  await carol.waitForFunction(() => /taken/.test(document.querySelector('#login-error').textContent));
  await carol.locator('#account-nav .log-in').waitFor();

  // Alice makes a rated friend game; Bob opens the friend's link and takes the seat.
  await alice.goto(base + '/');
  await alice.locator('input[name=opponent][value=friend]').check();
  await alice.locator('input[name=size][value="9"]').check();
  await alice.locator('input[name=color][value=black]').check();
  await alice.locator('#rated-label').waitFor({ state: 'visible' }); // offered once logged in
  await alice.locator('#new-form input[name=rated]').check();
  await alice.locator('#create').click();
  await alice.waitForURL(/\/games\/[0-9a-f]+$/);
  const friendLink = await alice.locator('.seat-link').nth(1).inputValue();
  await bob.goto(friendLink);
  await bob.locator('rect.hit').nth(80).waitFor({ state: 'attached' });
  await alice.waitForFunction(() => document.querySelector('.player.white .name')?.textContent === 'White · Bob');
  check(await text(alice, '.player.black .name') === 'Black · Alice (you)', 'an account\'s seat, unmarked');

  // Ten moves by clicks, then Bob resigns.
  const moves = ['E5', 'C3', 'G7', 'C7', 'G3', 'E3', 'E7', 'C5', 'G5', 'D4'];
  for (const [i, v] of moves.entries()) {
    const [page, color] = i % 2 === 0 ? [alice, 'black'] : [bob, 'white'];
    await page.waitForFunction(() => !document.querySelector('#pass').disabled);
    await hit(page, v).click();
    await stone(alice, color, v).waitFor({ timeout: 5000 });
    await stone(bob, color, v).waitFor({ timeout: 5000 });
  }
  await bob.locator('#resign').click();
  await bob.locator('#resign').click();
  // The ranks beside the names, on both pages, once the game is rated.
  await alice.waitForFunction(() => document.querySelector('.player.black .name')?.textContent === 'Black · Alice [4k?] (you)');
  await alice.waitForFunction(() => document.querySelector('.player.white .name')?.textContent === 'White · Bob [9k?]');
  await bob.waitForFunction(() => document.querySelector('.player.white .name')?.textContent === 'White · Bob [9k?] (you)');
  await alice.screenshot({ path: path.join(shots, 'acc-2-rated-game.png') });

  // Alice's page: the rank, the rating, the graph, the game; in Chinese too.
  await alice.locator('#account-nav .me').click();
  await alice.waitForURL(/\/players\/Alice$/);
  await alice.locator('#player-ratings tr[data-size="9"]').waitFor();
  check(await text(alice, '#player-ratings tr[data-size="9"] .rank') === '4k?', 'Alice is 4k? on 9×9');
  check(/1667 ± 290/.test(await text(alice, '#player-ratings tr[data-size="9"]')), 'the rating and its deviation');
  check(await alice.locator('#player-graph polyline[data-size="9"]').count() === 1, 'a line of the rating');
  check(await alice.locator('#player-games li').count() === 1 && /B\+R/.test(await text(alice, '#player-games li')), 'the game listed');
  await alice.screenshot({ path: path.join(shots, 'acc-3-profile.png') });
  await alice.locator('#lang').click();
  await alice.waitForFunction(() => document.querySelector('#account-nav .log-out')?.textContent === '退出');
  // The table is drawn again in the new language a moment after the menu.
  await alice.waitForFunction(() => /段级位/.test(document.querySelector('#player-ratings')?.textContent ?? ''), null, { timeout: 5000 }).catch(() => {});
  check(/段级位/.test(await text(alice, '#player-ratings')), 'the table in Chinese');
  await alice.screenshot({ path: path.join(shots, 'acc-4-profile-zh.png') });
  await alice.locator('#lang').click();
  await bob.goto(base + '/players/Bob');
  await bob.locator('#player-ratings tr[data-size="9"]').waitFor();
  check(await text(bob, '#player-ratings tr[data-size="9"] .rank') === '9k?', 'Bob is 9k? on 9×9');
  await bob.screenshot({ path: path.join(shots, 'acc-5-profile-phone.png') });

  // Bob, alone on his phone, plays a rated game against level 3 with the automatic handicap:
  // he is about a rank stronger on 9×9 now, so an even game, Bob White.
  await bob.goto(base + '/');
  await bob.locator('input[name=size][value="9"]').check();
  await bob.locator('input[name=level]').fill('3');
  await bob.locator('#new-form input[name=rated]').check();
  await bob.locator('#new-form select[name=handicap]').selectOption('auto');
  await bob.locator('#create').click();
  await bob.waitForURL(/\/games\/[0-9a-f]+$/);
  await bob.waitForFunction(() => /White · Bob \[9k\?\] \(you\)/.test(document.querySelector('.player.white .name')?.textContent));
  const free = ['E5', 'C3', 'G7', 'C7', 'G3', 'E3', 'E7', 'C5', 'G5', 'D4', 'F6', 'D6', 'F4', 'B2', 'H8', 'B8', 'H2'];
  // Bob's turn (White) each time the computer has answered: an odd number of moves played
  // (the step label "N / N") and the buttons of the side to move enabled.
  const bobsTurn = () => bob.waitForFunction(() => {
    const m = /^(\d+) \/ (\d+)$/.exec(document.querySelector('#step-label')?.textContent ?? '');
    return m && Number(m[2]) % 2 === 1 && !document.querySelector('#pass').disabled;
  });
  for (let n = 2; n <= 10; n += 2) {
    await bobsTurn();
    // The first free point of the list that the rules allow (a captured stone's point may be
    // suicide now): a refusal is said in the message line, and the next point is tried.
    let played = false;
    for (const v of free) {
      if (played || await bob.locator(`circle.stone[data-vertex="${v}"]`).count()) continue;
      await bob.evaluate(() => { document.querySelector('#message').textContent = ''; });
      await hit(bob, v).click();
      await bob.waitForFunction((p) => document.querySelector(`circle.stone.white[data-vertex="${p}"]`)
        || document.querySelector('#message').textContent, v);
      played = await stone(bob, 'white', v).count() === 1;
    }
    check(played, 'Bob found a legal move');
  }
  await bobsTurn();
  await bob.locator('#resign').click();
  await bob.locator('#resign').click();
  await bob.waitForFunction(() => /Black wins by resignation/.test(document.querySelector('#status')?.textContent));
  await bob.screenshot({ path: path.join(shots, 'acc-6-rated-level-phone.png') });
  await bob.goto(base + '/players/Bob');
  await bob.locator('#player-ratings tr[data-size="9"]').waitFor();
  const after = await text(bob, '#player-ratings tr[data-size="9"]');
  check(/0–2/.test(after) && !/1333 ± 290/.test(after), `Bob's rating moved after losing to level 3: ${after}`);
  check(await bob.locator('#player-games li').count() === 2, 'both games listed');
  await bob.locator('#lang').click();
  await bob.waitForFunction(() => /段级位/.test(document.querySelector('#player-ratings').textContent));
  await bob.screenshot({ path: path.join(shots, 'acc-7-profile-phone-zh.png') });

  // A guest's name is marked as a guest's.
  await carol.goto(base + '/');
  await carol.locator('input[name=opponent][value=friend]').check();
  await carol.locator('input[name=size][value="9"]').check();
  await carol.locator('input[name=color][value=black]').check();
  await carol.locator('#new-form input[name=name]').fill('Alice');
  check(await carol.locator('#rated-label').isHidden(), 'no rated game for a guest');
  await carol.locator('#create').click();
  await carol.waitForURL(/\/games\/[0-9a-f]+$/);
  await carol.waitForFunction(() => document.querySelector('.player.black .name')?.textContent === 'Black · Alice (guest) (you)');

  // Logging out ends the session: the header offers the login again, the API says 401.
  await alice.locator('#account-nav .log-out').click();
  await alice.locator('#account-nav .log-in').waitFor();
  const me = await alice.evaluate(async () => (await fetch('/api/me')).status);
  check(me === 401, `logged out: /api/me answers ${me}`);
}

run('accounts test', accounts, async () => {
  for (const [i, page] of pages.entries()) await page.screenshot({ path: path.join(shots, `acc-failure-${i}.png`) }).catch(() => {});
});
