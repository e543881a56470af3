// A game's chat: the players' messages and the watchers' apart, the greetings of 相互致意 at
// the start and the end, muting an author for oneself (kept in this browser), and the
// accounts one blocks left out. Every text is shown as text.
import { $, tag } from './dom.js';
import { t, refusal } from './i18n.js';
import { S } from './store.js';
import { api } from './api.js';

let shown = new Map(); // seq → message, of the game open
let gameId = null;
let blocked = new Set(); // names of the accounts the player blocks

const muteKey = (id) => `tengen-mute-${id}`;
const muted = () => new Set(JSON.parse(localStorage.getItem(muteKey(gameId)) || '[]'));

export async function openChat(id) {
  gameId = id;
  shown = new Map();
  $('#chat-players').textContent = '';
  $('#chat-watchers').textContent = '';
  $('#chat-error').textContent = '';
  if (S.me) {
    blocked = new Set((await api('GET', '/api/me/blocks').catch(() => [])).map((b) => b.name));
  }
  try {
    for (const m of await api('GET', `/api/games/${id}/chat`)) chatArrived(m);
  } catch (e) {
    // An imported record has a chat of nothing; a game that went away says so elsewhere.
  }
  renderChat();
}

export function chatArrived(m) {
  if (shown.has(m.seq)) return;
  shown.set(m.seq, m);
  const mine = S.me && !m.guest && m.name === S.me.name;
  if (!mine && (muted().has(m.name) || (!m.guest && blocked.has(m.name)))) return;
  const li = tag('li', `chat-line ${m.role}`);
  li.dataset.seq = m.seq;
  const who = tag('span', 'chat-name', m.name || t(m.role));
  const role = m.role === 'watcher' ? '' : ` (${t(m.role)})`;
  li.append(who, tag('span', 'hint', `${role}${m.moves ? ` · ${t('after_move', m.moves)}` : ''}: `), tag('span', 'chat-text', m.text));
  if (!mine) {
    const mute = tag('button', 'mute', t('mute'));
    mute.type = 'button';
    mute.title = t('mute_title', m.name);
    mute.addEventListener('click', () => muteAuthor(m.name));
    li.append(' ', mute);
  }
  const list = m.role === 'watcher' ? $('#chat-watchers') : $('#chat-players');
  list.append(li);
  list.scrollTop = list.scrollHeight;
}

function muteAuthor(name) {
  const names = muted();
  names.add(name);
  localStorage.setItem(muteKey(gameId), JSON.stringify([...names]));
  for (const li of document.querySelectorAll('.chat-line')) {
    if (shown.get(Number(li.dataset.seq))?.name === name) li.remove();
  }
}

async function send(text) {
  $('#chat-error').textContent = '';
  try {
    chatArrived(await api('POST', `/api/games/${gameId}/chat`, { text }));
    return true;
  } catch (e) {
    $('#chat-error').textContent = refusal(e);
    return false;
  }
}

// The form for those who may write (a seat, or a login), the greetings for the players.
export function renderChat() {
  const v = S.view;
  if (!v || v.id !== gameId) return;
  $('#chat').hidden = Boolean(v.imported);
  const writer = Boolean(S.seat || S.me);
  $('#chat-form').hidden = !writer;
  $('#chat-login').hidden = writer;
  const player = Boolean(S.seat);
  $('#greet-start').hidden = !player || v.phase === 'ended' || v.moves >= 10;
  $('#greet-end').hidden = !player || v.phase !== 'ended';
}

export function init() {
  $('#chat-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = $('#chat-input');
    if (input.value.trim() && (await send(input.value))) input.value = '';
  });
  $('#greet-start').addEventListener('click', () => send(t('greeting_start')));
  $('#greet-end').addEventListener('click', () => send(t('greeting_end')));
}
