// Seats: the links of a game (a player's seat, a friend's seat, the spectators') and the seats
// this browser holds.
import { $, tag } from './dom.js';
import { lang, t } from './i18n.js';
import { S, other } from './store.js';

export function link(id, token, color) {
  return `${location.origin}/games/${id}#seat=${token}&as=${color}`;
}

export function remember(id, seat) {
  localStorage.setItem(`tengen-seat-${id}`, JSON.stringify({ at: Date.now(), ...seat }));
}

// The seats this browser holds, newest first.
export function mySeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const id = key.startsWith('tengen-seat-') && key.slice('tengen-seat-'.length);
    if (id) seats.push({ id, ...JSON.parse(localStorage.getItem(key)) });
  }
  return seats.sort((a, b) => (b.at ?? 0) - (a.at ?? 0));
}

function copyRow(label, url, cls) {
  const row = tag('div', 'link-row');
  const name = tag('span', '', `${label}${lang === 'zh' ? '：' : ': '}`);
  const input = tag('input', cls);
  input.readOnly = true;
  input.value = url;
  input.addEventListener('focus', () => input.select());
  const button = tag('button', 'copy', t('copy'));
  button.type = 'button';
  button.addEventListener('click', async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(url);
    } catch (e) {
      document.execCommand('copy');
    }
    button.textContent = t('copied');
  });
  row.append(name, input, button);
  return row;
}

// The links of a game: the seats (for the creator of a friend game, folding away once the
// friend has joined) and the spectators' link.
export function showSeatLinks() {
  const box = $('#seats'), id = S.gameId, seat = S.seat;
  const friend = sessionStorage.getItem(`tengen-friend-${id}`);
  box.textContent = '';
  const summary = tag('summary', '', t('share'));
  summary.dataset.t = 'share';
  box.append(summary);
  if (friend && seat) {
    box.append(tag('p', '', t('seat_links')), copyRow(t('your_link'), link(id, seat.token, seat.color), 'seat-link'),
      copyRow(t('friend_link'), friend, 'seat-link'));
  }
  box.append(copyRow(t('spectator_link'), `${location.origin}/games/${id}`, 'watch-link'));
  box.open = Boolean(friend);
}

// The friend has joined once the friend's seat has moved or named itself.
export function foldSeatsOnceJoined(v) {
  const box = $('#seats');
  if (!box.open || !S.seat || !sessionStorage.getItem(`tengen-friend-${S.gameId}`)) return;
  const friend = other(S.seat.color);
  if (v.history.some((m) => m.color === friend) || (friend === 'black' ? v.black_name : v.white_name)) box.open = false;
}
