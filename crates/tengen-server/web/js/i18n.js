// The page's two languages: the words (T), the server's refusals in Chinese, and `t`.

// A level's strength on a board size (GET /api/levels: `strengths`), its 9×9 one failing that.
const sized = (l, size) => (l.strengths ?? []).find((s) => s.size === size) ?? l;

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
    wins_forfeit: (c) => `${c} wins: the opponent left (${c === 'Black' ? 'B' : 'W'}+F)`, void_result: 'no result: aborted (Void)',
    dispute: (alive, dead) => `The computer does not agree: it judges ${[alive.length ? `${alive.join(', ')} alive` : '', dead.length ? `${dead.join(', ')} dead` : ''].filter(Boolean).join(' and ')}. Its own marking is shown (the chains in question ringed: green alive, red dead): accept it, or resume play to settle the stones on the board.`,
    level_info: (l, size) => l ? `${size}×${size}: ${sized(l, size).strength}; ${l.search === 'network' ? 'the network search' : 'the playout search'}, ${l.budget}` : '',
    study: 'Review by the computer', review_start: 'Review the game', review_again: 'Review again',
    review_queued: 'Waiting for a worker…', review_running: (p) => `Reviewing: ${p}%`, review_failed: (e) => `The review failed: ${e}`,
    review_quick: 'First look: the network glances at every position…',
    review_deep: (j, n) => `the graph is the network's first look; ${j} of ${n} moves searched and judged`,
    review_legend: 'Line: Black\'s win rate. Shade: Black\'s lead. Red: mistakes (bigger, costlier). Click or drag to go to a move.',
    mistakes_none: 'No move lost 1.5 points or more.', lost: (x) => `lost ${x} points`, best_was: (m) => `best ${m}`,
    judged: (n, c, m) => `The computer on ${n}. ${c} ${m}`, winrate_line: (b, who, lead) => `Black ${b}% · ${who} leads by ${lead}`,
    winrate_split: (b, who, lead) => `Black ${b}% · ${who} ahead by ${lead} on the count (the win rate and the lead disagree: a close position)`,
    within_noise: (x, noise) => `lost ${x} ± ${noise} points, within the search's noise`,
    lead_legend: 'Black\'s lead in points by move (above the line Black leads).',
    analyse: 'Analyse', analyse_stop: 'Stop analysis', territory: 'territory (key t)',
    analysis_line: (m, w, lead, n) => `Best ${m}: ${w}% for the side to move, ${lead < 0 ? `behind by ${-lead}` : `ahead by ${lead}`}, ${n} visits`,
    analysis_done: 'Analysis ended.', estimate: (who, by, w) => `Estimate: ${who} leads by ${by} points (Black's win rate ${w}%)`,
    estimate_even: 'Estimate: even', variations: 'Variations', main_line: 'Back to the main line', from_move: (n) => `from move ${n}:`,
    in_variation: (n, at) => `Variation: ${n} ${n === 1 ? 'move' : 'moves'} after move ${at}. Click the board to go on; ◀ takes one back.`,
    turn_of: (c) => `It is ${c}'s turn.`,
    click_to_vary: 'Click the board to play a variation from the position shown.',
    record: 'The record', replayed_chinese: 'replayed under the Chinese rules', result_recorded: 'result',
    engine_network: (name, v) => `Judged by the network ${name}, ${v} visits a position.`,
    engine_playouts: (n) => `Judged by the playout search, ${n} simulations a position.`,
    time_left: (min) => (min < 1 ? 'under a minute left' : `about ${Math.round(min)} min left`),
    review_quick: 'Quick review instead (playout search)',
    line_shown: (n, c, m, loss, best) => `Move ${n}: ${c} played ${m} (✕), losing ${loss} points; on the board, the computer's line from here, starting with ${best} (1).`,
    analysis_board: 'New analysis board', more_names: (n) => `${n} more`, fewer_names: 'fewer',
    account: 'Account', account_name: 'Name', password: 'Password (8 characters or more)', log_in: 'Log in',
    sign_up: 'Sign up', log_out: 'Log out', wrong_credentials: 'Wrong name or password.',
    account_hint: 'An account keeps your seats on every device and gives you a rank. Playing as a guest needs none.',
    rated: 'Rated (a level with a measured rank, or a friend who takes the seat logged in)', guest_mark: '(guest)', deleted_mark: '(deleted)',
    player_games: 'Games', size_col: 'Board', rank_col: 'Rank', rating_col: 'Rating', record_col: 'Won–lost',
    no_rated: 'No rated games yet.', no_player: 'No such player.', rating_graph: 'Rating after each rated game',
    in_play: 'in play', auto_handicap: 'auto (from the ranks)',
    lobby: 'Lobby', open_challenges: 'Open challenges', no_challenges: 'No open challenges: post one.',
    lobby_login: 'Log in to post or accept a challenge.', post_challenge: 'Post a challenge', rated_short: 'rated',
    free_short: 'free', handicap_auto: 'handicap from the ranks', even_game: 'even', handicap_n: (n) => `${n} stones`,
    colour_rule: 'Colours', color_auto: 'weaker takes Black', color_nigiri: 'nigiri', color_black: 'challenger Black',
    color_white: 'challenger White', ranks: 'Ranks', challenge_to: 'To (a player; empty: anyone)', post: 'Post',
    games_in_play: 'Games in play', no_playing: 'No games between players right now.', challenge_player: 'Challenge',
    withdraw: 'Withdraw', accept_challenge: 'Accept', decline: 'Decline', direct_to: (n) => `to ${n}`,
    challenged_by: (n, r, terms) => `${n} [${r}] challenges you: ${terms}.`,
    chat: 'Chat', greeting_start: 'Have a nice game', greeting_end: 'Thank you', chat_players: 'Players',
    chat_watchers: 'Watchers', chat_placeholder: 'Write…', chat_send: 'Send', chat_login: 'Log in to write in the chat.',
    mute: 'mute', mute_title: (n) => `Hide ${n}'s messages in this game (for you only)`, watcher: 'watcher', after_move: (n) => `after move ${n}`,
    days_hours: (d, h) => `${d}d ${h}h`, days_move: (d) => `${d} ${d === 1 ? 'day' : 'days'} a move`, corr1: '1 day a move',
    corr3: '3 days a move', corr7: '7 days a move', claim: 'Claim the win',
    opponent_away: (c, s) => `${c} has left the board (${s} s ago). The clock runs; wait, or claim the game once allowed.`, my_turns: 'Your move', time_to: (when) => `until ${when}`,
    turns_title: (n) => `${n} ${n === 1 ? 'game waits' : 'games wait'} for your move`, abort: 'Abort',
    settles_at: (when) => `If the count is not agreed, the server counts its proposal at ${when}.`,
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
    wins_forfeit: (c) => `${c}胜：对方离开 · ${c === '黑' ? 'B' : 'W'}+F`, void_result: '无胜负：对局取消',
    dispute: (alive, dead) => `电脑不同意：它判${[alive.length ? ` ${alive.join('、')} 为活棋` : '', dead.length ? ` ${dead.join('、')} 为死棋` : ''].filter(Boolean).join('，')}。现在显示的是电脑的判断（有争议的棋块已圈出：绿圈为活，红圈为死）：可以同意，或续弈，在棋盘上解决。`,
    level_info: (l, size) => l ? `${size} 路：${sized(l, size).strength_zh}；${l.search === 'network' ? '神经网络搜索' : '模拟搜索'}，${l.budget_zh}` : '',
    study: '电脑复盘', review_start: '请电脑复盘', review_again: '重新复盘', review_queued: '排队等待中…',
    review_running: (p) => `复盘中：${p}%`, review_failed: (e) => `复盘失败：${e}`,
    review_quick: '初览：神经网络先把每个局面看一遍…',
    review_deep: (j, n) => `曲线为神经网络的初览；已细算并评判 ${j}/${n} 手`,
    review_legend: '曲线：黑方胜率。阴影：黑方领先目数。红点：失误（越大损失越多）。点击或拖动可跳到该手。',
    mistakes_none: '没有损失 1.5 目以上的棋。', lost: (x) => `损失 ${x} 目`, best_was: (m) => `应走 ${m}`,
    judged: (n, c, m) => `电脑评第 ${n} 手 ${c} ${m}`, winrate_line: (b, who, lead) => `黑胜率 ${b}% · ${who}领先 ${lead} 目`,
    winrate_split: (b, who, lead) => `黑胜率 ${b}% · 数子${who}领先 ${lead} 目（胜率与目差不一致：局面接近）`,
    within_noise: (x, noise) => `损失 ${x} ± ${noise} 目，在搜索的误差之内`,
    lead_legend: '每手后黑方领先的目数（线上为黑领先）。',
    analyse: '分析', analyse_stop: '停止分析', territory: '形势（按 t）',
    analysis_line: (m, w, lead, n) => `最佳 ${m}：行棋方胜率 ${w}%，${lead < 0 ? `落后 ${-lead}` : `领先 ${lead}`} 目，${n} 次访问`,
    analysis_done: '分析结束。', estimate: (who, by, w) => `形势判断：${who}领先 ${by} 目（黑胜率 ${w}%）`,
    estimate_even: '形势判断：均势', variations: '变化图', main_line: '回到实战', from_move: (n) => `第 ${n} 手后：`,
    in_variation: (n, at) => `变化：第 ${at} 手后 ${n} 手。点棋盘继续；◀ 退一手。`,
    turn_of: (c) => `现在轮到${c}。`,
    click_to_vary: '点棋盘可从当前局面试下变化。',
    record: '棋谱信息', replayed_chinese: '按中国规则复盘', result_recorded: '结果',
    engine_network: (name, v) => `由神经网络 ${name} 评判，每个局面 ${v} 次访问。`,
    engine_playouts: (n) => `由模拟搜索评判，每个局面 ${n} 次模拟。`,
    time_left: (min) => (min < 1 ? '剩不到一分钟' : `约剩 ${Math.round(min)} 分钟`),
    review_quick: '改用快速复盘（模拟搜索）',
    line_shown: (n, c, m, loss, best) => `第 ${n} 手：${c}走了 ${m}（✕），损失 ${loss} 目；棋盘上是电脑从这里开始的下法，第一手 ${best}（1）。`,
    analysis_board: '新建研究棋盘', more_names: (n) => `还有 ${n} 个`, fewer_names: '收起',
    account: '账号', account_name: '名字', password: '密码（至少 8 个字符）', log_in: '登录', sign_up: '注册',
    log_out: '退出', wrong_credentials: '名字或密码不对。',
    account_hint: '有了账号，座位在每台设备上都在，还有段级位。以游客身份下棋不需要账号。',
    rated: '计等级分（已测定段级位的电脑级别，或登录后入座的朋友）', guest_mark: '（游客）', deleted_mark: '（已注销）',
    player_games: '对局', size_col: '棋盘', rank_col: '段级位', rating_col: '等级分', record_col: '胜–负',
    no_rated: '还没有计等级分的对局。', no_player: '没有这个棋手。', rating_graph: '每盘计分对局后的等级分',
    in_play: '进行中', auto_handicap: '自动（按段级位）',
    lobby: '对局室', open_challenges: '挑战', no_challenges: '现在没有挑战：发一个吧。',
    lobby_login: '登录后才能发出或接受挑战。', post_challenge: '发出挑战', rated_short: '计分', free_short: '不计分',
    handicap_auto: '按段级位让子', even_game: '分先', handicap_n: (n) => `让${n}子`, colour_rule: '执子',
    color_auto: '弱者执黑', color_nigiri: '猜先', color_black: '挑战者执黑', color_white: '挑战者执白', ranks: '段级位',
    challenge_to: '挑战对象（留空：任何人）', post: '发出', games_in_play: '正在进行的对局', no_playing: '现在没有棋手之间的对局。',
    challenge_player: '挑战', withdraw: '撤回', accept_challenge: '接受', decline: '谢绝', direct_to: (n) => `给 ${n}`,
    challenged_by: (n, r, terms) => `${n} [${r}] 向你挑战：${terms}。`,
    chat: '聊天', greeting_start: '请多指教', greeting_end: '谢谢', chat_players: '对局者', chat_watchers: '观战者',
    chat_placeholder: '写点什么…', chat_send: '发送', chat_login: '登录后才能在聊天里发言。',
    mute: '屏蔽', mute_title: (n) => `在这盘棋里不看 ${n} 的发言（只对你）`, watcher: '观战', after_move: (n) => `第 ${n} 手后`,
    days_hours: (d, h) => `${d}天${h}小时`, days_move: (d) => `每手 ${d} 天`, corr1: '每手 1 天', corr3: '每手 3 天', corr7: '每手 7 天', claim: '判对方负',
    opponent_away: (c, s) => `${c}已离开棋盘（${s} 秒前）。时钟照走：可以等待，到时也可以判对方负。`,
    my_turns: '轮到你下的对局', time_to: (when) => `限 ${when} 前`, turns_title: (n) => `${n} 盘棋等你落子`, abort: '取消对局',
    settles_at: (when) => `如果双方没有同意死子，服务器将在 ${when} 按它的判断计算。`,
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
  no_handicap: '这个棋盘太小，不能让子', sgf_unreadable: '不是可以读的 SGF 棋谱', sgf_replay: (p, c, e) => {
    const cause = REASONS_ZH[e?.cause];
    const why = typeof cause === 'function' ? cause(p, c) : cause;
    if (!e?.number) return '棋谱不能按中国规则复盘';
    return `棋谱第 ${e.number} 手${c ? `（${t(c)} ${p ?? ''}）`.replace(' ）', '）') : ''}不能按中国规则复盘${why ? `：${why}` : ''}`;
  },
  name_taken: '这个名字已经有人用了', weak_password: '密码至少 8 个字符', bad_name: '名字只能用看得见的字符，最多 40 个',
  seat_held: '这个座位属于另一个账号', both_seats: '计分对局的两个座位不能是同一个账号', account_name: '账号的座位用账号的名字',
  rated_computer: '本服务器和电脑的对局不计等级分', rated_size: '计分对局和自动让子只在 9、13、19 路棋盘上', not_logged_in: '请先登录',
  level_unrated: '这个级别在这个棋盘上还没有测定段级位，不计等级分', auto_handicap_given: '自动让子时颜色、让子和贴目由段级位决定',
  auto_handicap_friend: '自动让子需要知道对手的段级位：只用于和电脑的对局',
  cross_site: '请求须来自本站页面',
  opponent_here: '对方还在棋盘前，或刚离开不久', correspondence_game: '通讯对局由每手的天数决定，不看是否在线', computer_game: '电脑不会离开：可以认输或继续下', too_late_to_abort: '第 10 手之后不能取消对局：可以认输', correspondence_days: '每手可以是 1、2、3、5、7 或 14 天', too_many_challenges: '同时最多 5 个挑战：先撤回一个', challenge_closed: '这个挑战已经不在了', own_challenge: '不能接受或发出给自己的挑战',
  rank_range: '你的段级位不在这个挑战的范围里', blocked: '对方不接受你的挑战', no_player: '没有这个棋手', no_challenge: '没有这个挑战',
  too_many_games: '同时进行的对局太多了', rank: '段级位写作 30k 到 1k，或 1d 到 9d', chat_text: '发言是一行看得见的字，最多 500 个',
  chat_rate: '发言太快了，请稍候', chat_full: '这盘棋的聊天已满', not_your_challenge: '这不是你可以撤回或谢绝的挑战',
  sgf_empty: '棋谱里没有棋步，也没有棋局信息', sgf_none: '文件里没有 SGF 棋局', stale_move: '棋局已经变了，请再试一次', review_only: '导入的对局只供复盘',
};


// The language chosen (this browser's), English or Chinese.
export let lang = localStorage.getItem('tengen-lang') || (navigator.language.startsWith('zh') ? 'zh' : 'en');

export function toggleLang() {
  lang = lang === 'en' ? 'zh' : 'en';
  localStorage.setItem('tengen-lang', lang);
}

export const t = (key, ...args) => {
  const v = T[lang][key] ?? T.en[key] ?? key;
  return typeof v === 'function' ? v(...args) : v;
};
export const colorName = (c) => t(c);
// A move as the page writes it: a vertex, or pass in the page's language.
export const moveText = (m) => (m === 'pass' ? t('pass_move') : m);
// Who leads, by how much: the lead's sign says who (a negative lead of Black is White's).
export const leadText = (leadBlack) => [colorName(leadBlack < 0 ? 'white' : 'black'), Math.abs(leadBlack).toFixed(1)];

// A refusal in the page's language (the API's words for a variation's move name the request's
// field and the move's number: the player sees what is wrong with the move).
export function refusal(e) {
  const zh = lang === 'zh' && REASONS_ZH[e.reason];
  if (!zh) return e.message.replace(/^(then|moves): move \d+ \([^)]*\): /, '');
  return typeof zh === 'function' ? zh(e.point, e.color, e) : zh;
}

// The page's fixed words (elements marked data-t, placeholders marked data-tp).
export function applyText() {
  document.documentElement.lang = lang;
  for (const e of document.querySelectorAll('[data-t]')) e.textContent = t(e.dataset.t);
  for (const e of document.querySelectorAll('[data-tp]')) e.placeholder = t(e.dataset.tp);
  document.querySelector('#lang').textContent = lang === 'en' ? '中文' : 'English';
}
