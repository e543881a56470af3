// A new game: the form (opponent and level, board, rules, colour, time control) and the
// creation of the game, whose seat this browser takes.
import { $, formError } from './dom.js';
import { t, colorName, refusal } from './i18n.js';
import { S, other } from './store.js';
import { api } from './api.js';
import { link, remember } from './seats.js';
import { show, route } from './main.js';

// The request of the form's fields (POST /api/games).
function gameRequest(f) {
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
  if (f.get('rated') === 'on') body.rated = true;
  if (f.get('komi') !== '') body.komi = Number(f.get('komi'));
  // "auto": the server sets the colours, stones and komi from the ranks.
  if (f.get('handicap') === 'auto') {
    body.handicap = 'auto';
    for (const k of ['komi', 'color', 'guess', 'rang_xian']) delete body[k];
  }
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
  return body;
}

// Creates a game, takes its seat and opens it.
export async function createGame(body) {
  const created = await api('POST', '/api/games', body);
  const { id, color } = created;
  remember(id, { token: created.token, color });
  if (created.friend_token) {
    sessionStorage.setItem(`tengen-friend-${id}`, link(id, created.friend_token, other(color)));
  }
  const nigiri = created.game.nigiri;
  if (nigiri) sessionStorage.setItem(`tengen-nigiri-${id}`, t('nigiri_shown', nigiri.guess_odd, nigiri.handful, colorName(color)));
  history.pushState(null, '', `/games/${id}#seat=${created.token}&as=${color}`);
  route();
}

// What each level means (GET /api/levels), under the level field.
async function loadLevels() {
  try {
    S.levels = await api('GET', '/api/levels');
  } catch (e) {
    S.levels = [];
  }
  showLevel();
}

export function showLevel() {
  const level = Number($('#new-form input[name=level]').value);
  const size = Number($('#new-form input[name=size]:checked')?.value ?? 9);
  $('#level-info').textContent = t('level_info', S.levels.find((l) => l.level === level), size);
}

// The line on the Chinese rules' defaults stands only while they are chosen.
function showRulesLine() {
  const f = $('#new-form');
  f.querySelector('.rules-line').hidden = f.querySelector('[name=rules]').value !== 'chinese' || f.querySelector('[name=komi]').value !== '';
}

// Only the time fields of the chosen control are shown.
function showTimeFields() {
  const kind = $('#new-form select[name=time]').value;
  for (const label of document.querySelectorAll('#new-form [data-kinds]')) {
    label.hidden = !label.dataset.kinds.split(' ').includes(kind);
  }
}

export function init() {
  $('#new-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    formError('#new-error', '');
    try {
      await createGame(gameRequest(new FormData(event.target)));
    } catch (e) {
      formError('#new-error', refusal(e));
      show('new');
    }
  });
  $('#new-form input[name=name]').value = localStorage.getItem('tengen-name') || '';
  $('#new-form input[name=level]').addEventListener('input', showLevel);
  for (const r of $('#new-form').querySelectorAll('input[name=size]')) r.addEventListener('change', showLevel);
  $('#new-form [name=rules]').addEventListener('change', showRulesLine);
  $('#new-form [name=komi]').addEventListener('input', showRulesLine);
  $('#new-form select[name=time]').addEventListener('change', showTimeFields);
  showTimeFields();
  loadLevels();
}
