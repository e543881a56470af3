// The player's account: login and sign-up, the header's name or login link, the seats an
// account holds, and each seat's label (a guest's name marked, an account's with its rank).
import { $, tag, formError } from './dom.js';
import { t, refusal } from './i18n.js';
import { S, render } from './store.js';
import { api } from './api.js';

const ranks = new Map(); // an account's name to its ranks by board size, or 'asked'
let meLoaded = Promise.resolve(); // the first GET /api/me, which a seat's claim waits for

export async function loadMe() {
  try {
    S.me = await api('GET', '/api/me');
  } catch (e) {
    S.me = null;
  }
  // The page again: what a login changes (the lobby's form and socket, the chat's form).
  render();
}

// The header: the logged-in player's name (a link to the profile) and Log out, or Log in.
export function renderNav() {
  const nav = $('#account-nav');
  nav.textContent = '';
  if (S.me) {
    const me = tag('a', 'me', S.me.name);
    me.href = `/players/${encodeURIComponent(S.me.name)}`;
    const out = tag('button', 'log-out', t('log_out'));
    out.type = 'button';
    out.addEventListener('click', logOut);
    nav.append(me, out);
  } else {
    const login = tag('a', 'log-in', t('log_in'));
    login.href = '/login';
    nav.append(login);
  }
  $('#rated-label').hidden = !S.me;
  for (const e of document.querySelectorAll('.logged-in-only')) e.hidden = !S.me;
}

async function logOut() {
  await api('DELETE', '/api/session').catch(() => {});
  S.me = null;
  ranks.clear();
  renderNav();
  render();
}

// The login form: Log in or Sign up, by the button pressed.
async function submit(event) {
  event.preventDefault();
  formError('#login-error', '');
  const f = new FormData(event.target);
  const body = { name: f.get('name'), password: f.get('password') };
  try {
    await api('POST', event.submitter?.value === 'signup' ? '/api/accounts' : '/api/session', body);
    event.target.reset();
    await loadMe();
    history.pushState(null, '', `/players/${encodeURIComponent(S.me.name)}`);
    window.dispatchEvent(new PopStateEvent('popstate'));
  } catch (e) {
    formError('#login-error', e.reason === 'wrong_credentials' ? t('wrong_credentials') : refusal(e));
  }
}

// A logged-in player who opened a seat's link takes the seat for the account; a seat the
// account holds is this browser's on any device.
export async function claimSeat(v) {
  await meLoaded;
  if (!S.me || !v || v.imported || S.gameId !== v.id) return;
  const idx = (c) => (c === 'black' ? 0 : 1);
  if (S.seat?.token && !v.accounts[idx(S.seat.color)]) {
    try {
      await api('POST', `/api/games/${S.gameId}/sit`);
    } catch (e) {
      // Another account's seat, or a rated game's second seat: the link still plays as a guest.
    }
    return;
  }
  if (!S.seat) {
    const mine = await api('GET', '/api/me/games').catch(() => []);
    const game = mine.find((g) => g.id === S.gameId);
    if (game) {
      S.seat = { token: null, color: game.color };
      render();
    }
  }
}

// A seat's name as shown: an account's with its rank on this board size, a guest's marked.
export function seatLabel(v, side) {
  const name = side === 'black' ? v.black_name : v.white_name;
  const held = v.accounts?.[side === 'black' ? 0 : 1];
  const computer = v.computer === side;
  if (!name || computer) return name;
  if (!held) return `${name} ${t('guest_mark')}`;
  const known = ranks.get(name);
  if (known === undefined) {
    ranks.set(name, 'asked');
    api('GET', `/api/players/${encodeURIComponent(name)}`).then((p) => {
      ranks.set(name, { deleted: p.deleted, ...Object.fromEntries(p.ratings.map((r) => [r.size, r.rank])) });
      render();
    }).catch(() => ranks.delete(name));
  }
  const rank = known && known !== 'asked' ? known[v.size] : undefined;
  if (known?.deleted) return `${name} ${t('deleted_mark')}`;
  return rank ? `${name} [${rank}]` : name;
}

// After a rated game ends the ranks change: asked again.
export function forgetRanks() {
  ranks.clear();
}

export function init() {
  $('#login-form').addEventListener('submit', submit);
  meLoaded = loadMe();
}
