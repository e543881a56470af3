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
    review: (n, total) => `${n} / ${total}`, nigiri_shown: (guess, handful, color) =>
      `Nigiri: you guessed ${guess ? 'odd' : 'even'}; ${handful} stones — you play ${color}.`,
    last_period: 'last period', periods_left: 'periods', stones_left: 'stones', refused: 'Not possible: ',
    imported: 'A game to review.', moves: 'moves', move: 'move', commentary: 'Commentary', all_games: 'All games',
    pass_move: 'pass', you_mark: ' (you)',
    import_warnings: (file, list) => `${file} was read with ${list.length === 1 ? 'a problem' : `${list.length} problems`} (the game may be shorter than the file meant): ${list.join('; ')}`,
    judged_dead: (n) => n ? `The computer judges ${n} ${n === 1 ? 'stone' : 'stones'} dead (▲ on the stone); it accepts only that marking.` : 'The computer judges every stone alive; it accepts only that marking.',
    judging: 'Two passes: the dead stones are being judged…', your_name: 'Your name', set_name: 'Set', computer_name: (level) => `tengen (level ${level})`,
    undo_waits_mine: 'Waiting for the answer to your undo request.', undo_waits_yours: 'Answer the undo request first.',
    undo_refused: 'Your undo request was refused.', connection_lost: 'Connection lost — reconnecting…',
    copy: 'Copy', copied: 'Copied', share: 'Links', spectator_link: 'For spectators',
    overtime: 'overtime', ko_here: 'ko', sound: 'stone sounds and overtime beeps', speak: 'spoken count (last 10 s)',
    notify: 'a notification when it is your move', title_setting: 'the tab\'s title says when it is your move', settings: 'Sound and alerts', your_move_title: 'Your move',
    rematch: 'Rematch (colours swapped)', my_games: 'My games', my_seat: (c) => `you play ${c}`,
    rules_chinese: 'Chinese', 'rules_chinese-simple-ko': 'Chinese, simple ko', 'rules_tromp-taylor': 'Tromp–Taylor',
    komi_label: 'Komi (points)', komi_default: 'rules\' default',
    stones: (x) => `${x} ${x === '1' || /^[¼½¾]$/.test(x) ? 'stone' : 'stones'}`,
    count_line: (b, w) => `Black ${b} stones, White ${w}`, komi_part: (k) => `komi ${k}`,
    bonus_part: (b, h) => `Black returns ${b} for its ${h} handicap stones`,
    wins_by: (c, by, r) => `${c} wins by ${by} (${r})`, draw: 'a draw (和棋)', wins_resign: (c) => `${c} wins by resignation (${c === 'Black' ? 'B' : 'W'}+R)`,
    wins_time: (c) => `${c} wins on time (${c === 'Black' ? 'B' : 'W'}+T)`,
    dispute: (alive, dead) => `The computer does not agree: it judges ${[alive.length ? `${alive.join(', ')} alive` : '', dead.length ? `${dead.join(', ')} dead` : ''].filter(Boolean).join(' and ')}. Its own marking is shown: accept it, or resume play to settle the stones on the board.`,
    level_info: (l) => l ? `${l.strength}; ${l.search === 'network' ? 'the network search' : 'the playout search'}, ${l.budget}` : '',
    study: 'Review by the computer', review_start: 'Review the game', review_again: 'Review again',
    review_queued: 'Waiting for a worker…', review_running: (p) => `Reviewing: ${p}%`, review_failed: (e) => `The review failed: ${e}`,
    review_legend: 'Line: Black\'s win rate. Shade: Black\'s lead. Red: mistakes (bigger, costlier). Click or drag to go to a move.',
    mistakes_none: 'No move lost 1.5 points or more.', lost: (x) => `lost ${x} points`, best_was: (m) => `best ${m}`,
    judged: (n, c, m) => `The computer on ${n}. ${c} ${m}`, winrate_line: (b, who, lead) => `Black ${b}% · ${who} leads by ${lead}`,
    lead_legend: 'Black\'s lead in points by move (above the line Black leads).',
    analyse: 'Analyse', analyse_stop: 'Stop analysis', territory: 'territory (key t)',
    analysis_line: (m, w, lead, n) => `Best ${m}: ${w}% for the side to move, ${lead < 0 ? `behind by ${-lead}` : `ahead by ${lead}`}, ${n} visits`,
    analysis_done: 'Analysis ended.', estimate: (who, by, w) => `Estimate: ${who} leads by ${by} points (Black's win rate ${w}%)`,
    estimate_even: 'Estimate: even', variations: 'Variations', main_line: 'Back to the main line', from_move: (n) => `from move ${n}:`,
    in_variation: (n, at) => `Variation: ${n} ${n === 1 ? 'move' : 'moves'} after move ${at}. Click the board to go on; ◀ takes one back.`,
    turn_of: (c) => `It is ${c}'s turn.`,
    click_to_vary: 'Click the board to play a variation from the position shown.',
    record: 'The record', replayed_chinese: 'replayed under the Chinese rules', result_recorded: 'result',
    analysis_board: 'New analysis board', more_names: (n) => `${n} more`, fewer_names: 'fewer',
  },
  zh: {
    new_game: '新对局', recent: '最近对局', opponent: '对手', computer: '电脑', level: '级别', friend: '朋友',
    board: '棋盘', rules: '规则', rules_en: '', handicap: '让子', placement: '摆放', fixed: '固定（星位）', free: '自由',
    rang_xian: '（黑先，不贴子）', colour: '执子', nigiri: '', guess: '猜', odd: '单', even: '双', black: '黑',
    white: '白', time: '用时', no_clock: '不计时', absolute: '包干', byoyomi: '读秒', canadian: '加拿大读秒',
    fischer: '费舍尔', main_min: '基本时间（分）', period_s: '每次读秒（秒）', periods: '读秒次数 / 手数',
    increment_s: '每步加秒', start: '开始', upload: '复盘：上传 SGF', type_move: '落子', pass: '停一手',
    undo: '悔棋', resign: '认输', undo_accept: '同意悔棋', undo_reject: '不同意悔棋', accept: '同意死子',
    resume: '续弈', numbers: '手数', download: '下载 SGF', to_move: (c) => `轮到${c}`, you: '你',
    your_turn: '轮到你', thinking: '电脑思考中…', placing: '黑方摆放让子', counting: '双方停一手：点击棋块标记死活，然后同意（或续弈）。',
    ended: '终局', captures: '提子', seat_links: '把第二个链接发给朋友；第一个是你的座位，请保存。', your_link: '你的座位',
    friend_link: '朋友的座位', watching: '观战中。', undo_asked: (c) => `${c}请求悔棋。`, confirm_resign: '再点一次“认输”确认。',
    review: (n, total) => `${n} / ${total} 手`, nigiri_shown: (guess, handful, color) =>
      `猜先：你猜${guess ? '单' : '双'}，对方握 ${handful} 子 — 你执${color}。`,
    last_period: '最后一次读秒', periods_left: '次', stones_left: '手', refused: '不行：', imported: '复盘对局。',
    import_warnings: (file, list) => `${file} 读取时有 ${list.length} 处问题（对局可能比文件原意短）：${list.join('；')}`,
    moves: '手', move: '手', commentary: '解说', all_games: '所有对局', pass_move: '停一手', you_mark: '（你）',
    judged_dead: (n) => n ? `电脑判 ${n} 子为死子（棋子上标 ▲），只同意这样的标记。` : '电脑判所有棋子都是活棋，只同意这样的标记。',
    judging: '双方停一手：正在判断死子…', your_name: '你的名字', set_name: '确定', computer_name: (level) => `天元（级别 ${level}）`,
    undo_waits_mine: '等待对方回应你的悔棋请求。', undo_waits_yours: '请先回应悔棋请求。', undo_refused: '对方不同意悔棋。',
    connection_lost: '连接中断，正在重连…', copy: '复制', copied: '已复制', share: '链接', spectator_link: '观战链接',
    overtime: '读秒', ko_here: '劫', sound: '落子声和读秒提示音', speak: '语音读秒（最后 10 秒）', notify: '轮到你时发通知', title_setting: '轮到你时标签页标题提示',
    settings: '声音与提醒', your_move_title: '轮到你', rematch: '再来一局（交换黑白）', my_games: '我的对局',
    my_seat: (c) => `你执${c}`, rules_chinese: '中国规则', 'rules_chinese-simple-ko': '中国规则（简单劫）',
    'rules_tromp-taylor': 'Tromp–Taylor 规则', komi_label: '贴目（目）', komi_default: '按规则',
    stones: (x) => `${x} 子`, count_line: (b, w) => `黑 ${b} 子 · 白 ${w} 子`, komi_part: (k) => `贴 ${k}`,
    bonus_part: (b, h) => `黑还 ${b}（让 ${h} 子）`, wins_by: (c, by, r) => `${c}胜 ${by} · ${r}`, draw: '和棋',
    wins_resign: (c) => `${c}中盘胜 · ${c === '黑' ? 'B' : 'W'}+R`, wins_time: (c) => `${c}超时胜 · ${c === '黑' ? 'B' : 'W'}+T`,
    dispute: (alive, dead) => `电脑不同意：它判${[alive.length ? ` ${alive.join('、')} 为活棋` : '', dead.length ? ` ${dead.join('、')} 为死棋` : ''].filter(Boolean).join('，')}。现在显示的是电脑的判断：可以同意，或续弈，在棋盘上解决。`,
    level_info: (l) => l ? `${l.strength_zh}；${l.search === 'network' ? '神经网络搜索' : '模拟搜索'}，${l.budget_zh}` : '',
    study: '电脑复盘', review_start: '请电脑复盘', review_again: '重新复盘', review_queued: '排队等待中…',
    review_running: (p) => `复盘中：${p}%`, review_failed: (e) => `复盘失败：${e}`,
    review_legend: '曲线：黑方胜率。阴影：黑方领先目数。红点：失误（越大损失越多）。点击或拖动可跳到该手。',
    mistakes_none: '没有损失 1.5 目以上的棋。', lost: (x) => `损失 ${x} 目`, best_was: (m) => `应走 ${m}`,
    judged: (n, c, m) => `电脑评第 ${n} 手 ${c} ${m}`, winrate_line: (b, who, lead) => `黑胜率 ${b}% · ${who}领先 ${lead} 目`,
    lead_legend: '每手后黑方领先的目数（线上为黑领先）。',
    analyse: '分析', analyse_stop: '停止分析', territory: '形势（按 t）',
    analysis_line: (m, w, lead, n) => `最佳 ${m}：行棋方胜率 ${w}%，${lead < 0 ? `落后 ${-lead}` : `领先 ${lead}`} 目，${n} 次访问`,
    analysis_done: '分析结束。', estimate: (who, by, w) => `形势判断：${who}领先 ${by} 目（黑胜率 ${w}%）`,
    estimate_even: '形势判断：均势', variations: '变化图', main_line: '回到实战', from_move: (n) => `第 ${n} 手后：`,
    in_variation: (n, at) => `变化：第 ${at} 手后 ${n} 手。点棋盘继续；◀ 退一手。`,
    turn_of: (c) => `现在轮到${c}。`,
    click_to_vary: '点棋盘可从当前局面试下变化。',
    record: '棋谱信息', replayed_chinese: '按中国规则复盘', result_recorded: '结果',
    analysis_board: '新建研究棋盘', more_names: (n) => `还有 ${n} 个`, fewer_names: '收起',
  },
};

// The server's refusals by their code (the API's `reason`), in Chinese; English uses the
// server's own sentence.
const REASONS_ZH = {
  occupied: (p) => `${p} 已有棋子`, suicide: (p) => `${p} 是禁着点：没有气，也提不掉对方的子`,
  ko: (p) => `${p} 不能立即提回（打劫：先找劫材）`, superko: (p) => `${p} 会造成全局同形再现`,
  off_board: (p) => `${p} 不在棋盘上`, not_your_turn: (p, c) => `现在轮到${t(c)}`, not_playing: '对局不在进行中',
  not_counting: '双方停一手之后才能标记死子', undo_waits: '悔棋请求还在等待回应', over: '对局已经结束',
  undo_not_in_play: '对局进行中才能悔棋', nothing_to_take_back: '还没有可以悔的棋', no_undo_request: '没有要回应的悔棋请求',
  own_undo_request: '悔棋请求由对方回应', no_stone: (p) => `${p} 没有棋子`, marking_changed: '死子标记已经变了，请看清再同意',
  not_proposed: '电脑还在判断死子，请稍候', too_long: '对局手数已达上限：请停一手或认输', time_ran_out: (p, c) => `${t(c)}超时`,
  place_stones_first: '黑方先摆放让子', no_handicap_to_place: '没有要摆放的让子', handicap_stones: '让子的位置或数目不对',
  name_long: '名字最多 40 个字', name_empty: '名字不能为空', name_unprintable: '名字只能用看得见的字符',
  rang_xian_handicap: '让先是不让子的对局：不能同时让子', handicap_count: '这个棋盘不能让这么多子',
  no_handicap: '这个棋盘太小，不能让子', sgf_unreadable: '不是可以读的 SGF 棋谱', sgf_replay: '棋谱不能按中国规则复盘',
  sgf_empty: '棋谱里没有棋步，也没有棋局信息', sgf_none: '文件里没有 SGF 棋局', stale_move: '棋局已经变了，请再试一次', review_only: '导入的对局只供复盘',
};

// A refusal in the page's language (the API's words for a variation's move name the request's
// field and the move's number: the player sees what is wrong with the move).
function refusal(e) {
  const zh = lang === 'zh' && REASONS_ZH[e.reason];
  if (!zh) return e.message.replace(/^(then|moves): move \d+ \([^)]*\): /, '');
  return typeof zh === 'function' ? zh(e.point, e.color) : zh;
}

let lang = localStorage.getItem('tengen-lang') || (navigator.language.startsWith('zh') ? 'zh' : 'en');
const t = (key, ...args) => {
  const v = T[lang][key] ?? T.en[key] ?? key;
  return typeof v === 'function' ? v(...args) : v;
};
const colorName = (c) => t(c);
// A move as the page writes it: a vertex, or pass in the page's language.
const moveText = (m) => (m === 'pass' ? t('pass_move') : m);
// Who leads, by how much: the lead's sign says who (a negative lead of Black is White's).
const leadText = (leadBlack) => [colorName(leadBlack < 0 ? 'white' : 'black'), Math.abs(leadBlack).toFixed(1)];

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
let study = { id: null, review: null }; // the computer's review of the game (GET /api/games/{id}/review)
let termsLoading = null;

// --- API ----------------------------------------------------------------------------------
async function api(method, path, body, raw) {
  const headers = {};
  if (body !== undefined && !raw) headers['content-type'] = 'application/json';
  if (seat && path.startsWith(`/api/games/${gameId}/`)) headers.authorization = `Bearer ${seat.token}`;
  const response = await fetch(path, { method, headers, body: raw ? body : body === undefined ? undefined : JSON.stringify(body) });
  const json = await response.json().catch(() => null);
  if (!response.ok) {
    const e = new Error(json?.detail || response.statusText);
    Object.assign(e, { reason: json?.reason, point: json?.point, color: json?.color });
    throw e;
  }
  return json;
}

// A refusal of a form, written under the form that was used (empty clears it).
function formError(selector, text) {
  $(selector).textContent = text || '';
}

function say(text, isError, prefixed = true) {
  const m = $('#message');
  m.textContent = text ? (isError && prefixed ? t('refused') + text : text) : '';
  m.className = isError ? 'error' : '';
}

// --- Settings (this browser's) -------------------------------------------------------------
const settings = Object.assign({ sound: true, speak: false, notify: false, title: true },
  JSON.parse(localStorage.getItem('tengen-settings') || '{}'));
function saveSettings() {
  localStorage.setItem('tengen-settings', JSON.stringify(settings));
}
for (const key of ['sound', 'speak', 'notify', 'title']) {
  const box = $(`#set-${key}`);
  box.checked = settings[key];
  box.addEventListener('change', async () => {
    settings[key] = box.checked;
    if (key === 'notify' && box.checked && 'Notification' in window && Notification.permission !== 'granted') {
      settings.notify = (await Notification.requestPermission()) === 'granted';
      box.checked = settings.notify;
    }
    saveSettings();
    render();
  });
}

// --- Sound: a stone's click, the beeps of the last seconds, a spoken count -----------------
let audio = null;
function tone(freq, seconds, gain) {
  if (!settings.sound) return;
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') audio.resume();
    const osc = audio.createOscillator(), amp = audio.createGain(), at = audio.currentTime;
    osc.frequency.value = freq;
    amp.gain.setValueAtTime(gain, at);
    amp.gain.exponentialRampToValueAtTime(0.0001, at + seconds);
    osc.connect(amp).connect(audio.destination);
    osc.start(at);
    osc.stop(at + seconds);
  } catch (e) {
    // No audio here: the page works without it.
  }
}
const stoneSound = () => tone(180, 0.07, 0.3);
function countDown(seconds) {
  $('#countdown').textContent = String(seconds);
  tone(seconds <= 3 ? 1320 : 880, 0.12, 0.15);
  if (settings.speak && 'speechSynthesis' in window) {
    const u = new SpeechSynthesisUtterance(String(seconds));
    u.lang = lang === 'zh' ? 'zh-CN' : 'en-US';
    speechSynthesis.speak(u);
  }
}

// --- Routing ------------------------------------------------------------------------------
function show(section) {
  for (const id of ['new', 'recent', 'game']) $(`#${id}`).hidden = id !== section;
  if (section !== 'game') document.title = 'tengen 天元';
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
    rules: f.get('rules'),
    handicap: Number(f.get('handicap')),
    placement: f.get('placement'),
    rang_xian: f.get('rang_xian') === 'on',
    color: f.get('color'),
    guess: f.get('guess'),
  };
  if (f.get('komi') !== '') body.komi = Number(f.get('komi'));
  const name = f.get('name').trim();
  if (name) {
    body.name = name;
    localStorage.setItem('tengen-name', name);
  }
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
    await createGame(body);
  } catch (e) {
    formError('#new-error', refusal(e));
    show('new');
  }
});
$('#new-form input[name=name]').value = localStorage.getItem('tengen-name') || '';

// Creates a game, takes its seat and opens it.
async function createGame(body) {
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
}

// What each level means (GET /api/levels), under the level field.
let levels = [];
async function loadLevels() {
  try {
    levels = await api('GET', '/api/levels');
  } catch (e) {
    levels = [];
  }
  showLevel();
}
function showLevel() {
  const level = Number($('#new-form input[name=level]').value);
  $('#level-info').textContent = t('level_info', levels.find((l) => l.level === level));
}
$('#new-form input[name=level]').addEventListener('input', showLevel);

// The line on the Chinese rules' defaults stands only while they are chosen.
function showRulesLine() {
  const f = $('#new-form');
  f.querySelector('.rules-line').hidden = f.querySelector('[name=rules]').value !== 'chinese' || f.querySelector('[name=komi]').value !== '';
}
$('#new-form [name=rules]').addEventListener('change', showRulesLine);
$('#new-form [name=komi]').addEventListener('input', showRulesLine);

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
  localStorage.setItem(`tengen-seat-${id}`, JSON.stringify({ at: Date.now(), ...s }));
}

// --- Recent games and upload --------------------------------------------------------------
// The seats this browser holds, newest first.
function mySeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const id = key.startsWith('tengen-seat-') && key.slice('tengen-seat-'.length);
    if (id) seats.push({ id, ...JSON.parse(localStorage.getItem(key)) });
  }
  return seats.sort((a, b) => (b.at ?? 0) - (a.at ?? 0));
}

// A line of a list of games: its link (the summary of GET /api/games, or the id alone) and
// the seat this browser holds.
function gameLine(g, s) {
  const li = document.createElement('li');
  const a = document.createElement('a');
  a.href = `/games/${g.id}`;
  const names = `${g.black || t('black')} – ${g.white || t('white')}`;
  a.textContent = g.size === undefined ? g.id
    : `${names}, ${g.size}×${g.size}, ${g.moves} ${t(g.moves === 1 ? 'move' : 'moves')}${g.result ? ', ' + g.result : ''}`;
  li.append(a);
  if (s) li.append(` (${t('my_seat', colorName(s.color))})`);
  return li;
}

async function loadRecent() {
  const list = $('#recent-list'), mine = $('#my-list');
  list.textContent = '';
  mine.textContent = '';
  const recent = await api('GET', '/api/games?limit=50');
  const seats = new Map(mySeats().map((s) => [s.id, s]));
  for (const g of recent) list.append(gameLine(g, seats.get(g.id)));
  // My games: those in the list first, then the others this browser holds a seat of.
  const shown = new Set();
  for (const g of recent.filter((g) => seats.has(g.id))) {
    mine.append(gameLine(g, seats.get(g.id)));
    shown.add(g.id);
  }
  for (const s of [...seats.values()].filter((s) => !shown.has(s.id)).slice(0, 20)) mine.append(gameLine({ id: s.id }, s));
  $('#my-games').hidden = $('#all-games').hidden = seats.size === 0;
}

$('#upload').addEventListener('change', async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  formError('#upload-error', '');
  try {
    const game = await api('POST', '/api/games/import', await file.arrayBuffer(), true);
    // What the reader recovered or dropped is said on the game's page.
    if (game.warnings?.length) sessionStorage.setItem(`tengen-import-${game.id}`, t('import_warnings', file.name, game.warnings));
    go(`/games/${game.id}`);
  } catch (e) {
    formError('#upload-error', `${file.name}: ${refusal(e)}`);
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
  say(sessionStorage.getItem(`tengen-nigiri-${id}`) || sessionStorage.getItem(`tengen-import-${id}`) || '');
  showSeatLinks();
  study = { id, review: null };
  line = null;
  tree = new Map();
  stopAnalysis();
  record = { id: null, info: null };
  try {
    update(await api('GET', `/api/games/${id}`));
  } catch (e) {
    say(refusal(e), true);
    return;
  }
  listen();
  loadReview(id);
  loadRecord(id);
}

function copyRow(label, url, cls) {
  const row = document.createElement('div');
  row.className = 'link-row';
  const name = document.createElement('span');
  name.textContent = `${label}${lang === 'zh' ? '：' : ': '}`;
  const input = document.createElement('input');
  input.readOnly = true;
  input.value = url;
  input.className = cls;
  input.addEventListener('focus', () => input.select());
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'copy';
  button.textContent = t('copy');
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
function showSeatLinks() {
  const box = $('#seats');
  const friend = sessionStorage.getItem(`tengen-friend-${gameId}`);
  box.textContent = '';
  const summary = document.createElement('summary');
  summary.dataset.t = 'share';
  summary.textContent = t('share');
  box.append(summary);
  if (friend && seat) {
    const p = document.createElement('p');
    p.textContent = t('seat_links');
    box.append(p, copyRow(t('your_link'), link(gameId, seat.token, seat.color), 'seat-link'),
      copyRow(t('friend_link'), friend, 'seat-link'));
  }
  box.append(copyRow(t('spectator_link'), `${location.origin}/games/${gameId}`, 'watch-link'));
  box.open = Boolean(friend);
}

// The friend has joined once the friend's seat has moved or named itself.
function foldSeatsOnceJoined(v) {
  const box = $('#seats');
  if (!box.open || !seat || !sessionStorage.getItem(`tengen-friend-${gameId}`)) return;
  const other = seat.color === 'black' ? 'white' : 'black';
  if (v.history.some((m) => m.color === other) || (other === 'black' ? v.black_name : v.white_name)) box.open = false;
}

let online = true;
// A WebSocket of this server (`path` from `/api/`).
const socketTo = (path) => new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`);

function listen() {
  const id = gameId;
  socket = socketTo(`/api/games/${id}/live`);
  socket.onopen = () => {
    if (id !== gameId) return;
    // What changed while the connection was down; the clocks run again from that view.
    api('GET', `/api/games/${id}`).then((v) => {
      if (id !== gameId) return;
      setOnline(true);
      update(v);
    }).catch(() => setOnline(true));
  };
  socket.onmessage = (event) => {
    if (id !== gameId) return;
    const data = JSON.parse(event.data);
    // The socket carries the game's views and, while a review of it runs, the review's
    // progress ({"review": …}), which is not a view.
    if (data.review) reviewChanged(data.review);
    else update(data);
  };
  socket.onclose = () => {
    // Reconnect while the game is open (a server restart, a network hiccup).
    if (id === gameId && !$('#game').hidden) {
      setOnline(false);
      setTimeout(() => id === gameId && listen(), 1000);
    }
  };
}

// Offline, the clocks stop on the page (what the server charges is not known): the reading
// at the moment the connection went is shown, greyed, under the notice.
let offlineSince = 0;
const pageNow = () => (online ? performance.now() : offlineSince);
function setOnline(value) {
  if (online === value) return;
  if (!value) offlineSince = performance.now();
  online = value;
  $('#connection').hidden = value;
  render();
}

function update(v) {
  // Views arrive by two roads (the answer to a request, the WebSocket) in either order: an
  // older one never replaces a newer one.
  if (view && view.id === v.id && v.events < view.events) return;
  const before = view?.id === v.id ? view : null;
  const wasMyTurn = myTurnLive();
  view = v;
  receivedAt = performance.now();
  if (before && before.moves !== v.moves && !(before.moves < v.moves && v.history.at(-1)?.color === seat?.color)) say('');
  if (before && v.moves > before.moves && v.history.at(-1)?.move !== 'pass') stoneSound();
  if (seat && v.undo_refused === seat.color && before?.undo_refused !== seat.color) say(t('undo_refused'), false);
  if (reviewAt === null) shown = v;
  foldSeatsOnceJoined(v);
  if (before && !wasMyTurn && myTurnLive()) notifyTurn();
  render();
}

// A notification when the player's move comes while the page is out of sight.
function notifyTurn() {
  if (!settings.notify || !('Notification' in window) || Notification.permission !== 'granted') return;
  if (!document.hidden && document.hasFocus()) return;
  try {
    new Notification('tengen', { body: t('your_move_title'), tag: `tengen-${gameId}` });
  } catch (e) {
    // Some browsers allow notifications from a service worker only.
  }
}

// The position asked last: answers to earlier requests that come after it are dropped (keys
// pressed quickly ask several positions at once).
let asked = 0;

async function review(n) {
  if (!view) return;
  // A refusal said about another position does not stand here.
  if (line || reviewAt !== n) say('');
  line = null;
  n = Math.max(0, Math.min(view.moves, n));
  reviewAt = n === view.moves ? null : n;
  const ask = ++asked;
  const position = reviewAt === null ? view : await api('GET', `/api/games/${gameId}?at=${n}`);
  if (ask !== asked) return;
  shown = position;
  render();
}

// The player's turn in the live game (whatever move is being reviewed).
const myTurnLive = () =>
  Boolean(seat && view && !view.imported && !view.undo_request &&
    ((view.phase === 'playing' && view.to_move === seat.color) || (view.phase === 'placing' && seat.color === 'black')));
const myTurn = () => reviewAt === null && myTurnLive();

async function act(path, body) {
  say('');
  try {
    update(await api('POST', `/api/games/${gameId}/${path}`, body));
  } catch (e) {
    // Out of turn: whose turn it is, said plainly.
    if (e.reason === 'not_your_turn' && e.color) say(t('turn_of', colorName(e.color)), true, false);
    else say(refusal(e), true);
  }
}

function playAt(vertex) {
  if (!view) return;
  // A finished or imported game: a click plays a variation from the position shown.
  if (studyOpen()) return playVariation(vertex);
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
  if (!seat) return say(t('watching'));
  if (view.undo_request) return say(t(view.undo_request === seat.color ? 'undo_waits_mine' : 'undo_waits_yours'));
  // A click while reviewing plays on the live board when it is the player's move, else
  // goes back to the live position.
  if (reviewAt !== null) {
    if (!myTurnLive()) return review(view.moves);
    reviewAt = null;
    shown = view;
    asked++;
  }
  if (!myTurn()) return say(view.phase === 'playing' ? t('to_move', colorName(view.to_move)) : t(view.phase), true);
  return act('move', { move: vertex, number: view.moves + 1 });
}

$('#typed').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('#move-input');
  const text = input.value.trim();
  input.value = '';
  if (!text || !view) return;
  if (/^pass$/i.test(text)) return act('move', { move: 'pass', number: view.moves + 1 });
  playAt(text.toUpperCase());
});
$('#pass').addEventListener('click', () => view && act('move', { move: 'pass', number: view.moves + 1 }));
$('#review-start').addEventListener('click', async () => {
  const id = gameId;
  try {
    const r = await api('POST', `/api/games/${id}/review`);
    if (gameId === id) reviewChanged(r);
  } catch (e) {
    say(refusal(e), true);
  }
});
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
$('#prev').addEventListener('click', () => (line ? goTo(line.at, line.moves.slice(0, -1)) : review((reviewAt ?? view.moves) - 1)));
$('#next').addEventListener('click', () => {
  const next = line && firstChild(line.at, line.moves);
  if (line) return next ? goTo(line.at, [...line.moves, next]) : undefined;
  return review((reviewAt ?? view.moves) + 1);
});
$('#last').addEventListener('click', () => review(view.moves));
$('#step').addEventListener('input', (event) => review(Number(event.target.value)));
document.addEventListener('keydown', (event) => {
  if ($('#game').hidden || !view) return;
  // The territory key works from the board and the study's check boxes, not while typing.
  const typing = event.target.tagName === 'INPUT' && !['checkbox', 'button'].includes(event.target.type);
  if (studyOpen() && !typing && (event.key === 't' || event.key === 'T') && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    return setTerritory(!territory);
  }
  if (event.target.tagName === 'INPUT') return;
  if (line && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
    event.preventDefault();
    if (event.key === 'ArrowLeft') return goTo(line.at, line.moves.slice(0, -1));
    const next = firstChild(line.at, line.moves);
    return next ? goTo(line.at, [...line.moves, next]) : undefined;
  }
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
const DX = 22.5, DY = 24, MARGIN = 30, STONE = 21.8;
const SVG = 'http://www.w3.org/2000/svg';

// Board coordinates of column `c` and row `r` (from the bottom) on an `n`-line board.
const boardAxes = (n) => [(c) => MARGIN + c * DX, (r) => MARGIN + (n - 1 - r) * DY];
// Column and row (from 0, the row from the bottom) of a vertex such as `D4`.
const vertexAt = (vertex) => [LETTERS.indexOf(vertex[0]), Number(vertex.slice(1)) - 1];

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
  const [x, y] = boardAxes(n);
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
  // Territory (counting and counted games).
  if (v.score) {
    v.score.owners.forEach((row, i) => [...row].forEach((o, c) => {
      const r = n - 1 - i;
      if (o !== '.' && v.board[i][c] === '.') {
        el('rect', { x: x(c) - 4, y: y(r) - 4, width: 8, height: 8, class: `area ${o === 'X' ? 'black' : 'white'}` }, svg);
      }
    }));
  }
  // A variation's moves are numbered from 1 (all moves with the numbers on).
  const numbers = $('#numbers').checked ? moveNumbers(v) : line ? moveNumbers(v, line.at) : new Map();
  const last = v.history.at(-1);
  const dead = new Set(v.dead);
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
  // The computer's judgement in the counting phase, whatever the marking is now.
  if (v.phase === 'counting' && v.computer && reviewAt === null) {
    for (const vertex of v.proposal || []) {
      const [c, r] = vertexAt(vertex);
      const [cx, cy] = [x(c) + 5, y(r) - 5];
      el('path', { d: `M${cx} ${cy - 3.5}L${cx + 3.5} ${cy + 2.5}L${cx - 3.5} ${cy + 2.5}Z`, class: 'judged-dead', 'data-vertex': vertex }, svg);
    }
  }
  // The ko point the side to move may not retake at once (live position only).
  if (v.ko && reviewAt === null && v.phase === 'playing') {
    const [c, r] = vertexAt(v.ko);
    el('rect', { x: x(c) - 6, y: y(r) - 6, width: 12, height: 12, class: 'ko', 'data-vertex': v.ko }, svg);
  }
  for (const vertex of placing) {
    const [c, r] = vertexAt(vertex);
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
        const empty = v.board[n - 1 - r][c] === '.' && !(v.ko === vertex && reviewAt === null);
        shadow.setAttribute('cx', x(c));
        shadow.setAttribute('cy', y(r));
        shadow.setAttribute('visibility', empty && myTurn() ? 'visible' : 'hidden');
      });
    }
  }
  svg.addEventListener('mouseleave', () => shadow.setAttribute('visibility', 'hidden'));
  drawBestLine(svg, v, x, y);
  el('g', { id: 'analysis-layer' }, svg);
  drawAnalysis();
  renderPanel();
  renderCommentary();
  renderStudy();
  renderVariations();
  renderRecord();
  syncAnalysis();
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
  const entry = terms.id === gameId && !line ? terms.list[n - 1] : null;
  const judged = judgedMove();
  if (judged) {
    const p = document.createElement('p');
    p.className = 'judged';
    const names = (lang === 'zh' ? judged.judgement : judged.judgement_en).join(lang === 'zh' ? '、' : ', ');
    p.textContent = `${t('judged', n, colorName(judged.color === 'B' ? 'black' : 'white'), moveText(judged.move))}: ` +
      `${names ? `${names} · ` : ''}${t('lost', judged.loss.toFixed(1))} · ${t('best_was', moveText(judged.best))} · ` +
      t('winrate_line', Math.round(100 * judged.winrate_black), ...leadText(judged.score_lead_black));
    box.append(p);
  }
  if (!entry || !entry.terms.length) return;
  const head = document.createElement('h3');
  head.textContent = `${t('commentary')} · ${n}. ${colorName(entry.color)} ${moveText(entry.move)}`;
  box.append(head);
  const list = document.createElement('ul');
  list.className = 'terms';
  // The most specific names first; the rest on demand.
  const folded = entry.terms.length > NAMES_SHOWN && !namesOpen;
  for (const term of folded ? entry.terms.slice(0, NAMES_SHOWN) : entry.terms) {
    const li = document.createElement('li');
    li.className = `term ${term.kind}`;
    li.innerHTML = '<b lang="zh"></b> <span class="pinyin"></span> <span class="en"></span>';
    li.querySelector('b').textContent = term.zh;
    li.querySelector('.pinyin').textContent = term.pinyin;
    li.querySelector('.en').textContent = term.en;
    list.append(li);
  }
  box.append(list);
  if (entry.terms.length > NAMES_SHOWN) {
    const more = document.createElement('button');
    more.type = 'button';
    more.id = 'more-names';
    more.className = 'link';
    more.textContent = namesOpen ? t('fewer_names') : t('more_names', entry.terms.length - NAMES_SHOWN);
    more.addEventListener('click', () => { namesOpen = !namesOpen; renderCommentary(); });
    box.append(more);
  }
}

// Names of a move shown before "more".
const NAMES_SHOWN = 3;
let namesOpen = false;

// --- Study: the computer's review (POST/GET /api/games/{id}/review, progress on the socket) --
async function loadReview(id) {
  try {
    const r = await api('GET', `/api/games/${id}/review`);
    // None asked yet: the button offers one.
    if (gameId === id && r.state !== 'none') reviewChanged(r);
  } catch (e) {
    // The review is a help: a failure to read it leaves the button.
  }
}

function reviewChanged(r) {
  if (r.game !== gameId) return;
  const before = study.review;
  study = { id: gameId, review: r };
  // The best line on the board and the judgement come with the moves judged.
  if (!before || before.moves.length !== r.moves.length || before.state !== r.state) render();
  else renderStudy();
}

const studyOpen = () => Boolean(view && (view.imported || view.phase === 'ended'));
// The judged move on the board: the last move of the position shown.
const judgedMove = () => {
  if (line) return undefined;
  const n = reviewAt ?? view?.moves ?? 0;
  return study.id === gameId && study.review ? study.review.moves[n - 1] : undefined;
};

function renderStudy() {
  const box = $('#study');
  box.hidden = !studyOpen();
  if (box.hidden) return;
  const r = study.id === gameId ? study.review : null;
  const start = $('#review-start');
  start.hidden = Boolean(r && r.state !== 'failed');
  start.textContent = t(r ? 'review_again' : 'review_start');
  const progress = $('#review-progress');
  progress.textContent = !r ? '' : r.state === 'queued' ? t('review_queued')
    : r.state === 'running' ? t('review_running', Math.round(100 * r.progress))
      : r.state === 'failed' ? t('review_failed', r.error ?? '') : '';
  renderGraph(r);
  renderMistakes(r);
}

function renderGraph(r) {
  const svg = $('#review-graph'), legend = $('#review-legend');
  const moves = r ? r.moves : [];
  // An SVG element has no `hidden` property: the attribute it is.
  svg.toggleAttribute('hidden', moves.length === 0);
  legend.hidden = moves.length === 0;
  if (legend.hidden) return;
  legend.textContent = t('review_legend');
  const total = Math.max(view.moves, moves.length, 1), w = 300, h = 110, pad = 6;
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
  const at = reviewAt ?? view.moves;
  el('line', { x1: x(at), y1: pad, x2: x(at), y2: h - pad, class: 'graph-now', 'data-move': at }, svg);
  const moveAt = (event) => {
    const box = svg.getBoundingClientRect();
    const n = Math.round(((event.clientX - box.left) / box.width * w - pad) / (w - 2 * pad) * total);
    review(Math.max(0, Math.min(view.moves, n)));
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
    const li = document.createElement('li');
    li.textContent = t('mistakes_none');
    list.append(li);
    return;
  }
  for (const n of r.mistakes) {
    const m = r.moves[n - 1];
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'mistake';
    b.dataset.move = n;
    const judgement = (lang === 'zh' ? m.judgement : m.judgement_en).join(lang === 'zh' ? '、' : ', ');
    b.textContent = `${n}. ${colorName(m.color === 'B' ? 'black' : 'white')} ${moveText(m.move)} — ${t('lost', m.loss.toFixed(1))}` +
      `${judgement ? ` · ${judgement}` : ''} · ${t('best_was', m.best)}`;
    b.addEventListener('click', () => review(n));
    li.append(b);
    list.append(li);
  }
}

// The best move instead of the judged one and its line, as numbered translucent stones.
function drawBestLine(svg, v, x, y) {
  const m = judgedMove();
  if (!m || m.best === m.move || m.best === 'pass') return;
  const toMove = m.color === 'B' ? 'black' : 'white', other = toMove === 'black' ? 'white' : 'black';
  const taken = new Set();
  m.pv.slice(0, 6).forEach((vertex, i) => {
    if (vertex === 'pass' || taken.has(vertex)) return;
    const [c, r] = vertexAt(vertex);
    // Points the board or the line already holds are left as they are.
    if (c < 0 || v.board[v.size - 1 - r][c] !== '.' && vertex !== m.move) return;
    taken.add(vertex);
    const color = i % 2 === 0 ? toMove : other;
    el('circle', { cx: x(c), cy: y(r), r: STONE / 2, class: `stone ${color} pv-stone`, 'data-vertex': vertex }, svg);
    el('text', { x: x(c), y: y(r) + 3, class: `number on-${color} pv-number` }, svg).textContent = i + 1;
  });
}

// --- Variations: a click on a finished or imported game's board plays a line from the
// position shown (GET /api/games/{id}?at=N&then=…, checked by the rules); the lines form a
// tree (a Map of their starting move number to nodes whose children are keyed by move).
let line = null; // the variation on the board: { at, moves }, or null for the main line
let tree = new Map();

function treeNode(at, moves, create) {
  if (!tree.has(at)) {
    if (!create) return null;
    tree.set(at, { children: new Map() });
  }
  let node = tree.get(at);
  for (const m of moves) {
    if (!node.children.has(m)) {
      if (!create) return null;
      node.children.set(m, { children: new Map() });
    }
    node = node.children.get(m);
  }
  return node;
}

function firstChild(at, moves) {
  const node = treeNode(at, moves, false);
  return node && node.children.size ? node.children.keys().next().value : null;
}

// Every line of the tree from its start to a leaf, for the SGF.
function treeLines() {
  const out = [];
  for (const [at, root] of tree) {
    const stack = [[root, []]];
    while (stack.length) {
      const [node, moves] = stack.pop();
      if (!node.children.size && moves.length) out.push({ at, moves });
      for (const [m, child] of node.children) stack.push([child, [...moves, m]]);
    }
  }
  return out;
}

async function goTo(at, moves) {
  if (!moves.length) return review(at);
  const id = gameId, ask = ++asked;
  try {
    const v = await api('GET', `/api/games/${id}?at=${at}&then=${encodeURIComponent(moves.join(','))}`);
    if (id !== gameId || ask !== asked) return;
    treeNode(at, moves, true);
    line = { at, moves };
    reviewAt = at === view.moves ? null : at;
    shown = v;
    say('');
    render();
  } catch (e) {
    say(refusal(e), true);
  }
}

function playVariation(vertex) {
  const base = line ?? { at: reviewAt ?? view.moves, moves: [] };
  return goTo(base.at, [...base.moves, vertex]);
}

function renderVariations() {
  const box = $('#variations');
  box.textContent = '';
  box.hidden = !view || !studyOpen();
  if (box.hidden) return;
  const hint = document.createElement('p');
  hint.className = 'hint';
  hint.textContent = line ? t('in_variation', line.moves.length, line.at) : t('click_to_vary');
  box.append(hint);
  if (!tree.size) return;
  const head = document.createElement('h3');
  head.textContent = t('variations');
  box.append(head);
  const back = document.createElement('button');
  back.type = 'button';
  back.id = 'main-line';
  back.textContent = t('main_line');
  back.disabled = !line;
  back.addEventListener('click', () => review(line ? line.at : reviewAt ?? view.moves));
  box.append(back);
  const list = document.createElement('ul');
  list.className = 'variation-tree';
  for (const [at, root] of [...tree].sort((a, b) => a[0] - b[0])) {
    const li = document.createElement('li');
    const from = document.createElement('span');
    from.className = 'from';
    from.textContent = t('from_move', at);
    li.append(from);
    branches(li, at, [], root);
    list.append(li);
  }
  box.append(list);
}

// The children of `node`: a chain of single moves on one row, a nested list where it forks.
function branches(parent, at, prefix, node) {
  const ul = document.createElement('ul');
  for (const [m, child] of node.children) {
    const li = document.createElement('li');
    let moves = [...prefix, m], current = child;
    li.append(variationButton(at, moves));
    while (current.children.size === 1) {
      const [next, grand] = current.children.entries().next().value;
      moves = [...moves, next];
      li.append(variationButton(at, moves));
      current = grand;
    }
    if (current.children.size > 1) branches(li, at, moves, current);
    ul.append(li);
  }
  parent.append(ul);
}

function variationButton(at, moves) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'variation-move';
  const here = line && line.at === at && line.moves.join(',') === moves.join(',');
  if (here) b.classList.add('current');
  b.dataset.line = `${at}:${moves.join(',')}`;
  b.textContent = `${at + moves.length}.${moves.at(-1)}`;
  b.addEventListener('click', () => goTo(at, moves));
  return b;
}

// The SGF, with the variations played here as branches of its tree.
$('#sgf').addEventListener('click', async (event) => {
  if (!tree.size) return;
  event.preventDefault();
  const id = gameId;
  try {
    const response = await fetch(`/api/games/${id}/sgf`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ variations: treeLines() }),
    });
    if (!response.ok) throw new Error((await response.json()).detail);
    const url = URL.createObjectURL(await response.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = `tengen-${id}.sgf`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (e) {
    say(refusal(e), true);
  }
});

// --- Live analysis (POST /api/analysis, snapshots on /api/analysis/{id}/live): candidate
// moves as marks on the board, the ownership as a territory overlay with a score estimate.
let analysis = { id: null, key: null, socket: null, snapshot: null, wanted: false };
let territory = false;
let analysisTimer = null;
const ANALYSIS_SECONDS = 30, TERRITORY_SECONDS = 5;

const positionKey = () => (line ? `${gameId}:${line.at}:${line.moves.join(',')}` : `${gameId}:${reviewAt ?? view?.moves}`);

async function startAnalysis(seconds) {
  stopAnalysis(true);
  const id = gameId, key = positionKey();
  const body = { game: id, at: line ? line.at : (reviewAt ?? view.moves), seconds };
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
  if (id !== gameId || key !== positionKey()) {
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
function stopAnalysis(keepWanted) {
  if (analysis.id && analysis.snapshot && !analysis.snapshot.done) {
    api('POST', `/api/analysis/${analysis.id}/stop`).catch(() => {});
  }
  if (analysis.socket) analysis.socket.close();
  analysis = { id: null, key: null, socket: null, snapshot: null, wanted: keepWanted ? analysis.wanted : false };
  if (!keepWanted) clearTimeout(analysisTimer);
}

// After a change of the position shown: the analysis asked for follows it (a moment later,
// so that stepping through moves does not start a search a step).
function syncAnalysis() {
  if (!view || !studyOpen()) return;
  const key = positionKey();
  const wanted = analysis.wanted || territory;
  if (!wanted || analysis.key === key) return;
  clearTimeout(analysisTimer);
  analysisTimer = setTimeout(() => {
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

$('#analyse').addEventListener('click', () => {
  const running = analysis.wanted && analysis.snapshot && !analysis.snapshot.done;
  if (running) {
    stopAnalysis();
    drawAnalysis();
    return;
  }
  analysis.wanted = true;
  startAnalysis(ANALYSIS_SECONDS);
});
$('#territory').addEventListener('change', (event) => setTerritory(event.target.checked));

const currentSnapshot = () => (analysis.key === positionKey() ? analysis.snapshot : null);

function drawAnalysis() {
  const layer = $('#analysis-layer');
  if (!layer || !shown) return;
  layer.textContent = '';
  const s = currentSnapshot(), v = shown, n = v.size;
  const [x, y] = boardAxes(n);
  if (s && territory && s.ownership.length === n) {
    s.ownership.forEach((row, i) => row.forEach((o, c) => {
      const stone = v.board[i][c];
      const owner = o > 0 ? 'black' : 'white';
      // Empty points and stones that lean the other way (dead), by how sure the search is.
      if (Math.abs(o) < 0.2 || (stone === 'X' && o > 0) || (stone === 'O' && o < 0)) return;
      const side = 4 + 8 * Math.abs(o);
      el('rect', { x: x(c) - side / 2, y: y(n - 1 - i) - side / 2, width: side, height: side,
        class: `owner ${owner}`, 'fill-opacity': (0.25 + 0.55 * Math.abs(o)).toFixed(2) }, layer);
    }));
  }
  if (s && analysis.wanted) {
    const shownMarks = s.candidates.filter((c) => c.move !== 'pass').slice(0, 8);
    const best = shownMarks[0];
    shownMarks.forEach((c, i) => {
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
  renderAnalysisPanel();
}

function renderAnalysisPanel() {
  const running = analysis.wanted && analysis.snapshot && !analysis.snapshot.done;
  $('#analyse').textContent = t(running ? 'analyse_stop' : 'analyse');
  $('#analyse').classList.toggle('running', Boolean(running));
  const s = currentSnapshot();
  const info = $('#analysis-info');
  const best = s?.candidates[0];
  info.textContent = analysis.wanted && best
    ? `${t('analysis_line', best.move, (100 * best.winrate).toFixed(1), best.score_lead.toFixed(1), best.visits)} · ${best.pv.slice(0, 8).join(' ')}${s.done ? ` — ${t('analysis_done')}` : ''}`
    : '';
  const estimate = $('#estimate');
  if (territory && s && s.visits > 0) {
    const lead = s.score_lead_black, w = Math.round(100 * s.winrate_black);
    estimate.textContent = Math.abs(lead) < 0.25 ? t('estimate_even')
      : t('estimate', colorName(lead > 0 ? 'black' : 'white'), Math.abs(lead).toFixed(1), w);
  } else estimate.textContent = '';
}

// --- The record: an imported game's information and comments (GET /api/games/{id}/info) ---
let record = { id: null, info: null };

async function loadRecord(id) {
  try {
    const info = await api('GET', `/api/games/${id}/info`);
    if (gameId === id) {
      record = { id, info };
      render();
    }
  } catch (e) {
    // The information is a help: without it the board still shows the game.
  }
}

function renderRecord() {
  const box = $('#record-info'), comment = $('#comment');
  const info = record.id === gameId ? record.info : null;
  box.hidden = !info || !info.imported;
  box.textContent = '';
  if (info && info.imported) {
    const player = (name, rank) => (name ? `${name}${rank ? ` (${rank})` : ''}` : '');
    const players = [player(info.black, info.black_rank), player(info.white, info.white_rank)];
    const parts = [
      players.some(Boolean) ? `${colorName('black')} ${players[0] || '?'} – ${colorName('white')} ${players[1] || '?'}` : '',
      info.date, [info.event, info.round].filter(Boolean).join(' '),
      info.result ? `${t('result_recorded')} ${info.result}` : '',
      info.rules ? `RU ${info.rules}` : '', `komi ${info.komi}`,
    ].filter(Boolean);
    const head = document.createElement('h3');
    head.textContent = t('record');
    const p = document.createElement('p');
    p.textContent = parts.join(' · ');
    box.append(head, p);
  }
  const n = reviewAt ?? view?.moves ?? 0;
  const here = info && !line ? info.comments.filter((c) => c.number === n) : [];
  comment.hidden = !here.length;
  comment.textContent = here.map((c) => c.text).join('\n\n');
}

// A board of one's own to study on: an empty record imported.
$('#analysis-board').addEventListener('click', async () => {
  const size = Number($('#analysis-size').value) || 19;
  try {
    const sgf = `(;GM[1]FF[4]CA[UTF-8]SZ[${size}]KM[7.5]RU[Chinese])`;
    const v = await api('POST', '/api/games/import', sgf, true);
    go(`/games/${v.id}`);
  } catch (e) {
    formError('#upload-error', refusal(e));
  }
});

function moveNumbers(v, after = 0) {
  const numbers = new Map();
  v.history.forEach((m, i) => {
    if (m.move !== 'pass' && i >= after) numbers.set(m.move, i + 1 - after);
  });
  return numbers;
}

// A clock as it reads now, counted down on the page from the view's data: main time, then
// the current period and the periods (or the stones) left.
function clockNow(side) {
  const c = view.clocks?.[side];
  if (!c) return null;
  const spent = view.clock_running === side ? pageNow() - receivedAt : 0;
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
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

function clockText(side) {
  const c = clockNow(side);
  if (!c) return '';
  const kind = view.time.kind;
  if (kind === 'byoyomi') {
    if (c.main) return `${clockDigits(c.ms)} +${c.periods}×${view.time.period}s`;
    return `${clockDigits(c.ms)} ${c.last ? t('last_period') : `×${c.periods} ${t('periods_left')}`}`;
  }
  if (kind === 'canadian') {
    if (c.main) return `${clockDigits(c.ms)} +${view.time.stones}/${view.time.period}s`;
    return `${clockDigits(c.ms)} / ${c.stones} ${t('stones_left')}`;
  }
  return clockDigits(c.ms);
}

// The last ten seconds of the player's own running clock (a period, or the main time where
// nothing follows it) are counted: beeps, the count in #countdown, spoken if asked for.
let counted = null;
function countTheLastSeconds() {
  const side = view?.clock_running;
  if (!side || !seat || seat.color !== side || !online) return;
  const c = clockNow(side);
  const last = view.time.kind === 'absolute' || view.time.kind === 'fischer' || !c.main;
  const s = Math.ceil(c.ms / 1000);
  if (!last || s > 10 || s < 1) return;
  const key = `${view.events}/${c.periods ?? ''}/${c.stones ?? ''}/${s}`;
  if (counted === key) return;
  counted = key;
  countDown(s);
}

// The count in stones, said in the page's language with komi and the handicap's return.
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

function resultText(result) {
  const m = /^([BW])\+(.+)$/.exec(result ?? '');
  if (!m) return t('draw');
  const winner = colorName(m[1] === 'B' ? 'black' : 'white');
  if (m[2] === 'R') return t('wins_resign', winner);
  if (m[2] === 'T') return t('wins_time', winner);
  return t('wins_by', winner, t('stones', stonesText(Number(m[2]) / 2)), result);
}

function playerName(v, side) {
  if (v.computer === side && v.opponent.computer) return t('computer_name', v.opponent.computer.level);
  return side === 'black' ? v.black_name : v.white_name;
}

function renderPanel() {
  const v = view, s = shown;
  const players = $('#players');
  players.textContent = '';
  for (const side of ['black', 'white']) {
    const div = document.createElement('div');
    div.className = `player ${side}${v.phase === 'playing' && v.to_move === side ? ' to-move' : ''}`;
    div.dataset.side = side;
    const name = playerName(v, side);
    div.innerHTML = '<span class="dot"></span><span class="name"></span><span class="caps"></span><span class="clock"></span>';
    const label = div.querySelector('.name');
    label.textContent = `${colorName(side)}${name ? ` · ${name}` : ''}${seat?.color === side && !v.imported ? t('you_mark') : ''}`;
    label.title = label.textContent;
    const clock = div.querySelector('.clock');
    clock.textContent = clockText(side);
    const now = v.clocks && clockNow(side);
    const overtime = now && now.main === undefined && ['byoyomi', 'canadian'].includes(v.time.kind);
    div.querySelector('.caps').textContent = `${t('captures')} ${s.captures[side]}${overtime ? ` · ${t('overtime')}` : ''}`;
    clock.classList.toggle('last-period', Boolean(now?.last));
    clock.classList.toggle('offline', !online);
    players.append(div);
  }
  const rules = document.createElement('p');
  rules.className = 'rules-line';
  const recorded = v.imported && record.id === gameId && !/^(chinese|cn|zh)$/i.test(record.info?.rules ?? 'chinese')
    ? record.info.rules : null;
  const preset = recorded ? `RU[${recorded}] · ${t('replayed_chinese')}`
    : v.imported && record.id !== gameId ? '' : v.rules === 'chinese' ? '中国规则' : t(`rules_${v.rules}`);
  rules.textContent = [preset, `${v.komi_zh}${lang === 'en' ? ` (komi ${v.komi})` : ''}`,
    v.handicap ? `${t('handicap')} ${v.handicap}` : ''].filter(Boolean).join(' · ');
  players.append(rules);
  let status;
  if (v.imported) status = t('imported');
  else if (v.phase === 'ended') {
    status = `${t('ended')}${lang === 'zh' ? '：' : ': '}${resultText(v.result)}${lang === 'en' ? ` · ${v.result_zh}` : ''}`;
  }
  else if (v.phase === 'counting') status = v.proposed ? t('counting') : t('judging');
  else if (v.phase === 'placing') status = `${t('placing')} (${placing.size} / ${v.handicap})`;
  else if (v.undo_request) status = t('undo_asked', colorName(v.undo_request));
  else if (myTurnLive()) status = t('your_turn');
  else if (v.computer === v.to_move) status = t('thinking');
  else status = t('to_move', colorName(v.to_move));
  $('#status').textContent = status;
  document.title = settings.title && myTurnLive() && v.phase === 'playing' ? `● ${t('your_move_title')} — tengen` : 'tengen 天元';
  $('#score').textContent = scoreText(v, s.score);
  // In English the Chinese count too, as a Chinese referee says it.
  $('#score-zh').textContent = lang === 'en' && s.score ? `${s.score.black_text} · ${s.score.white_text} — ${s.score.result_zh}` : '';
  $('#judged-dead').textContent = v.phase === 'counting' && v.computer && v.proposed ? t('judged_dead', (v.proposal || []).length) : '';
  $('#dispute').textContent = v.phase === 'counting' && v.dispute ? t('dispute', v.dispute.alive, v.dispute.dead) : '';
  const seated = Boolean(seat) && !v.imported;
  const playing = v.phase === 'playing' && reviewAt === null;
  $('#pass').hidden = !seated || !playing;
  $('#pass').disabled = !myTurn();
  $('#undo').hidden = !seated || !playing;
  $('#resign').hidden = !seated || v.phase === 'ended';
  $('#typed').hidden = !seated || !playing;
  $('#undo-accept').hidden = $('#undo-reject').hidden = !(seated && v.undo_request && v.undo_request !== seat.color);
  $('#accept').hidden = $('#resume').hidden = !(seated && v.phase === 'counting');
  $('#accept').disabled = seated && (v.accepted[seat.color] || !v.proposed);
  $('#rematch').hidden = !(seated && v.phase === 'ended');
  const nameForm = $('#name-form');
  nameForm.hidden = !seated;
  const input = $('#name-input');
  if (seated && document.activeElement !== input && !input.dataset.edited) {
    input.value = (seat.color === 'black' ? v.black_name : v.white_name) || localStorage.getItem('tengen-name') || '';
  }
  const step = $('#step');
  step.max = v.moves;
  step.value = reviewAt ?? v.moves;
  $('#step-label').textContent = t('review', reviewAt ?? v.moves, v.moves) + (line ? ` + ${line.moves.length}` : '');
  $('#sgf').href = `/api/games/${gameId}/sgf`;
}

$('#name-input').addEventListener('input', (event) => { event.target.dataset.edited = '1'; });
$('#name-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = $('#name-input'), name = input.value.trim();
  await act('name', { name });
  delete input.dataset.edited;
  if (name) localStorage.setItem('tengen-name', name);
});

// The same game again with the colours swapped (a friend gets the new seat's link).
$('#rematch').addEventListener('click', async () => {
  const v = view;
  const body = {
    size: v.size, rules: v.rules, komi: v.komi, handicap: v.handicap, placement: v.placement,
    opponent: v.opponent, time: v.time, color: seat.color === 'black' ? 'white' : 'black',
  };
  const name = seat.color === 'black' ? v.black_name : v.white_name;
  if (name) body.name = name;
  try {
    await createGame(body);
  } catch (e) {
    say(refusal(e), true);
  }
});

function applyText() {
  document.documentElement.lang = lang;
  for (const e of document.querySelectorAll('[data-t]')) e.textContent = t(e.dataset.t);
  for (const e of document.querySelectorAll('[data-tp]')) e.placeholder = t(e.dataset.tp);
  $('#level-info').textContent = t('level_info', levels.find((l) => l.level === Number($('#new-form input[name=level]').value)));
  $('#lang').textContent = lang === 'en' ? '中文' : 'English';
}

$('#lang').addEventListener('click', () => {
  lang = lang === 'en' ? 'zh' : 'en';
  localStorage.setItem('tengen-lang', lang);
  render();
  // The recent games are written in the language: again in the new one.
  if (!$('#recent').hidden) loadRecent();
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
  if (view?.clock_running && online && !$('#game').hidden) {
    renderPanel();
    countTheLastSeconds();
  }
}, 200);
route();
render();
loadLevels();
