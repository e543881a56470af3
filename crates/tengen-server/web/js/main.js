// tengen's page: plain JavaScript modules over the API of /api/openapi.json, nothing else.
// main routes between the page's three sections and draws the game from the shared state.
import { $ } from './dom.js';
import { applyText, toggleLang } from './i18n.js';
import { S, setRender } from './store.js';
import * as settings from './settings.js';
import * as clock from './clock.js';
import * as game from './game.js';
import * as counting from './counting.js';
import * as panel from './panel.js';
import * as review from './review.js';
import * as variations from './variations.js';
import * as analysis from './analysis.js';
import * as newgame from './newgame.js';
import * as recent from './recent.js';
import { renderCommentary } from './commentary.js';
import { renderRecord } from './record.js';
import * as account from './account.js';
import { openPlayer } from './profile.js';
import * as lobby from './lobby.js';
import * as chat from './chat.js';
import * as presence from './presence.js';

export function show(section) {
  for (const id of ['new', 'recent', 'game', 'login', 'player', 'lobby']) $(`#${id}`).hidden = id !== section;
  if (section !== 'game') document.title = 'tengen 天元';
}

export function route() {
  const path = location.pathname;
  const match = path.match(/^\/games\/([0-9a-f]+)$/);
  if (match) {
    show('game');
    return game.openGame(match[1]);
  }
  const player = path.match(/^\/players\/([^/]+)$/);
  if (player) {
    show('player');
    return openPlayer(decodeURIComponent(player[1]));
  }
  if (path === '/lobby') {
    show('lobby');
    return lobby.openLobby();
  }
  if (path === '/login') {
    show('login');
    return undefined;
  }
  if (path === '/games') {
    show('recent');
    return recent.loadRecent();
  }
  show('new');
  return undefined;
}

export function go(path) {
  history.pushState(null, '', path);
  route();
}

// The page from the state: its words, then the game's board and panels.
function render() {
  applyText();
  newgame.showLevel();
  account.renderNav();
  lobby.syncLobby();
  lobby.renderLobby();
  if (!S.shown || $('#game').hidden) return;
  chat.renderChat();
  presence.renderPresence();
  game.renderBoard();
  panel.renderPanel();
  renderCommentary();
  review.renderStudy();
  variations.renderVariations();
  renderRecord();
  analysis.syncAnalysis();
}

function start() {
  setRender(render);
  const parts = [settings, clock, game, counting, panel, review, variations, analysis, newgame, recent, account, lobby,
    chat, presence];
  for (const part of parts) part.init();
  $('#lang').addEventListener('click', () => {
    toggleLang();
    render();
    // The recent games are written in the language: again in the new one.
    if (!$('#recent').hidden) recent.loadRecent();
    if (!$('#player').hidden) route();
  });
  // Links of the page are followed on the page.
  document.addEventListener('click', (event) => {
    const a = event.target.closest('a');
    if (a && a.origin === location.origin && !a.hasAttribute('download') && !a.pathname.startsWith('/api/')) {
      event.preventDefault();
      go(a.pathname);
    }
  });
  window.addEventListener('popstate', route);
  route();
  render();
}

start();
