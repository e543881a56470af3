// The board in SVG, drawn from a view and the marks asked for: nothing here reads the page's
// state. The proportions of a real board: lines 22.5 mm apart across and 24 mm down, lines
// 1 mm, star points 2.5 mm, stones 21.8 mm across. One SVG unit is a millimetre.
export const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';
export const DX = 22.5, DY = 24, MARGIN = 30, STONE = 21.8;
const SVG = 'http://www.w3.org/2000/svg';

// Board coordinates of column `c` and row `r` (from the bottom) on an `n`-line board.
export const boardAxes = (n) => [(c) => MARGIN + c * DX, (r) => MARGIN + (n - 1 - r) * DY];
// Column and row (from 0, the row from the bottom) of a vertex such as `D4`.
export const vertexAt = (vertex) => [LETTERS.indexOf(vertex[0]), Number(vertex.slice(1)) - 1];

export function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

function starPoints(n) {
  if (n < 7) return [];
  const edge = n >= 13 ? 3 : 2, far = n - 1 - edge, mid = (n - 1) / 2;
  const lines = n % 2 === 1 && n >= 9 ? [edge, mid, far] : [edge, far];
  return lines.flatMap((c) => lines.map((r) => [c, r])).filter(([c, r]) => n >= 13 || (c === mid) === (r === mid));
}

// The numbers of the moves of `v` after move `after`, by vertex (the last move on a point wins).
export function moveNumbers(v, after = 0) {
  const numbers = new Map();
  v.history.forEach((m, i) => {
    if (m.move !== 'pass' && i >= after) numbers.set(m.move, i + 1 - after);
  });
  return numbers;
}

// The board of view `v` in `svg`. `marks`: numbers (a Map of vertex to number), judged (the
// computer's dead stones, ▲), ko, placing (handicap stones chosen), chains (vertices outlined),
// shadow (the colour of the stone under the pointer), canPlay(vertex), onClick(vertex),
// clickable.
export function drawBoard(svg, v, marks) {
  const n = v.size, w = 2 * MARGIN + (n - 1) * DX, h = 2 * MARGIN + (n - 1) * DY;
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.textContent = '';
  svg.classList.toggle('clickable', Boolean(marks.clickable));
  el('rect', { x: 0, y: 0, width: w, height: h, class: 'wood' }, svg);
  const axes = boardAxes(n);
  drawGrid(svg, n, w, h, axes);
  if (v.score) drawArea(svg, v, axes);
  drawStones(svg, v, marks.numbers, axes);
  drawMarks(svg, marks, axes);
  drawTargets(svg, v, marks, axes);
}

function drawGrid(svg, n, w, h, [x, y]) {
  for (let i = 0; i < n; i++) {
    el('line', { x1: x(0), y1: y(i), x2: x(n - 1), y2: y(i), class: 'grid' }, svg);
    el('line', { x1: x(i), y1: y(0), x2: x(i), y2: y(n - 1), class: 'grid' }, svg);
    // In the margin, clear of the edge stones.
    for (const [cx, cy, text] of [[x(i), MARGIN * 0.33, LETTERS[i]], [x(i), h - MARGIN * 0.12, LETTERS[i]],
      [MARGIN * 0.28, y(i) + 2.5, i + 1], [w - MARGIN * 0.28, y(i) + 2.5, i + 1]]) {
      el('text', { x: cx, y: cy, class: 'coord' }, svg).textContent = text;
    }
  }
  for (const [c, r] of starPoints(n)) el('circle', { cx: x(c), cy: y(r), r: 1.25 * 1.6, class: 'star' }, svg);
}

// Territory (counting and counted games).
function drawArea(svg, v, [x, y]) {
  const n = v.size;
  v.score.owners.forEach((row, i) => [...row].forEach((o, c) => {
    const r = n - 1 - i;
    if (o !== '.' && v.board[i][c] === '.') {
      el('rect', { x: x(c) - 4, y: y(r) - 4, width: 8, height: 8, class: `area ${o === 'X' ? 'black' : 'white'}` }, svg);
    }
  }));
}

function drawStones(svg, v, numbers, [x, y]) {
  const n = v.size, last = v.history.at(-1), dead = new Set(v.dead);
  v.board.forEach((row, i) => [...row].forEach((s, c) => {
    if (s === '.') return;
    const r = n - 1 - i, vertex = LETTERS[c] + (r + 1), color = s === 'X' ? 'black' : 'white';
    el('circle', { cx: x(c), cy: y(r), r: STONE / 2, class: `stone ${color}${dead.has(vertex) ? ' dead' : ''}`, 'data-vertex': vertex }, svg);
    if (dead.has(vertex)) {
      el('path', { d: `M${x(c) - 5} ${y(r) - 5}L${x(c) + 5} ${y(r) + 5}M${x(c) + 5} ${y(r) - 5}L${x(c) - 5} ${y(r) + 5}`, class: 'cross' }, svg);
    } else if (numbers.has(vertex)) {
      // The last move's number stands out: the mark of the last move with numbers on.
      const lastOne = last && last.move === vertex ? ' last-number' : '';
      el('text', { x: x(c), y: y(r) + 3, class: `number on-${color}${lastOne}` }, svg).textContent = numbers.get(vertex);
    } else if (last && last.move === vertex) {
      el('circle', { cx: x(c), cy: y(r), r: 4.5, class: `last on-${color}` }, svg);
    }
  }));
}

function drawMarks(svg, marks, [x, y]) {
  for (const vertex of marks.judged ?? []) {
    const [c, r] = vertexAt(vertex);
    const [cx, cy] = [x(c) + 5, y(r) - 5];
    el('path', { d: `M${cx} ${cy - 3.5}L${cx + 3.5} ${cy + 2.5}L${cx - 3.5} ${cy + 2.5}Z`, class: 'judged-dead', 'data-vertex': vertex }, svg);
  }
  for (const [vertex, kind] of marks.chains ?? []) {
    const [c, r] = vertexAt(vertex);
    el('circle', { cx: x(c), cy: y(r), r: STONE / 2 + 1.2, class: `chain-mark ${kind}`, 'data-vertex': vertex }, svg);
  }
  if (marks.ko) {
    const [c, r] = vertexAt(marks.ko);
    el('rect', { x: x(c) - 6, y: y(r) - 6, width: 12, height: 12, class: 'ko', 'data-vertex': marks.ko }, svg);
  }
  for (const vertex of marks.placing ?? []) {
    const [c, r] = vertexAt(vertex);
    el('circle', { cx: x(c), cy: y(r), r: STONE / 2, class: 'stone black placing', 'data-vertex': vertex }, svg);
  }
}

// The shadow stone and the click targets.
function drawTargets(svg, v, marks, [x, y]) {
  const n = v.size;
  const shadow = el('circle', { r: STONE / 2, class: `shadow ${marks.shadow ?? 'black'}`, visibility: 'hidden' }, svg);
  for (let c = 0; c < n; c++) {
    for (let r = 0; r < n; r++) {
      const vertex = LETTERS[c] + (r + 1);
      const hit = el('rect', { x: x(c) - DX / 2, y: y(r) - DY / 2, width: DX, height: DY, class: 'hit', 'data-vertex': vertex }, svg);
      hit.addEventListener('click', () => marks.onClick?.(vertex));
      hit.addEventListener('mouseenter', () => {
        shadow.setAttribute('cx', x(c));
        shadow.setAttribute('cy', y(r));
        shadow.setAttribute('visibility', marks.canPlay?.(vertex) ? 'visible' : 'hidden');
      });
    }
  }
  svg.onmouseleave = () => shadow.setAttribute('visibility', 'hidden');
}

// A line of moves as numbered translucent stones: [{ vertex, color, number }].
export function drawLine(svg, v, stones) {
  const [x, y] = boardAxes(v.size);
  for (const { vertex, color, number } of stones) {
    const [c, r] = vertexAt(vertex);
    el('circle', { cx: x(c), cy: y(r), r: STONE / 2, class: `stone ${color} pv-stone`, 'data-vertex': vertex }, svg);
    el('text', { x: x(c), y: y(r) + 3, class: `number on-${color} pv-number` }, svg).textContent = number;
  }
}

// The move played instead of a line drawn: a cross on its point.
export function drawPlayed(svg, v, vertex) {
  const [x, y] = boardAxes(v.size), [c, r] = vertexAt(vertex), d = 4.5;
  el('path', { d: `M${x(c) - d} ${y(r) - d}L${x(c) + d} ${y(r) + d}M${x(c) + d} ${y(r) - d}L${x(c) - d} ${y(r) + d}`,
    class: 'played-instead', 'data-vertex': vertex }, svg);
}
