// The opponent's presence at the board (a player's page asks every 5 seconds): once they have
// been away, and on move, longer than the server's grace, the player may claim the game (or
// wait; the clock runs either way).
import { $, say } from './dom.js';
import { t, colorName, refusal } from './i18n.js';
import { S, other } from './store.js';
import { api } from './api.js';

let away = null; // { ms, claimable } of the opponent, for the game open

async function ask() {
  const v = S.view;
  if (!v || !S.seat || v.computer || v.imported || v.phase === 'ended' || v.time.kind === 'correspondence' || $('#game').hidden) {
    if (away) {
      away = null;
      renderPresence();
    }
    return;
  }
  const id = v.id;
  const p = await api('GET', `/api/games/${id}/presence`).catch(() => null);
  if (!p || S.view?.id !== id) return;
  const them = p[other(S.seat.color)];
  away = them.here ? null : { ms: them.away_ms, claimable: them.claimable };
  renderPresence();
}

export function renderPresence() {
  const v = S.view;
  const show = away && S.seat && v && v.phase !== 'ended';
  $('#presence').hidden = !show;
  $('#claim').hidden = !(show && away.claimable);
  if (show) $('#presence').textContent = t('opponent_away', colorName(other(S.seat.color)), Math.round(away.ms / 1000));
}

async function claim() {
  try {
    await api('POST', `/api/games/${S.gameId}/claim`);
    away = null;
    renderPresence();
  } catch (e) {
    say(refusal(e), true);
  }
}

export function init() {
  setInterval(ask, 5000);
  $('#claim').addEventListener('click', claim);
}
