// The lobby: open challenges live (/api/lobby/live), posting, accepting, withdrawing and
// declining them, direct challenges to a player (a banner on every page), and the games in
// play to watch. A logged-in player keeps the lobby's socket open on every page, so that
// their live challenges stay and challenges to them arrive.
import { $, tag, formError } from './dom.js';
import { t, refusal, lang } from './i18n.js';
import { S } from './store.js';
import { api, socketTo } from './api.js';
import { go } from './main.js';
import { settings } from './settings.js';

const challenges = new Map(); // id → challenge, open ones
let socket = null;
let socketFor = undefined; // the account name the socket was opened under (null: a guest)
let playingTimer = null;

// The clocks the form offers, as the API writes them.
const CLOCKS = {
  none: { kind: 'none' },
  blitz: { kind: 'byoyomi', main: 300, period: 30, periods: 3 },
  normal: { kind: 'byoyomi', main: 1200, period: 30, periods: 5 },
  fischer: { kind: 'fischer', main: 600, increment: 20 },
  corr1: { kind: 'correspondence', days: 1 },
  corr3: { kind: 'correspondence', days: 3 },
  corr7: { kind: 'correspondence', days: 7 },
};

export function clockText(c) {
  const min = (s) => `${Math.round(s / 6) / 10} min`;
  switch (c.kind) {
    case 'absolute': return min(c.main);
    case 'byoyomi': return `${min(c.main)} + ${c.periods}×${c.period} s`;
    case 'canadian': return `${min(c.main)} + ${c.stones}/${min(c.period)}`;
    case 'fischer': return `${min(c.main)} + ${c.increment} s`;
    case 'correspondence': return t('days_move', c.days);
    default: return t('no_clock');
  }
}

// Opens the lobby's socket (again after a login or logout), kept while the page is open for
// a player, while the lobby is shown for a guest.
export function connectLobby() {
  const who = S.me ? S.me.name : null;
  if (socket && socketFor === who) return;
  if (socket) socket.close();
  socketFor = who;
  loadTurns();
  const mine = socketTo('/api/lobby/live');
  socket = mine;
  mine.onmessage = (event) => {
    const data = JSON.parse(event.data);
    if (data.challenges) {
      challenges.clear();
      for (const c of data.challenges) challenges.set(c.id, c);
    } else if (data.challenge) {
      changed(data.challenge);
    }
    renderLobby();
  };
  mine.onclose = () => {
    if (socket !== mine) return;
    socket = null;
    // Reconnect while wanted (a server restart, a network hiccup).
    setTimeout(() => { if (!socket && (S.me || !$('#lobby').hidden)) connectLobby(); }, 1000);
  };
}

// The socket as the page needs it now: a player's on every page, a guest's in the lobby.
export function syncLobby() {
  if (S.me || !$('#lobby').hidden) connectLobby();
  else if (socket) {
    const old = socket;
    socket = null;
    socketFor = undefined;
    old.close();
    challenges.clear();
    renderLobby();
  }
}

function changed(c) {
  if (c.state === 'open') {
    challenges.set(c.id, c);
    return;
  }
  challenges.delete(c.id);
  // The challenger's challenge accepted: to the game.
  if (c.state === 'accepted' && c.game && S.me && c.challenger === S.me.name) go(`/games/${c.game}`);
  // Another game began: the list of games in play, read again at most every 5 seconds (every
  // lobby page sees every acceptance).
  if (c.state === 'accepted' && !$('#lobby').hidden) soonPlaying();
}

function terms(c) {
  const parts = [`${c.size}×${c.size}`, clockText(c.time), t(c.rated ? 'rated_short' : 'free_short')];
  parts.push(c.handicap === 'auto' ? t('handicap_auto') : c.handicap ? t('handicap_n', c.handicap) : t('even_game'));
  parts.push(t(`color_${c.color}`));
  if (c.rank_min || c.rank_max) parts.push(`${c.rank_min || '30k'}–${c.rank_max || '9d'}`);
  return parts.join(' · ');
}

function button(key, action, cls) {
  const b = tag('button', cls, t(key));
  b.type = 'button';
  b.addEventListener('click', async () => {
    b.disabled = true;
    try {
      await action();
    } catch (e) {
      formError('#lobby-error', refusal(e));
    } finally {
      b.disabled = false;
    }
  });
  return b;
}

async function accept(c) {
  formError('#lobby-error', '');
  const took = await api('POST', `/api/challenges/${c.id}/accept`);
  go(`/games/${took.game}`);
}

function row(c) {
  const li = tag('li', 'challenge');
  li.dataset.id = c.id;
  const who = tag('a', 'challenger', `${c.challenger} [${c.challenger_rank}]`);
  who.href = `/players/${encodeURIComponent(c.challenger)}`;
  li.append(who, tag('span', 'terms', ` ${terms(c)} `));
  if (c.to) li.append(tag('span', 'hint', t('direct_to', c.to)), ' ');
  const mine = S.me && c.challenger === S.me.name;
  if (mine) li.append(button('withdraw', () => api('DELETE', `/api/challenges/${c.id}`), 'withdraw'));
  else if (S.me) {
    li.append(button('accept_challenge', () => accept(c), 'take'));
    if (c.to === S.me.name) li.append(' ', button('decline', () => api('POST', `/api/challenges/${c.id}/decline`), 'decline'));
  }
  return li;
}

export function renderLobby() {
  const list = $('#challenge-list');
  list.textContent = '';
  const open = [...challenges.values()];
  for (const c of open) list.append(row(c));
  $('#no-challenges').hidden = open.length > 0;
  $('#challenge-form').hidden = !S.me;
  $('#lobby-login').hidden = Boolean(S.me);
  // Direct challenges to the player, on every page.
  const banner = $('#challenged');
  banner.textContent = '';
  const toMe = S.me ? open.filter((c) => c.to === S.me.name) : [];
  for (const c of toMe) {
    const p = tag('p', '', t('challenged_by', c.challenger, c.challenger_rank, terms(c)) + ' ');
    p.append(button('accept_challenge', () => accept(c), 'take'), ' ',
      button('decline', () => api('POST', `/api/challenges/${c.id}/decline`), 'decline'));
    banner.append(p);
  }
  banner.hidden = toMe.length === 0;
}

let playingSoon = null;
function soonPlaying() {
  if (playingSoon) return;
  playingSoon = setTimeout(() => {
    playingSoon = null;
    if (!$('#lobby').hidden) loadPlaying();
  }, 5000);
}

export async function loadPlaying() {
  const list = $('#playing-list');
  const games = await api('GET', '/api/games?state=playing&limit=100').catch(() => []);
  list.textContent = '';
  for (const g of games) {
    const li = tag('li');
    const name = (n, r) => (r ? `${n} [${r}]` : n);
    const a = tag('a', '', `${name(g.black, g.black_rank)} – ${name(g.white, g.white_rank)}`);
    a.href = `/games/${g.id}`;
    li.append(a, tag('span', 'hint', ` · ${g.size}×${g.size} · ${g.moves} ${t(g.moves === 1 ? 'move' : 'moves')}`));
    list.append(li);
  }
  $('#no-playing').hidden = games.length > 0;
}

// The games whose move is the player's: listed in the lobby, counted in the header, and a
// notification (if allowed) when one more is waiting.
let turnsSeen = null;
let turnsAsked = -Infinity;
export async function loadTurns() {
  // Asked at most once in 2 seconds (a login, the lobby opened and the timer may coincide).
  if (!S.me) {
    $('#turns-badge').hidden = true;
    $('#my-turns').hidden = true;
    return;
  }
  if (performance.now() - turnsAsked < 2000) return;
  turnsAsked = performance.now();
  const turns = await api('GET', '/api/me/turns').catch(() => null);
  if (!turns) return;
  const list = $('#turns-list');
  list.textContent = '';
  for (const g of turns) {
    const li = tag('li');
    const a = tag('a', '', `${g.black} – ${g.white}`);
    a.href = `/games/${g.id}`;
    const left = g.deadline_ms ? ` · ${t('time_to', new Date(g.deadline_ms).toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-GB'))}` : '';
    li.append(a, tag('span', 'hint', ` · ${g.size}×${g.size} · ${t(g.color)}${left}`));
    list.append(li);
  }
  $('#my-turns').hidden = turns.length === 0;
  const badge = $('#turns-badge');
  badge.hidden = turns.length === 0;
  badge.textContent = String(turns.length);
  badge.title = t('turns_title', turns.length);
  const ids = new Set(turns.map((g) => g.id));
  const fresh = turnsSeen ? turns.filter((g) => !turnsSeen.has(g.id) && g.id !== S.gameId) : [];
  turnsSeen = ids;
  if (fresh.length && settings.notify && 'Notification' in window && Notification.permission === 'granted') {
    new Notification(t('your_move_title'), { body: fresh.map((g) => `${g.black} – ${g.white}`).join('\n'), tag: 'tengen-turns' });
  }
}

export function openLobby() {
  connectLobby();
  renderLobby();
  loadPlaying();
  loadTurns();
  clearInterval(playingTimer);
  playingTimer = setInterval(() => { if (!$('#lobby').hidden) loadPlaying(); else clearInterval(playingTimer); }, 15000);
}

// A player's page offers a direct challenge: the lobby's form with the name filled in.
export function challengePlayer(name) {
  go('/lobby');
  $('#challenge-form').elements.to.value = name;
  $('#challenge-form').elements.to.focus();
}

async function post(event) {
  event.preventDefault();
  formError('#lobby-error', '');
  const f = event.target.elements;
  const body = { size: Number(f.size.value), time: CLOCKS[f.clock.value], rated: f.rated.checked,
    handicap: f.handicap.value === 'auto' ? 'auto' : Number(f.handicap.value), color: f.color.value };
  for (const k of ['rank_min', 'rank_max', 'to']) if (f[k].value.trim()) body[k] = f[k].value.trim();
  try {
    changed(await api('POST', '/api/challenges', body));
    f.to.value = '';
    renderLobby();
  } catch (e) {
    formError('#lobby-error', refusal(e));
  }
}

export function init() {
  $('#challenge-form').addEventListener('submit', post);
  // The player's games to move in, every 30 seconds while logged in.
  setInterval(() => { if (S.me) loadTurns(); }, 30000);
  $('#player-challenge').addEventListener('click', () => challengePlayer($('#player-name').dataset.name));
}
