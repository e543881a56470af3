// The panel beside the board: the players and their clocks, the rules, the game's state, the
// count and the buttons a seat may use now.
import { $, say, tag } from './dom.js';
import { lang, t, colorName, refusal } from './i18n.js';
import { S, other } from './store.js';
import { settings } from './settings.js';
import { clockNow, clockText } from './clock.js';
import { renderCount, resultText } from './counting.js';
import { act, myTurn, myTurnLive } from './game.js';
import { recordInfo } from './record.js';
import { createGame } from './newgame.js';
import { seatLabel } from './account.js';

function playerName(v, side) {
  if (v.computer === side && v.opponent.computer) return t('computer_name', v.opponent.computer.level);
  return seatLabel(v, side);
}

function playerRow(v, s, side) {
  const div = tag('div', `player ${side}${v.phase === 'playing' && v.to_move === side ? ' to-move' : ''}`);
  div.dataset.side = side;
  const name = playerName(v, side);
  const label = tag('span', 'name', `${colorName(side)}${name ? ` · ${name}` : ''}${S.seat?.color === side && !v.imported ? t('you_mark') : ''}`);
  label.title = label.textContent;
  const clock = tag('span', 'clock', clockText(side));
  const now = v.clocks && clockNow(side);
  const overtime = now && now.main === undefined && ['byoyomi', 'canadian'].includes(v.time.kind);
  const caps = tag('span', 'caps', `${t('captures')} ${s.captures[side]}${overtime ? ` · ${t('overtime')}` : ''}`);
  clock.classList.toggle('last-period', Boolean(now?.last));
  clock.classList.toggle('offline', !S.online);
  div.append(tag('span', 'dot'), label, caps, clock);
  return div;
}

function rulesLine(v) {
  const info = recordInfo();
  const recorded = v.imported && info && !/^(chinese|cn|zh)$/i.test(info.rules ?? 'chinese') ? info.rules : null;
  const preset = recorded ? `RU[${recorded}] · ${t('replayed_chinese')}`
    : v.imported && !info ? '' : v.rules === 'chinese' ? '中国规则' : t(`rules_${v.rules}`);
  return tag('p', 'rules-line', [preset, `${v.komi_zh}${lang === 'en' ? ` (komi ${v.komi})` : ''}`,
    v.handicap ? `${t('handicap')} ${v.handicap}` : ''].filter(Boolean).join(' · '));
}

function statusText(v) {
  if (v.imported) return t('imported');
  if (v.phase === 'ended') return `${t('ended')}${lang === 'zh' ? '：' : ': '}${resultText(v.result)}${lang === 'en' ? ` · ${v.result_zh}` : ''}`;
  if (v.phase === 'counting') {
    const settles = v.counting_deadline_ms ? ` ${t('settles_at', new Date(v.counting_deadline_ms).toLocaleTimeString())}` : '';
    return (v.proposed ? t('counting') : t('judging')) + settles;
  }
  if (v.phase === 'placing') return `${t('placing')} (${S.placing.size} / ${v.handicap})`;
  if (v.undo_request) return t('undo_asked', colorName(v.undo_request));
  if (myTurnLive()) return t('your_turn');
  if (v.computer === v.to_move) return t('thinking');
  return t('to_move', colorName(v.to_move));
}

// The buttons a seat may use now, and the name form.
function renderControls(v) {
  const seat = S.seat, seated = Boolean(seat) && !v.imported;
  const playing = v.phase === 'playing' && S.reviewAt === null;
  $('#pass').hidden = !seated || !playing;
  $('#pass').disabled = !myTurn();
  $('#undo').hidden = !seated || !playing;
  $('#resign').hidden = !seated || v.phase === 'ended';
  $('#abort').hidden = !seated || v.phase === 'ended' || v.moves >= 10;
  $('#typed').hidden = !seated || !playing;
  $('#undo-accept').hidden = $('#undo-reject').hidden = !(seated && v.undo_request && v.undo_request !== seat.color);
  $('#accept').hidden = $('#resume').hidden = !(seated && v.phase === 'counting');
  $('#accept').disabled = seated && (v.accepted[seat.color] || !v.proposed);
  $('#rematch').hidden = !(seated && v.phase === 'ended');
  // A seat held by an account is named after it.
  $('#name-form').hidden = !seated || Boolean(v.accounts?.[seat.color === 'black' ? 0 : 1]);
  const input = $('#name-input');
  if (seated && document.activeElement !== input && !input.dataset.edited) {
    input.value = (seat.color === 'black' ? v.black_name : v.white_name) || localStorage.getItem('tengen-name') || '';
  }
}

export function renderPanel() {
  const v = S.view, s = S.shown;
  const players = $('#players');
  players.textContent = '';
  for (const side of ['black', 'white']) players.append(playerRow(v, s, side));
  players.append(rulesLine(v));
  $('#status').textContent = statusText(v);
  document.title = settings.title && myTurnLive() && v.phase === 'playing' ? `● ${t('your_move_title')} — tengen` : 'tengen 天元';
  renderCount(v, s);
  renderControls(v);
  const step = $('#step'), at = S.reviewAt ?? v.moves;
  step.max = v.moves;
  step.value = at;
  $('#step-label').textContent = t('review', at, v.moves) + (S.line ? ` + ${S.line.moves.length}` : '');
  $('#sgf').href = `/api/games/${S.gameId}/sgf`;
}

// The same game again with the colours swapped (a friend gets the new seat's link).
async function rematch() {
  const v = S.view, seat = S.seat;
  const body = {
    size: v.size, rules: v.rules, komi: v.komi, handicap: v.handicap, placement: v.placement,
    opponent: v.opponent, time: v.time, color: other(seat.color),
  };
  const name = seat.color === 'black' ? v.black_name : v.white_name;
  if (name) body.name = name;
  try {
    await createGame(body);
  } catch (e) {
    say(refusal(e), true);
  }
}

export function init() {
  $('#name-input').addEventListener('input', (event) => { event.target.dataset.edited = '1'; });
  $('#name-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = $('#name-input'), name = input.value.trim();
    await act('name', { name });
    delete input.dataset.edited;
    if (name) localStorage.setItem('tengen-name', name);
  });
  $('#rematch').addEventListener('click', rematch);
}
