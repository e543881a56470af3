// The record: an imported game's information and comments (GET /api/games/{id}/info).
import { $, tag } from './dom.js';
import { t, colorName } from './i18n.js';
import { S, render } from './store.js';
import { api } from './api.js';
import { addLines } from './variations.js';

export async function loadRecord(id) {
  try {
    const info = await api('GET', `/api/games/${id}/info`);
    if (S.gameId === id) {
      S.record = { id, info };
      addLines(info.lines);
      render();
    }
  } catch (e) {
    // The information is a help: without it the board still shows the game.
  }
}

// The record's information of the game open, once read.
export const recordInfo = () => (S.record.id === S.gameId ? S.record.info : null);

function infoLine(info) {
  const player = (name, rank) => (name ? `${name}${rank ? ` (${rank})` : ''}` : '');
  const players = [player(info.black, info.black_rank), player(info.white, info.white_rank)];
  return [
    players.some(Boolean) ? `${colorName('black')} ${players[0] || '?'} – ${colorName('white')} ${players[1] || '?'}` : '',
    info.date, [info.event, info.round].filter(Boolean).join(' '),
    info.result ? `${t('result_recorded')} ${info.result}` : '',
    info.rules ? `RU ${info.rules}` : '', `komi ${info.komi}`,
  ].filter(Boolean).join(' · ');
}

export function renderRecord() {
  const box = $('#record-info'), comment = $('#comment');
  const info = recordInfo();
  box.hidden = !info || !info.imported;
  box.textContent = '';
  if (info && info.imported) box.append(tag('h3', '', t('record')), tag('p', '', infoLine(info)));
  const n = S.reviewAt ?? S.view?.moves ?? 0;
  const here = info && !S.line ? info.comments.filter((c) => c.number === n) : [];
  comment.hidden = !here.length;
  comment.textContent = here.map((c) => c.text).join('\n\n');
}
