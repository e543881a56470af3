// The commentary: the computer's judgement of the move on the board and the Go terms the
// commentator gives it (GET /api/games/{id}/terms), the most telling first.
import { $, tag } from './dom.js';
import { lang, t, colorName, moveText, leadText } from './i18n.js';
import { S } from './store.js';
import { api } from './api.js';
import { judgedMove, nextJudged, judgements, lossText } from './review.js';

// Names of a move shown before "more".
const NAMES_SHOWN = 3;
let namesOpen = false;
let terms = { id: null, moves: -1, list: [] }; // the names of every move of the game
let loading = null;

async function loadTerms() {
  const id = S.gameId, moves = S.view?.moves ?? -1;
  if (!id || (terms.id === id && terms.moves === moves) || loading === `${id}/${moves}`) return;
  loading = `${id}/${moves}`;
  try {
    const data = await api('GET', `/api/games/${id}/terms`);
    if (S.gameId === id) terms = { id, moves: data.moves.length, list: data.moves };
  } catch (e) {
    // The commentary is a help, not the game: a failure leaves it empty.
  } finally {
    loading = null;
  }
  if (S.gameId === id) renderCommentary();
}

let judgementsOpen = false;

// Black's win rate and who leads; when the two disagree (a close position), said so.
function winrateText(w, lead) {
  const split = (w - 0.5) * lead < 0 && Math.round(100 * w) !== 50 && Math.abs(lead) >= 0.05;
  return t(split ? 'winrate_split' : 'winrate_line', Math.round(100 * w), ...leadText(lead));
}

// The computer's judgement of move `n` (from its review): the most telling name first, the
// others on demand.
function judgedLine(n, judged) {
  const all = judgements(judged), shown = judgementsOpen ? all : all.slice(0, 1);
  const names = shown.join(lang === 'zh' ? '、' : ', ');
  const p = tag('p', 'judged', `${t('judged', n, colorName(judged.color === 'B' ? 'black' : 'white'), moveText(judged.move))}: ` +
    `${names ? `${names} · ` : ''}${lossText(judged)} · ${t('best_was', moveText(judged.best))} · ` +
    winrateText(judged.winrate_black, judged.score_lead_black));
  if (all.length > 1) {
    const more = tag('button', 'link', judgementsOpen ? t('fewer_names') : t('more_names', all.length - 1));
    more.type = 'button';
    more.id = 'more-judgements';
    more.addEventListener('click', () => { judgementsOpen = !judgementsOpen; renderCommentary(); });
    p.append(' ', more);
  }
  return p;
}

function termItem(term) {
  const li = tag('li', `term ${term.kind}`);
  const zh = tag('b', '', term.zh);
  zh.lang = 'zh';
  li.append(zh, ' ', tag('span', 'pinyin', term.pinyin), ' ', tag('span', 'en', term.en));
  return li;
}

export function renderCommentary() {
  const box = $('#commentary');
  box.textContent = '';
  if (!S.view) return;
  const n = S.reviewAt ?? S.view.moves;
  if (terms.id !== S.gameId || terms.moves !== S.view.moves) loadTerms();
  const entry = terms.id === S.gameId && !S.line ? terms.list[n - 1] : null;
  const judged = judgedMove();
  if (judged) box.append(judgedLine(n, judged));
  const next = nextJudged();
  if (next) {
    const side = colorName(next.color === 'B' ? 'black' : 'white');
    box.append(tag('p', 'judged next', t('line_shown', n + 1, side, moveText(next.move), next.loss.toFixed(1), moveText(next.best))));
  }
  if (!entry || !entry.terms.length) return;
  box.append(tag('h3', '', `${t('commentary')} · ${n}. ${colorName(entry.color)} ${moveText(entry.move)}`));
  const list = tag('ul', 'terms');
  // The names that say what the move does, the most specific first (at most three); where it
  // stands (its point, its region) and the rest on demand.
  // A move that none of them names is said by its region (角, 边, 中腹).
  const main = Math.min(NAMES_SHOWN, entry.main ?? NAMES_SHOWN);
  const first = main > 0 ? entry.terms.slice(0, main) : entry.terms.filter((x) => x.kind === 'region');
  const rest = entry.terms.filter((x) => !first.includes(x));
  for (const term of namesOpen ? [...first, ...rest] : first) list.append(termItem(term));
  box.append(list);
  if (rest.length) {
    const more = tag('button', 'link', namesOpen ? t('fewer_names') : t('more_names', rest.length));
    more.type = 'button';
    more.id = 'more-names';
    more.addEventListener('click', () => { namesOpen = !namesOpen; renderCommentary(); });
    box.append(more);
  }
}
