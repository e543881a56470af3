// The commentary: the computer's judgement of the move on the board and the Go terms the
// commentator gives it (GET /api/games/{id}/terms), the most telling first.
import { $, tag } from './dom.js';
import { lang, t, colorName, moveText, leadText } from './i18n.js';
import { S } from './store.js';
import { api } from './api.js';
import { judgedMove, nextJudged } from './review.js';

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

// The computer's judgement of move `n` (from its review).
function judgedLine(n, judged) {
  const names = (lang === 'zh' ? judged.judgement : judged.judgement_en).join(lang === 'zh' ? '、' : ', ');
  return `${t('judged', n, colorName(judged.color === 'B' ? 'black' : 'white'), moveText(judged.move))}: ` +
    `${names ? `${names} · ` : ''}${t('lost', judged.loss.toFixed(1))} · ${t('best_was', moveText(judged.best))} · ` +
    t('winrate_line', Math.round(100 * judged.winrate_black), ...leadText(judged.score_lead_black));
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
  if (judged) box.append(tag('p', 'judged', judgedLine(n, judged)));
  const next = nextJudged();
  if (next) {
    const side = colorName(next.color === 'B' ? 'black' : 'white');
    box.append(tag('p', 'judged next', t('line_shown', n + 1, side, moveText(next.move), next.loss.toFixed(1), moveText(next.best))));
  }
  if (!entry || !entry.terms.length) return;
  box.append(tag('h3', '', `${t('commentary')} · ${n}. ${colorName(entry.color)} ${moveText(entry.move)}`));
  const list = tag('ul', 'terms');
  // The most specific names first; the rest on demand.
  const folded = entry.terms.length > NAMES_SHOWN && !namesOpen;
  for (const term of folded ? entry.terms.slice(0, NAMES_SHOWN) : entry.terms) list.append(termItem(term));
  box.append(list);
  if (entry.terms.length > NAMES_SHOWN) {
    const more = tag('button', 'link', namesOpen ? t('fewer_names') : t('more_names', entry.terms.length - NAMES_SHOWN));
    more.type = 'button';
    more.id = 'more-names';
    more.addEventListener('click', () => { namesOpen = !namesOpen; renderCommentary(); });
    box.append(more);
  }
}
