// The computer's review of a game (POST/GET /api/games/{id}/review, progress on the game's
// socket): its state, the win-rate and lead graphs, the list of mistakes, the best line.
import { $, say, tag } from './dom.js';
import { lang, t, colorName, moveText, refusal } from './i18n.js';
import { S, render, other } from './store.js';
import { api } from './api.js';
import { el, drawLine, drawPlayed, vertexAt } from './board.js';
import { analysisShown } from './analysis.js';
import { goToMove } from './game.js';

export async function loadReview(id) {
  try {
    const r = await api('GET', `/api/games/${id}/review`);
    // None asked yet: the button offers one.
    if (S.gameId === id && r.state !== 'none') reviewChanged(r);
  } catch (e) {
    // The review is a help: a failure to read it leaves the button.
  }
}

export function reviewChanged(r) {
  if (r.game !== S.gameId) return;
  const before = S.study.review;
  S.study = { id: S.gameId, review: r };
  // The best line on the board and the judgement come with the moves judged.
  if (!before || before.moves.length !== r.moves.length || before.judged !== r.judged || before.state !== r.state) render();
  else renderStudy();
}

// A finished or imported game is studied: reviewed, analysed, varied.
export const studyOpen = () => Boolean(S.view && (S.view.imported || S.view.phase === 'ended'));

// The judged move on the board: the last move of the position shown.
export const judgedMove = () => {
  if (S.line) return undefined;
  const n = S.reviewAt ?? S.view?.moves ?? 0;
  return S.study.id === S.gameId && S.study.review ? S.study.review.moves[n - 1] : undefined;
};

// The pace of the review running: its progress when first seen, to tell the time it has left.
let pace = null;

// Minutes left of a running review, from its pace since the page first saw it running.
function minutesLeft(r) {
  const key = `${r.game}:${r.engine}:${r.strength}`, now = performance.now();
  if (r.state !== 'running') {
    pace = null;
    return null;
  }
  if (!pace || pace.key !== key || r.progress < pace.progress) pace = { key, at: now, progress: r.progress };
  const done = r.progress - pace.progress;
  return done > 0 ? (now - pace.at) / done * (1 - r.progress) / 60000 : null;
}

// Which engine judges, and how hard.
function engineText(r) {
  if (!r || !r.engine) return '';
  if (r.engine.startsWith('network:')) return t('engine_network', r.engine.slice('network:'.length), r.strength);
  return t('engine_playouts', r.strength);
}

// A move's judgements in the page's language: the most telling first, then the others.
export const judgements = (m) => (lang === 'zh' ? m.judgement : m.judgement_en);

// What a move lost, or that its loss is within the search's noise.
export const lossText = (m) => (m.loss < (m.loss_noise ?? 0)
  ? t('within_noise', m.loss.toFixed(1), m.loss_noise.toFixed(1)) : t('lost', m.loss.toFixed(1)));

export function renderStudy() {
  const box = $('#study');
  box.hidden = !studyOpen();
  if (box.hidden) return;
  const r = S.study.id === S.gameId ? S.study.review : null;
  const start = $('#review-start');
  start.hidden = Boolean(r && !['failed', 'cancelled'].includes(r.state));
  start.textContent = t(r ? 'review_again' : 'review_start');
  const left = r ? minutesLeft(r) : null;
  // A network review shows its quick pass first: the graph of the network's first look,
  // refined move by move as the search judges them.
  const firstLook = r && r.pass === 'deep' && r.judged < r.moves.length ? ` · ${t('review_deep', r.judged, r.moves.length)}` : '';
  $('#review-progress').textContent = !r ? '' : r.state === 'queued' ? t('review_queued')
    : r.state === 'running' && r.pass === 'quick' ? t('review_quick')
      : r.state === 'running' ? `${t('review_running', Math.round(100 * r.progress))}${left === null ? '' : ` · ${t('time_left', left)}`}${firstLook}`
        : r.state === 'failed' ? t('review_failed', r.error ?? '') : '';
  $('#review-engine').textContent = engineText(r);
  // A network review of a large board, or a slow one, may give way to the quick one.
  const slow = S.view.size >= 13 || (left !== null && left > 1);
  $('#review-quick').hidden = !(r && ['queued', 'running'].includes(r.state) && r.engine.startsWith('network:') && slow);
  renderGraph(r);
  renderMistakes(r);
}

// The review asked again of the playout search (the network's cancelled first).
async function quickReview() {
  const id = S.gameId;
  try {
    await api('DELETE', `/api/games/${id}/review`).catch(() => {});
    const r = await api('POST', `/api/games/${id}/review`, { playouts: 1000 });
    if (S.gameId === id) reviewChanged(r);
  } catch (e) {
    say(refusal(e), true);
  }
}

function renderGraph(r) {
  const svg = $('#review-graph'), legend = $('#review-legend');
  const moves = r ? r.moves : [];
  // An SVG element has no `hidden` property: the attribute it is.
  svg.toggleAttribute('hidden', moves.length === 0);
  legend.hidden = moves.length === 0;
  if (legend.hidden) return;
  legend.textContent = t('review_legend');
  const total = Math.max(S.view.moves, moves.length, 1), w = 300, h = 110, pad = 6;
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.textContent = '';
  const x = (n) => pad + (w - 2 * pad) * n / total, y = (p) => pad + (h - 2 * pad) * (1 - p);
  el('rect', { x: 0, y: 0, width: w, height: h, class: 'graph-bg' }, svg);
  el('line', { x1: pad, y1: y(0.5), x2: w - pad, y2: y(0.5), class: 'graph-half' }, svg);
  const lead = Math.max(1, ...moves.map((m) => Math.abs(m.score_lead_black)));
  const first = r.start_winrate_black ?? moves[0].winrate_black_before;
  let area = `M${x(0)} ${y(0.5)}`;
  for (const m of moves) area += `L${x(m.number).toFixed(1)} ${y(0.5 + 0.5 * m.score_lead_black / lead).toFixed(1)}`;
  area += `L${x(moves.at(-1).number).toFixed(1)} ${y(0.5)}Z`;
  el('path', { d: area, class: 'graph-lead' }, svg);
  el('path', { d: curvePath(x, y, first, moves, (m) => m.winrate_black), class: 'graph-winrate' }, svg);
  const biggest = Math.max(1.5, ...moves.map((m) => m.loss));
  for (const n of r.mistakes ?? []) {
    const m = moves[n - 1];
    el('circle', { cx: x(n), cy: y(m.winrate_black), r: 2 + 4 * m.loss / biggest, class: 'graph-mistake', 'data-move': n }, svg);
  }
  markMoveShown(svg, x, w, h, pad, total);
  renderLeadGraph(r, moves, total, lead);
}

// Black's lead after each move, on a scale of the largest lead of the game.
function renderLeadGraph(r, moves, total, lead) {
  const svg = $('#lead-graph'), legend = $('#lead-legend');
  svg.toggleAttribute('hidden', moves.length === 0);
  legend.hidden = moves.length === 0;
  if (legend.hidden) return;
  legend.textContent = `${t('lead_legend')} ±${lead.toFixed(0)}`;
  const w = 300, h = 80, pad = 6;
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.textContent = '';
  const x = (n) => pad + (w - 2 * pad) * n / total, y = (p) => pad + (h - 2 * pad) * (0.5 - 0.5 * p / lead);
  el('rect', { x: 0, y: 0, width: w, height: h, class: 'graph-bg' }, svg);
  el('line', { x1: pad, y1: y(0), x2: w - pad, y2: y(0), class: 'graph-half' }, svg);
  const start = moves[0].score_lead_black_before;
  el('path', { d: curvePath(x, y, start, moves, (m) => m.score_lead_black), class: 'graph-lead-line' }, svg);
  for (const n of r.mistakes ?? []) {
    const m = moves[n - 1];
    el('circle', { cx: x(n), cy: y(m.score_lead_black), r: 2.5, class: 'graph-mistake', 'data-move': n }, svg);
  }
  markMoveShown(svg, x, w, h, pad, total);
}

// A graph's line: from `start` at move 0 through `value(m)` after each move.
const curvePath = (x, y, start, moves, value) =>
  moves.reduce((d, m) => `${d}L${x(m.number).toFixed(1)} ${y(value(m)).toFixed(1)}`, `M${x(0)} ${y(start).toFixed(1)}`);

// The move shown, marked on a graph; a click or drag on it goes to the move under the pointer.
function markMoveShown(svg, x, w, h, pad, total) {
  const at = S.reviewAt ?? S.view.moves;
  el('line', { x1: x(at), y1: pad, x2: x(at), y2: h - pad, class: 'graph-now', 'data-move': at }, svg);
  const moveAt = (event) => {
    const box = svg.getBoundingClientRect();
    const n = Math.round(((event.clientX - box.left) / box.width * w - pad) / (w - 2 * pad) * total);
    goToMove(Math.max(0, Math.min(S.view.moves, n)));
  };
  svg.onpointerdown = (event) => {
    svg.setPointerCapture?.(event.pointerId);
    moveAt(event);
    svg.onpointermove = (e) => { if (e.buttons) moveAt(e); };
  };
  svg.onpointerup = () => { svg.onpointermove = null; };
}

function renderMistakes(r) {
  const list = $('#review-mistakes');
  list.textContent = '';
  if (!r || r.state !== 'done') return;
  if (!r.mistakes.length) {
    list.append(tag('li', '', t('mistakes_none')));
    return;
  }
  for (const n of r.mistakes) {
    const m = r.moves[n - 1];
    // The most telling judgement; all of them on hover.
    const [first, ...rest] = judgements(m);
    const judgement = first ? ` · ${first}${rest.length ? ` +${rest.length}` : ''}` : '';
    const b = tag('button', 'mistake', `${n}. ${colorName(m.color === 'B' ? 'black' : 'white')} ${moveText(m.move)} — ` +
      `${t('lost', m.loss.toFixed(1))}${judgement} · ${t('best_was', m.best)}`);
    b.title = judgements(m).join(lang === 'zh' ? '、' : ', ');
    b.type = 'button';
    b.dataset.move = n;
    // The choice point: the position before the mistake, where its better line is drawn.
    b.addEventListener('click', () => goToMove(n - 1));
    const li = tag('li');
    li.append(b);
    list.append(li);
  }
}

// The move about to be played at the position shown, when the computer would rather play
// another there (a mistake, or a loss of a point or more): its line is drawn from this
// position, the player's choice point, over the stones as they were.
export const nextJudged = () => {
  if (S.line || !S.view || S.study.id !== S.gameId || !S.study.review) return undefined;
  const r = S.study.review, n = S.reviewAt ?? S.view.moves, m = r.moves[n];
  if (!m || m.best === m.move || m.best === 'pass') return undefined;
  return (r.mistakes ?? []).includes(n + 1) || m.loss >= 1 ? m : undefined;
};

// The best line instead of the next move, as numbered translucent stones, and the move played
// instead, crossed. The cross goes first: when the line itself comes to that point later (the
// mistake was one of order), its numbered stone lies over the cross, which shows through.
export function drawBestLine(svg, v) {
  const m = nextJudged();
  if (!m || analysisShown()) return;
  if (m.move !== 'pass') drawPlayed(svg, v, m.move);
  const toMove = m.color === 'B' ? 'black' : 'white', answer = other(toMove);
  const taken = new Set(), stones = [];
  m.pv.slice(0, 6).forEach((vertex, i) => {
    if (vertex === 'pass' || taken.has(vertex)) return;
    const [c, r] = vertexAt(vertex);
    // Points the board or the line already holds are left as they are.
    if (c < 0 || v.board[v.size - 1 - r][c] !== '.') return;
    taken.add(vertex);
    stones.push({ vertex, color: i % 2 === 0 ? toMove : answer, number: i + 1 });
  });
  drawLine(svg, v, stones);
}

export function init() {
  $('#review-quick').addEventListener('click', quickReview);
  $('#review-start').addEventListener('click', async () => {
    const id = S.gameId;
    try {
      const r = await api('POST', `/api/games/${id}/review`);
      if (S.gameId === id) reviewChanged(r);
    } catch (e) {
      say(refusal(e), true);
    }
  });
}
