// tengen's page: plain JavaScript over the API of /api/openapi.json, nothing else.
'use strict';

const $ = (s) => document.querySelector(s);
const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';

const T = {
  en: {
    new_game: 'New game', recent: 'Recent games', opponent: 'Opponent', computer: 'The computer', level: 'Level',
    friend: 'A friend', board: 'Board', rules: 'Rules', rules_en: '(Chinese rules, area counting, komi 7.5)',
    handicap: 'Handicap stones', placement: 'Placement', fixed: 'fixed (star points)', free: 'free',
    rang_xian: '(Black first, no komi)', colour: 'Your colour', nigiri: '(nigiri)', guess: 'your guess',
    odd: 'odd', even: 'even', black: 'Black', white: 'White', time: 'Time control', no_clock: 'no clock',
    absolute: 'absolute', byoyomi: 'byo-yomi 读秒', canadian: 'Canadian', fischer: 'Fischer', main_min: 'main time (min)',
    period_s: 'period (s)', periods: 'periods / stones', increment_s: 'increment (s)', start: 'Start',
    upload: 'Review an SGF file', type_move: 'Move', pass: 'Pass', undo: 'Undo', resign: 'Resign',
    undo_accept: 'Allow undo', undo_reject: 'Refuse undo', accept: 'Accept the dead stones', resume: 'Resume play',
    numbers: 'move numbers', download: 'Download SGF', to_move: (c) => `${c} to play`, you: 'you',
    your_turn: 'Your turn', thinking: 'The computer is thinking…', placing: 'Black places the handicap stones',
    counting: 'Two passes: click chains to mark them dead or alive, then accept (or resume play).',
    ended: 'Game over', captures: 'captures', seat_links: 'Send your friend the second link; keep the first (it is your seat).',
    your_link: 'Your seat', friend_link: "Your friend's seat", watching: 'You are watching this game.',
    undo_asked: (c) => `${c} asks to take back a move.`, confirm_resign: 'Click Resign again to resign.',
    review: (n, total) => `move ${n} of ${total}`, nigiri_shown: (guess, handful, color) =>
      `Nigiri: you guessed ${guess ? 'odd' : 'even'}; ${handful} stones — you play ${color}.`,
    last_period: 'last period', periods_left: 'periods', stones_left: 'stones', refused: 'Not possible: ',
    imported: 'A game to review.', moves: 'moves', commentary: 'Commentary',
  },
  zh: {
    new_game: '新对局', recent: '最近对局', opponent: '对手', computer: '电脑', level: '级别', friend: '朋友',
    board: '棋盘', rules: '规则', rules_en: '', handicap: '让子', placement: '摆放', fixed: '固定（星位）', free: '自由',
    rang_xian: '（黑先，不贴目）', colour: '执子', nigiri: '', guess: '猜', odd: '单', even: '双', black: '黑',
    white: '白', time: '用时', no_clock: '不计时', absolute: '包干', byoyomi: '读秒', canadian: '加拿大读秒',
    fischer: '费舍尔', main_min: '基本时间（分）', period_s: '每次读秒（秒）', periods: '读秒次数 / 手数',
    increment_s: '每步加秒', start: '开始', upload: '复盘：上传 SGF', type_move: '落子', pass: '停一手',
    undo: '悔棋', resign: '认输', undo_accept: '同意悔棋', undo_reject: '不同意悔棋', accept: '同意死子',
    resume: '续弈', numbers: '手数', download: '下载 SGF', to_move: (c) => `轮到${c}`, you: '你',
    your_turn: '轮到你', thinking: '电脑思考中…', placing: '黑方摆放让子', counting: '双方停一手：点击棋块标记死活，然后同意（或续弈）。',
    ended: '终局', captures: '提子', seat_links: '把第二个链接发给朋友；第一个是你的座位，请保存。', your_link: '你的座位',
    friend_link: '朋友的座位', watching: '观战中。', undo_asked: (c) => `${c}请求悔棋。`, confirm_resign: '再点一次“认输”确认。',
    review: (n, total) => `第 ${n} / ${total} 手`, nigiri_shown: (guess, handful, color) =>
      `猜先：你猜${guess ? '单' : '双'}，对方握 ${handful} 子 — 你执${color}。`,
    last_period: '最后一次读秒', periods_left: '次', stones_left: '手', refused: '不能这样下：', imported: '复盘对局。',
    moves: '手', commentary: '解说',
  },
};

let lang = localStorage.getItem('tengen-lang') || (navigator.language.startsWith('zh') ? 'zh' : 'en');
const t = (key, ...args) => {
  const v = T[lang][key] ?? T.en[key] ?? key;
  return typeof v === 'function' ? v(...args) : v;
};
const colorName = (c) => t(c);

// --- State --------------------------------------------------------------------------------
let gameId = null;
let seat = null; // { token, color }
let view = null; // the game's view (live)
let shown = null; // the view on the board (live or a reviewed move)
let reviewAt = null; // a move number under review, or null for the live position
let socket = null;
let receivedAt = 0;
let resignArmed = false;
const placing = new Set(); // free handicap stones chosen, not yet sent
let terms = { id: null, moves: -1, list: [] }; // the commentator's names of every move
let termsLoading = null;

// --- API ----------------------------------------------------------------------------------
async function api(method, path, body, raw) {
  const headers = {};
  if (body !== undefined && !raw) headers['content-type'] = 'application/json';
  if (seat && path.startsWith(`/api/games/${gameId}/`)) headers.authorization = `Bearer ${seat.token}`;
  const response = await fetch(path, { method, headers, body: raw ? body : body === undefined ? undefined : JSON.stringify(body) });
  const json = await response.json().catch(() => null);
  if (!response.ok) throw new Error(json?.detail || response.statusText);
  return json;
}

// A refusal of a form, written under the form that was used (empty clears it).
function formError(selector, text) {
  $(selector).textContent = text || '';
}

function say(text, isError) {
  const m = $('#message');
  m.textContent = text ? (isError ? t('refused') + text : text) : '';
  m.className = isError ? 'error' : '';
}

// --- Routing ------------------------------------------------------------------------------
function show(section) {
  for (const id of ['new', 'recent', 'game']) $(`#${id}`).hidden = id !== section;
}

function route() {
  const path = location.pathname;
  const match = path.match(/^\/games\/([0-9a-f]+)$/);
  if (match) return openGame(match[1]);
  if (path === '/games') {
    show('recent');
    return loadRecent();
  }
  show('new');
}

function go(path) {
  history.pushState(null, '', path);
  route();
}

// --- New game -----------------------------------------------------------------------------
$('#new-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const f = new FormData(event.target);
  const body = {
    size: Number(f.get('size')),
    opponent: f.get('opponent') === 'friend' ? 'friend' : { computer: { level: Number(f.get('level')) } },
    handicap: Number(f.get('handicap')),
    placement: f.get('placement'),
    rang_xian: f.get('rang_xian') === 'on',
    color: f.get('color'),
    guess: f.get('guess'),
  };
  const main = Number(f.get('main')) * 60, period = Number(f.get('period')), periods = Number(f.get('periods'));
  body.time = {
    none: { kind: 'none' },
    absolute: { kind: 'absolute', main },
    byoyomi: { kind: 'byoyomi', main, period, periods },
    canadian: { kind: 'canadian', main, period, stones: periods },
    fischer: { kind: 'fischer', main, increment: Number(f.get('increment')) },
  }[f.get('time')];
  formError('#new-error', '');
  try {
    const created = await api('POST', '/api/games', body);
    remember(created.id, { token: created.token, color: created.color });
    if (created.friend_token) {
      sessionStorage.setItem(`tengen-friend-${created.id}`, link(created.id, created.friend_token, created.color === 'black' ? 'white' : 'black'));
    }
    if (created.game.nigiri) {
      sessionStorage.setItem(`tengen-nigiri-${created.id}`, t('nigiri_shown', created.game.nigiri.guess_odd, created.game.nigiri.handful, colorName(created.color)));
    }
    history.pushState(null, '', `/games/${created.id}#seat=${created.token}&as=${created.color}`);
    route();
  } catch (e) {
    formError('#new-error', e.message);
    show('new');
  }
});

// Only the time fields of the chosen control are shown.
function showTimeFields() {
  const kind = $('#new-form select[name=time]').value;
  for (const label of document.querySelectorAll('#new-form [data-kinds]')) {
    label.hidden = !label.dataset.kinds.split(' ').includes(kind);
  }
}
$('#new-form select[name=time]').addEventListener('change', showTimeFields);
showTimeFields();

function link(id, token, color) {
  return `${location.origin}/games/${id}#seat=${token}&as=${color}`;
}

function remember(id, s) {
  localStorage.setItem(`tengen-seat-${id}`, JSON.stringify(s));
}

// --- Recent games and upload --------------------------------------------------------------
async function loadRecent() {
  const list = $('#recent-list');
  list.textContent = '';
  for (const g of await api('GET', '/api/games?limit=50')) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `/games/${g.id}`;
    a.textContent = `${g.black} – ${g.white}, ${g.size}×${g.size}, ${g.moves} ${t('moves')}${g.result ? ', ' + g.result : ''}`;
    li.append(a);
    list.append(li);
  }
}

$('#upload').addEventListener('change', async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  formError('#upload-error', '');
  try {
    const game = await api('POST', '/api/games/import', await file.arrayBuffer(), true);
    go(`/games/${game.id}`);
  } catch (e) {
    formError('#upload-error', `${file.name}: ${e.message}`);
  } finally {
    // The same file chosen again is read again.
    event.target.value = '';
  }
});

// --- A game -------------------------------------------------------------------------------
async function openGame(id) {
  show('game');
  if (gameId !== id && socket) socket.close();
  gameId = id;
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get('seat')) {
    remember(id, { token: fragment.get('seat'), color: fragment.get('as') });
    history.replaceState(null, '', `/games/${id}`);
  }
  seat = JSON.parse(localStorage.getItem(`tengen-seat-${id}`) || 'null');
  reviewAt = null;
  say(sessionStorage.getItem(`tengen-nigiri-${id}`) || '');
  showSeatLinks();
  try {
    update(await api('GET', `/api/games/${id}`));
  } catch (e) {
    say(e.message, true);
    return;
  }
  listen();
}

function showSeatLinks() {
  const box = $('#seats');
  const friend = sessionStorage.getItem(`tengen-friend-${gameId}`);
  box.hidden = !friend;
  if (!friend) return;
  box.textContent = '';
  const p = document.createElement('p');
  p.textContent = t('seat_links');
  box.append(p);
  for (const [label, url] of [[t('your_link'), link(gameId, seat.token, seat.color)], [t('friend_link'), friend]]) {
    const row = document.createElement('label');
    row.textContent = `${label}: `;
    const input = document.createElement('input');
    input.readOnly = true;
    input.value = url;
    input.className = 'seat-link';
    input.addEventListener('focus', () => input.select());
    row.append(input);
    box.append(row);
  }
}

function listen() {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const id = gameId;
  socket = new WebSocket(`${proto}://${location.host}/api/games/${id}/live`);
  socket.onmessage = (event) => {
    if (id === gameId) update(JSON.parse(event.data));
  };
  socket.onclose = () => {
    // Reconnect while the game is open (a server restart, a network hiccup).
    if (id === gameId && !$('#game').hidden) setTimeout(() => id === gameId && listen(), 1000);
  };
}

function update(v) {
  // Views arrive by two roads (the answer to a request, the WebSocket) in either order: an
  // older one never replaces a newer one.
  if (view && view.id === v.id && v.events < view.events) return;
  const before = view;
  view = v;
  receivedAt = performance.now();
  if (before && before.moves !== v.moves && !(before.moves < v.moves && v.history.at(-1)?.color === seat?.color)) say('');
  if (reviewAt === null) shown = v;
  render();
}

async function review(n) {
  if (!view) return;
  n = Math.max(0, Math.min(view.moves, n));
  reviewAt = n === view.moves ? null : n;
  shown = reviewAt === null ? view : await api('GET', `/api/games/${gameId}?at=${n}`);
  render();
}

const myTurn = () =>
  seat && view && reviewAt === null && !view.undo_request &&
  ((view.phase === 'playing' && view.to_move === seat.color) || (view.phase === 'placing' && seat.color === 'black'));

async function act(path, body) {
  say('');
  try {
    update(await api('POST', `/api/games/${gameId}/${path}`, body));
  } catch (e) {
    say(e.message, true);
  }
}

function playAt(vertex) {
  if (!view) return;
  if (view.phase === 'counting' && seat) {
    // Say the state wanted, so that a retried click does not undo itself.
    return act('toggle', { point: vertex, dead: !view.dead.includes(vertex) });
  }
  if (view.phase === 'placing' && seat?.color === 'black') {
    // Free handicap: the stones are chosen one by one, sent when all are chosen.
    if (placing.has(vertex)) placing.delete(vertex);
    else placing.add(vertex);
    render();
    if (placing.size === view.handicap) {
      const points = [...placing];
      placing.clear();
      return act('handicap', { points });
    }
    return;
  }
  if (reviewAt !== null) return review(view.moves);
  if (!seat) return say(t('watching'));
  if (!myTurn()) return say(view.phase === 'playing' ? t('to_move', colorName(view.to_move)) : t(view.phase), true);
  return act('move', { move: vertex, number: view.moves + 1 });
}

$('#typed').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('#move-input');
  const text = input.value.trim();
  input.value = '';
  if (!text) return;
  if (/^pass$/i.test(text)) return act('move', { move: 'pass', number: view.moves + 1 });
  playAt(text.toUpperCase());
});
$('#pass').addEventListener('click', () => act('move', { move: 'pass', number: view.moves + 1 }));
$('#undo').addEventListener('click', () => act('undo'));
$('#undo-accept').addEventListener('click', () => act('undo/accept'));
$('#undo-reject').addEventListener('click', () => act('undo/reject'));
// The marking as shown: if it changed meanwhile the server refuses (409), and the live view
// already shows the new one.
$('#accept').addEventListener('click', () => act('accept', { dead: view.dead }));
$('#resume').addEventListener('click', () => act('resume'));
$('#resign').addEventListener('click', () => {
  if (!resignArmed) {
    resignArmed = true;
    say(t('confirm_resign'));
    setTimeout(() => { resignArmed = false; }, 4000);
    return;
  }
  resignArmed = false;
  act('resign');
});
$('#numbers').addEventListener('change', () => render());
$('#first').addEventListener('click', () => review(0));
$('#prev').addEventListener('click', () => review((reviewAt ?? view.moves) - 1));
$('#next').addEventListener('click', () => review((reviewAt ?? view.moves) + 1));
$('#last').addEventListener('click', () => review(view.moves));
$('#step').addEventListener('input', (event) => review(Number(event.target.value)));
document.addEventListener('keydown', (event) => {
  if ($('#game').hidden || !view || event.target.tagName === 'INPUT') return;
  const at = reviewAt ?? view.moves;
  const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: view.moves }[event.key];
  if (moves !== undefined) {
    event.preventDefault();
    review(moves);
  } else if (/^[a-zA-Z0-9]$/.test(event.key)) {
    $('#move-input').focus();
  }
});

// --- Drawing ------------------------------------------------------------------------------
// The proportions of a real board: lines 22.5 mm apart across and 24 mm down, lines 1 mm,
// star points 2.5 mm, stones 21.8 mm across. One SVG unit is a millimetre.
const DX = 22.5, DY = 24, MARGIN = 24, STONE = 21.8;
const SVG = 'http://www.w3.org/2000/svg';

function el(name, attrs, parent) {
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

function render() {
  applyText();
  if (!shown || $('#game').hidden) return;
  const v = shown, n = v.size;
  const svg = $('#board');
  const w = 2 * MARGIN + (n - 1) * DX, h = 2 * MARGIN + (n - 1) * DY;
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.textContent = '';
  svg.classList.toggle('clickable', Boolean(myTurn()) || (v.phase === 'counting' && Boolean(seat)));
  el('rect', { x: 0, y: 0, width: w, height: h, class: 'wood' }, svg);
  const x = (c) => MARGIN + c * DX, y = (r) => MARGIN + (n - 1 - r) * DY;
  for (let i = 0; i < n; i++) {
    el('line', { x1: x(0), y1: y(i), x2: x(n - 1), y2: y(i), class: 'grid' }, svg);
    el('line', { x1: x(i), y1: y(0), x2: x(i), y2: y(n - 1), class: 'grid' }, svg);
    for (const [cx, cy, text] of [[x(i), MARGIN * 0.45, LETTERS[i]], [x(i), h - MARGIN * 0.25, LETTERS[i]],
      [MARGIN * 0.4, y(i) + 2.5, i + 1], [w - MARGIN * 0.4, y(i) + 2.5, i + 1]]) {
      el('text', { x: cx, y: cy, class: 'coord' }, svg).textContent = text;
    }
  }
  for (const [c, r] of starPoints(n)) el('circle', { cx: x(c), cy: y(r), r: 1.25 * 1.6, class: 'star' }, svg);
  // Territory (counting and counted games).
  if (v.score) {
    v.score.owners.forEach((row, i) => [...row].forEach((o, c) => {
      const r = n - 1 - i;
      if (o !== '.' && v.board[i][c] === '.') {
        el('rect', { x: x(c) - 4, y: y(r) - 4, width: 8, height: 8, class: `area ${o === 'X' ? 'black' : 'white'}` }, svg);
      }
    }));
  }
  const numbers = $('#numbers').checked ? moveNumbers(v) : new Map();
  const last = v.history.at(-1);
  const dead = new Set(v.dead);
  v.board.forEach((row, i) => [...row].forEach((s, c) => {
    if (s === '.') return;
    const r = n - 1 - i, vertex = LETTERS[c] + (r + 1), color = s === 'X' ? 'black' : 'white';
    el('circle', { cx: x(c), cy: y(r), r: STONE / 2, class: `stone ${color}${dead.has(vertex) ? ' dead' : ''}`, 'data-vertex': vertex }, svg);
    if (dead.has(vertex)) {
      el('path', { d: `M${x(c) - 5} ${y(r) - 5}L${x(c) + 5} ${y(r) + 5}M${x(c) + 5} ${y(r) - 5}L${x(c) - 5} ${y(r) + 5}`, class: 'cross' }, svg);
    } else if (numbers.has(vertex)) {
      el('text', { x: x(c), y: y(r) + 3, class: `number on-${color}` }, svg).textContent = numbers.get(vertex);
    } else if (last && last.move === vertex) {
      el('circle', { cx: x(c), cy: y(r), r: 4.5, class: `last on-${color}` }, svg);
    }
  }));
  for (const vertex of placing) {
    const c = LETTERS.indexOf(vertex[0]), r = Number(vertex.slice(1)) - 1;
    el('circle', { cx: x(c), cy: y(r), r: STONE / 2, class: 'stone black placing', 'data-vertex': vertex }, svg);
  }
  // The shadow stone and the click targets.
  const shadow = el('circle', { r: STONE / 2, class: `shadow ${seat?.color ?? 'black'}`, visibility: 'hidden' }, svg);
  for (let c = 0; c < n; c++) {
    for (let r = 0; r < n; r++) {
      const vertex = LETTERS[c] + (r + 1);
      const hit = el('rect', { x: x(c) - DX / 2, y: y(r) - DY / 2, width: DX, height: DY, class: 'hit', 'data-vertex': vertex }, svg);
      hit.addEventListener('click', () => playAt(vertex));
      hit.addEventListener('mouseenter', () => {
        const empty = v.board[n - 1 - r][c] === '.';
        shadow.setAttribute('cx', x(c));
        shadow.setAttribute('cy', y(r));
        shadow.setAttribute('visibility', empty && myTurn() ? 'visible' : 'hidden');
      });
    }
  }
  svg.addEventListener('mouseleave', () => shadow.setAttribute('visibility', 'hidden'));
  renderPanel();
  renderCommentary();
}

// --- Commentary: the Go terms of the move on the board (GET /api/games/{id}/terms) --------
async function loadTerms() {
  const id = gameId, moves = view?.moves ?? -1;
  if (!id || (terms.id === id && terms.moves === moves) || termsLoading === `${id}/${moves}`) return;
  termsLoading = `${id}/${moves}`;
  try {
    const data = await api('GET', `/api/games/${id}/terms`);
    if (gameId === id) terms = { id, moves: data.moves.length, list: data.moves };
  } catch (e) {
    // The commentary is a help, not the game: a failure leaves it empty.
  } finally {
    termsLoading = null;
  }
  if (gameId === id) renderCommentary();
}

function renderCommentary() {
  const box = $('#commentary');
  box.textContent = '';
  if (!view) return;
  const n = reviewAt ?? view.moves;
  if (terms.id !== gameId || terms.moves !== view.moves) loadTerms();
  const entry = terms.id === gameId ? terms.list[n - 1] : null;
  if (!entry || !entry.terms.length) return;
  const head = document.createElement('h3');
  head.textContent = `${t('commentary')} · ${n}. ${colorName(entry.color)} ${entry.move}`;
  box.append(head);
  const list = document.createElement('ul');
  list.className = 'terms';
  for (const term of entry.terms) {
    const li = document.createElement('li');
    li.className = `term ${term.kind}`;
    li.innerHTML = '<b lang="zh"></b> <span class="pinyin"></span> <span class="en"></span>';
    li.querySelector('b').textContent = term.zh;
    li.querySelector('.pinyin').textContent = term.pinyin;
    li.querySelector('.en').textContent = term.en;
    list.append(li);
  }
  box.append(list);
}

function moveNumbers(v) {
  const numbers = new Map();
  v.history.forEach((m, i) => {
    if (m.move !== 'pass') numbers.set(m.move, i + 1);
  });
  return numbers;
}

function clockText(side) {
  const c = view.clocks?.[side];
  if (!c) return '';
  let ms = c.remaining_ms ?? 0;
  if (view.clock_running === side) ms = Math.max(0, ms - (performance.now() - receivedAt));
  // While overtime runs, show the period's time; otherwise the main time.
  const kind = view.time.kind;
  let shownMs = ms;
  if ((kind === 'byoyomi' || kind === 'canadian') && c.overtime) {
    const periodMs = view.time.period * 1000;
    shownMs = kind === 'byoyomi' ? ms - (c.periods - 1) * periodMs : ms;
  } else if (kind === 'byoyomi' || kind === 'canadian') {
    shownMs = Math.max(0, c.main_ms - (view.clock_running === side ? performance.now() - receivedAt : 0));
  }
  const s = Math.ceil(Math.max(0, shownMs) / 1000);
  let text = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  if (kind === 'byoyomi') text += c.last_period ? ` (${t('last_period')})` : ` ×${c.periods} ${t('periods_left')}`;
  if (kind === 'canadian' && c.overtime) text += ` / ${c.stones} ${t('stones_left')}`;
  return text;
}

function renderPanel() {
  const v = view, s = shown;
  const players = $('#players');
  players.textContent = '';
  for (const side of ['black', 'white']) {
    const div = document.createElement('div');
    div.className = `player ${side}${v.phase === 'playing' && v.to_move === side ? ' to-move' : ''}`;
    div.dataset.side = side;
    const name = side === 'black' ? v.black_name : v.white_name;
    const captures = s.captures[side];
    div.innerHTML = '<span class="dot"></span><span class="name"></span><span class="caps"></span><span class="clock"></span>';
    div.querySelector('.name').textContent = `${colorName(side)} · ${name}${seat?.color === side ? ` (${t('you')})` : ''}`;
    div.querySelector('.caps').textContent = `${t('captures')} ${captures}`;
    const clock = div.querySelector('.clock');
    clock.textContent = clockText(side);
    if (v.clocks?.[side]?.last_period) clock.classList.add('last-period');
    players.append(div);
  }
  const rules = document.createElement('p');
  rules.className = 'rules-line';
  rules.textContent = `中国规则 · ${v.komi_zh}${lang === 'en' ? ` (komi ${v.komi})` : ''}${v.handicap ? ` · ${t('handicap')} ${v.handicap}` : ''}`;
  players.append(rules);
  let status;
  if (v.imported) status = t('imported');
  else if (v.phase === 'ended') status = `${t('ended')}: ${v.result_zh} · ${v.result}`;
  else if (v.phase === 'counting') status = t('counting');
  else if (v.phase === 'placing') status = `${t('placing')} (${placing.size} / ${v.handicap})`;
  else if (v.undo_request) status = t('undo_asked', colorName(v.undo_request));
  else if (myTurn()) status = t('your_turn');
  else if (v.computer === v.to_move) status = t('thinking');
  else status = t('to_move', colorName(v.to_move));
  $('#status').textContent = status;
  $('#score').textContent = s.score
    ? `${s.score.black_text} · ${s.score.white_text} — ${s.score.result_zh} · ${s.score.result}` : '';
  const seated = Boolean(seat) && !v.imported;
  const playing = v.phase === 'playing' && reviewAt === null;
  $('#pass').hidden = !seated || !playing;
  $('#pass').disabled = !myTurn();
  $('#undo').hidden = !seated || !playing;
  $('#resign').hidden = !seated || v.phase === 'ended';
  $('#typed').hidden = !seated || !playing;
  $('#undo-accept').hidden = $('#undo-reject').hidden = !(seated && v.undo_request && v.undo_request !== seat.color);
  $('#accept').hidden = $('#resume').hidden = !(seated && v.phase === 'counting');
  $('#accept').disabled = seated && v.accepted[seat.color];
  const step = $('#step');
  step.max = v.moves;
  step.value = reviewAt ?? v.moves;
  $('#step-label').textContent = t('review', reviewAt ?? v.moves, v.moves);
  $('#sgf').href = `/api/games/${gameId}/sgf`;
}

function applyText() {
  document.documentElement.lang = lang;
  for (const e of document.querySelectorAll('[data-t]')) e.textContent = t(e.dataset.t);
  $('#lang').textContent = lang === 'en' ? '中文' : 'English';
}

$('#lang').addEventListener('click', () => {
  lang = lang === 'en' ? 'zh' : 'en';
  localStorage.setItem('tengen-lang', lang);
  render();
});

document.addEventListener('click', (event) => {
  const a = event.target.closest('a');
  if (a && a.origin === location.origin && !a.hasAttribute('download') && !a.pathname.startsWith('/api/')) {
    event.preventDefault();
    go(a.pathname);
  }
});
window.addEventListener('popstate', route);
setInterval(() => {
  if (view?.clock_running && !$('#game').hidden) renderPanel();
}, 250);
route();
render();
