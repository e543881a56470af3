// Live analysis (POST /api/analysis, snapshots on /api/analysis/{id}/live): candidate moves as
// marks on the board, the ownership as a territory overlay with a score estimate.
import { $, say } from './dom.js';
import { t, colorName, refusal } from './i18n.js';
import { S, render } from './store.js';
import { api, socketTo } from './api.js';
import { boardAxes, vertexAt, el, STONE } from './board.js';
import { studyOpen } from './review.js';

const ANALYSIS_SECONDS = 30, TERRITORY_SECONDS = 5;
let analysis = { id: null, key: null, socket: null, snapshot: null, wanted: false };
let territory = false;
let timer = null;

const positionKey = () => {
  const { gameId, line } = S;
  return line ? `${gameId}:${line.at}:${line.moves.join(',')}` : `${gameId}:${S.reviewAt ?? S.view?.moves}`;
};

async function startAnalysis(seconds) {
  stopAnalysis(true);
  const id = S.gameId, key = positionKey(), line = S.line;
  const body = { game: id, at: line ? line.at : (S.reviewAt ?? S.view.moves), seconds };
  if (line) body.then = line.moves;
  analysis.key = key;
  let first;
  try {
    first = await api('POST', '/api/analysis', body);
  } catch (e) {
    analysis.key = null;
    say(refusal(e), true);
    return;
  }
  if (id !== S.gameId || key !== positionKey()) {
    api('POST', `/api/analysis/${first.id}/stop`).catch(() => {});
    return;
  }
  analysis.id = first.id;
  analysis.snapshot = first;
  const ws = socketTo(`/api/analysis/${first.id}/live`);
  analysis.socket = ws;
  ws.onmessage = (event) => {
    const s = JSON.parse(event.data);
    if (s.id !== analysis.id) return;
    analysis.snapshot = s;
    if (s.done) analysis.socket = null;
    // The marks and, with them, the panel.
    drawAnalysis();
  };
  renderAnalysisPanel();
}

// Stops the running search; `keepWanted` when another follows at once.
export function stopAnalysis(keepWanted) {
  if (analysis.id && analysis.snapshot && !analysis.snapshot.done) {
    api('POST', `/api/analysis/${analysis.id}/stop`).catch(() => {});
  }
  if (analysis.socket) analysis.socket.close();
  analysis = { id: null, key: null, socket: null, snapshot: null, wanted: keepWanted ? analysis.wanted : false };
  if (!keepWanted) clearTimeout(timer);
}

// After a change of the position shown: the analysis asked for follows it (a moment later,
// so that stepping through moves does not start a search a step).
export function syncAnalysis() {
  if (!S.view || !studyOpen()) return;
  const key = positionKey();
  if (!(analysis.wanted || territory) || analysis.key === key) return;
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (positionKey() === key && (analysis.wanted || territory) && analysis.key !== key) {
      startAnalysis(analysis.wanted ? ANALYSIS_SECONDS : TERRITORY_SECONDS);
    }
  }, 250);
}

function setTerritory(on) {
  territory = on;
  $('#territory').checked = on;
  if (!on && !analysis.wanted) stopAnalysis();
  render();
}
export const toggleTerritory = () => setTerritory(!territory);

// Whether the analysis's marks are on the board (then no other line is drawn).
export const analysisShown = () => analysis.wanted;

const currentSnapshot = () => (analysis.key === positionKey() ? analysis.snapshot : null);

// Empty points and stones that lean the other way (dead), by how sure the search is.
function drawOwnership(layer, s, v, [x, y]) {
  const n = v.size;
  s.ownership.forEach((row, i) => row.forEach((o, c) => {
    const stone = v.board[i][c];
    if (Math.abs(o) < 0.2 || (stone === 'X' && o > 0) || (stone === 'O' && o < 0)) return;
    const side = 4 + 8 * Math.abs(o);
    el('rect', { x: x(c) - side / 2, y: y(n - 1 - i) - side / 2, width: side, height: side,
      class: `owner ${o > 0 ? 'black' : 'white'}`, 'fill-opacity': (0.25 + 0.55 * Math.abs(o)).toFixed(2) }, layer);
  }));
}

// The best candidates: win rate, lead and visits on a disc coloured by the loss.
function drawCandidates(layer, s, [x, y]) {
  const marks = s.candidates.filter((c) => c.move !== 'pass').slice(0, 8);
  const best = marks[0];
  marks.forEach((c, i) => {
    const [col, r] = vertexAt(c.move);
    if (col < 0) return;
    const loss = Math.max(0, best.winrate - c.winrate);
    const hue = i === 0 ? 200 : Math.round(120 * (1 - Math.min(1, loss / 0.15)));
    const g = el('g', { class: `candidate${i === 0 ? ' best' : ''}`, 'data-vertex': c.move }, layer);
    el('circle', { cx: x(col), cy: y(r), r: STONE / 2 - 0.5, fill: `hsl(${hue} 75% 48%)` }, g);
    el('text', { x: x(col), y: y(r) - 1.2, class: 'cand-winrate' }, g).textContent = (100 * c.winrate).toFixed(1);
    el('text', { x: x(col), y: y(r) + 3.6, class: 'cand-lead' }, g).textContent =
      `${c.score_lead >= 0 ? '+' : ''}${c.score_lead.toFixed(1)}`;
    el('text', { x: x(col), y: y(r) + 7.6, class: 'cand-visits' }, g).textContent =
      c.visits >= 1000 ? `${(c.visits / 1000).toFixed(1)}k` : String(c.visits);
  });
}

export function drawAnalysis() {
  const layer = $('#analysis-layer');
  if (!layer || !S.shown) return;
  layer.textContent = '';
  const s = currentSnapshot(), v = S.shown, axes = boardAxes(v.size);
  if (s && territory && s.ownership.length === v.size) drawOwnership(layer, s, v, axes);
  if (s && analysis.wanted) drawCandidates(layer, s, axes);
  renderAnalysisPanel();
}

function renderAnalysisPanel() {
  const running = analysis.wanted && analysis.snapshot && !analysis.snapshot.done;
  $('#analyse').textContent = t(running ? 'analyse_stop' : 'analyse');
  $('#analyse').classList.toggle('running', Boolean(running));
  const s = currentSnapshot(), best = s?.candidates[0];
  $('#analysis-info').textContent = analysis.wanted && best
    ? `${t('analysis_line', best.move, (100 * best.winrate).toFixed(1), best.score_lead.toFixed(1), best.visits)} · ${best.pv.slice(0, 8).join(' ')}${s.done ? ` — ${t('analysis_done')}` : ''}`
    : '';
  const estimate = $('#estimate');
  if (territory && s && s.visits > 0) {
    const lead = s.score_lead_black, w = Math.round(100 * s.winrate_black);
    estimate.textContent = Math.abs(lead) < 0.25 ? t('estimate_even')
      : t('estimate', colorName(lead > 0 ? 'black' : 'white'), Math.abs(lead).toFixed(1), w);
  } else estimate.textContent = '';
}

export function init() {
  $('#analyse').addEventListener('click', () => {
    const running = analysis.wanted && analysis.snapshot && !analysis.snapshot.done;
    // The board again: the review's line gives way to the analysis's marks and comes back.
    if (running) {
      stopAnalysis();
      render();
      return;
    }
    analysis.wanted = true;
    startAnalysis(ANALYSIS_SECONDS);
    render();
  });
  $('#territory').addEventListener('change', (event) => setTerritory(event.target.checked));
}
