// The clocks, counted down on the page from the view's data; offline they stop (what the
// server charges is not known): the reading at the moment the connection went is shown.
import { $ } from './dom.js';
import { t } from './i18n.js';
import { S } from './store.js';
import { countDown } from './sound.js';
import { renderPanel } from './panel.js';

const pageNow = () => (S.online ? performance.now() : S.offlineSince);

// A clock as it reads now: main time, then the current period and the periods (or the stones)
// left.
export function clockNow(side) {
  const view = S.view, c = view.clocks?.[side];
  if (!c) return null;
  const spent = view.clock_running === side ? pageNow() - S.receivedAt : 0;
  const time = view.time, left = Math.max(0, (c.remaining_ms ?? 0) - spent);
  const inMain = !c.overtime && c.main_ms > spent;
  if (time.kind === 'byoyomi') {
    if (inMain) return { ms: c.main_ms - spent, periods: c.periods, main: true };
    const period = time.period * 1000, periods = Math.max(1, Math.ceil(left / period));
    return { ms: left - (periods - 1) * period, periods, last: periods === 1 };
  }
  if (time.kind === 'canadian') {
    if (inMain) return { ms: c.main_ms - spent, main: true };
    return { ms: left, stones: c.overtime ? c.stones : time.stones };
  }
  return { ms: left };
}

const clockDigits = (ms) => {
  const s = Math.ceil(Math.max(0, ms) / 1000);
  const two = (n) => String(n).padStart(2, '0');
  // Days a move (correspondence): days and hours; an hour or more: h:mm:ss.
  if (s >= 86400) return t('days_hours', Math.floor(s / 86400), Math.floor((s % 86400) / 3600));
  if (s >= 3600) return `${Math.floor(s / 3600)}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
  return `${Math.floor(s / 60)}:${two(s % 60)}`;
};

export function clockText(side) {
  const c = clockNow(side);
  if (!c) return '';
  const time = S.view.time;
  if (time.kind === 'byoyomi') {
    if (c.main) return `${clockDigits(c.ms)} +${c.periods}×${time.period}s`;
    return `${clockDigits(c.ms)} ${c.last ? t('last_period') : `×${c.periods} ${t('periods_left')}`}`;
  }
  if (time.kind === 'canadian') {
    if (c.main) return `${clockDigits(c.ms)} +${time.stones}/${time.period}s`;
    return `${clockDigits(c.ms)} / ${c.stones} ${t('stones_left')}`;
  }
  return clockDigits(c.ms);
}

// The last ten seconds of the player's own running clock (a period, or the main time where
// nothing follows it) are counted: beeps, the count in #countdown, spoken if asked for.
let counted = null;
function countTheLastSeconds() {
  const view = S.view, side = view?.clock_running;
  if (!side || !S.seat || S.seat.color !== side || !S.online) return;
  const c = clockNow(side);
  const last = view.time.kind === 'absolute' || view.time.kind === 'fischer' || !c.main;
  const s = Math.ceil(c.ms / 1000);
  if (!last || s > 10 || s < 1) return;
  const key = `${view.events}/${c.periods ?? ''}/${c.stones ?? ''}/${s}`;
  if (counted === key) return;
  counted = key;
  countDown(s);
}

export function init() {
  setInterval(() => {
    if (S.view?.clock_running && S.online && !$('#game').hidden) {
      renderPanel();
      countTheLastSeconds();
    }
  }, 200);
}
