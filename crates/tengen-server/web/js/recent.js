// The games: the recent games of the server and this browser's, the upload of an SGF file to
// review, and a new analysis board.
import { $, formError, tag } from './dom.js';
import { t, colorName, refusal } from './i18n.js';
import { api } from './api.js';
import { mySeats } from './seats.js';
import { go } from './main.js';

// A line of a list of games: its link (the summary of GET /api/games, or the id alone) and
// the seat this browser holds.
function gameLine(g, s) {
  const li = tag('li');
  const names = `${g.black || t('black')} – ${g.white || t('white')}`;
  const a = tag('a', '', g.size === undefined ? g.id
    : `${names}, ${g.size}×${g.size}, ${g.moves} ${t(g.moves === 1 ? 'move' : 'moves')}${g.result ? ', ' + g.result : ''}`);
  a.href = `/games/${g.id}`;
  li.append(a);
  if (s) li.append(` (${t('my_seat', colorName(s.color))})`);
  return li;
}

export async function loadRecent() {
  const list = $('#recent-list'), mine = $('#my-list');
  const recent = await api('GET', '/api/games?limit=50');
  list.textContent = '';
  mine.textContent = '';
  const seats = new Map(mySeats().map((s) => [s.id, s]));
  for (const g of recent) list.append(gameLine(g, seats.get(g.id)));
  // My games: those in the list first, then the others this browser holds a seat of.
  const listed = new Set();
  for (const g of recent.filter((g) => seats.has(g.id))) {
    mine.append(gameLine(g, seats.get(g.id)));
    listed.add(g.id);
  }
  for (const s of [...seats.values()].filter((s) => !listed.has(s.id)).slice(0, 20)) mine.append(gameLine({ id: s.id }, s));
  $('#my-games').hidden = $('#all-games').hidden = seats.size === 0;
}

async function upload(event) {
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
}

// A board of one's own to study on: an empty record imported.
async function analysisBoard() {
  const size = Number($('#analysis-size').value) || 19;
  try {
    const sgf = `(;GM[1]FF[4]CA[UTF-8]SZ[${size}]KM[7.5]RU[Chinese])`;
    const v = await api('POST', '/api/games/import', sgf, true);
    go(`/games/${v.id}`);
  } catch (e) {
    formError('#upload-error', refusal(e));
  }
}

export function init() {
  $('#upload').addEventListener('change', upload);
  $('#analysis-board').addEventListener('click', analysisBoard);
}
