// The count: the counting phase (marking dead chains, the computer's judgement and its
// disputes) and the result in stones, with komi and the handicap's return.
import { $ } from './dom.js';
import { lang, t, colorName } from './i18n.js';
import { S } from './store.js';
import { LETTERS } from './board.js';
import { act } from './game.js';

const QUARTERS = ['', '¼', '½', '¾'];
function stonesText(stones) {
  const q = Math.round(Math.abs(stones) * 4), whole = Math.floor(q / 4), part = QUARTERS[q % 4];
  return `${whole || !part ? whole : ''}${part}`;
}

function scoreText(v, s) {
  if (!s) return '';
  const parts = [t('count_line', stonesText(s.black), stonesText(s.white))];
  if (v.komi) parts.push(t('komi_part', t('stones', stonesText(v.komi / 2))));
  if (s.handicap_bonus) parts.push(t('bonus_part', t('stones', stonesText(s.handicap_bonus / 2)), v.handicap));
  return `${parts.join(lang === 'zh' ? '；' : '; ')} — ${resultText(s.result)}`;
}

export function resultText(result) {
  if (result === 'Void') return t('void_result');
  const m = /^([BW])\+(.+)$/.exec(result ?? '');
  if (!m) return t('draw');
  const winner = colorName(m[1] === 'B' ? 'black' : 'white');
  if (m[2] === 'R') return t('wins_resign', winner);
  if (m[2] === 'T') return t('wins_time', winner);
  if (m[2] === 'F') return t('wins_forfeit', winner);
  return t('wins_by', winner, t('stones', stonesText(Number(m[2]) / 2)), result);
}

// The stones of the chain at `vertex` on the board of view `v`.
function chainOf(v, vertex) {
  const n = v.size, at = (c, r) => v.board[n - 1 - r][c];
  const start = [LETTERS.indexOf(vertex[0]), Number(vertex.slice(1)) - 1];
  const color = at(...start);
  if (color === undefined || color === '.') return [];
  const seen = new Set([start.join()]), stack = [start], out = [];
  while (stack.length) {
    const [c, r] = stack.pop();
    out.push(LETTERS[c] + (r + 1));
    for (const [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const next = [c + dc, r + dr];
      if (next[0] < 0 || next[1] < 0 || next[0] >= n || next[1] >= n || seen.has(next.join())) continue;
      seen.add(next.join());
      if (at(...next) === color) stack.push(next);
    }
  }
  return out;
}

// The chains of a dispute, ringed on the board: [vertex, 'alive' | 'dead'] for every stone.
export function disputeMarks(v) {
  if (v.phase !== 'counting' || !v.dispute) return [];
  const marks = [];
  for (const kind of ['alive', 'dead']) {
    for (const vertex of v.dispute[kind]) for (const stone of chainOf(v, vertex)) marks.push([stone, kind]);
  }
  return marks;
}

// A click in the counting phase marks the chain dead or alive: the state wanted is said, so
// that a retried click does not undo itself.
export const markChain = (vertex) => act('toggle', { point: vertex, dead: !S.view.dead.includes(vertex) });

// The count's lines under the board: the score, in Chinese too, and the computer's judgement.
export function renderCount(v, s) {
  $('#score').textContent = scoreText(v, s.score);
  // In English the Chinese count too, as a Chinese referee says it.
  $('#score-zh').textContent = lang === 'en' && s.score ? `${s.score.black_text} · ${s.score.white_text} — ${s.score.result_zh}` : '';
  const counting = v.phase === 'counting';
  $('#judged-dead').textContent = counting && v.computer && v.proposed ? t('judged_dead', (v.proposal || []).length) : '';
  $('#dispute').textContent = counting && v.dispute ? t('dispute', v.dispute.alive, v.dispute.dead) : '';
}

export function init() {
  // The marking as shown: if it changed meanwhile the server refuses (409), and the live view
  // already shows the new one.
  $('#accept').addEventListener('click', () => act('accept', { dead: S.view.dead }));
  $('#resume').addEventListener('click', () => act('resume'));
}
