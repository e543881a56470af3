// A game: opening it, its live view over the WebSocket, moving through its moves, and the
// player's actions (moves, passes, undo, resignation) on the board and the buttons.
import { claimSeat, forgetRanks } from './account.js';
import { $, say } from './dom.js';
import { t, colorName, refusal } from './i18n.js';
import { S, render, ticket } from './store.js';
import { api, socketTo } from './api.js';
import { drawBoard, el, moveNumbers, vertexAt } from './board.js';
import { settings } from './settings.js';
import { stoneSound } from './sound.js';
import { disputeMarks, markChain } from './counting.js';
import { showSeatLinks, foldSeatsOnceJoined, remember } from './seats.js';
import { loadReview, reviewChanged, studyOpen, drawBestLine } from './review.js';
import { playVariation, stepVariation, resetVariations } from './variations.js';
import { stopAnalysis, drawAnalysis, toggleTerritory } from './analysis.js';
import { loadRecord } from './record.js';
import { chatArrived, openChat } from './chat.js';

let socket = null;
let resignArmed = false;

export async function openGame(id) {
  if (S.gameId !== id && socket) socket.close();
  S.gameId = id;
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get('seat')) {
    remember(id, { token: fragment.get('seat'), color: fragment.get('as') });
    history.replaceState(null, '', `/games/${id}`);
  }
  S.seat = JSON.parse(localStorage.getItem(`tengen-seat-${id}`) || 'null');
  S.reviewAt = null;
  say(sessionStorage.getItem(`tengen-nigiri-${id}`) || sessionStorage.getItem(`tengen-import-${id}`) || '');
  showSeatLinks();
  S.study = { id, review: null };
  resetVariations();
  stopAnalysis();
  S.record = { id: null, info: null };
  try {
    update(await api('GET', `/api/games/${id}`));
  } catch (e) {
    say(refusal(e), true);
    return;
  }
  listen();
  claimSeat(S.view);
  loadReview(id);
  loadRecord(id);
  openChat(id);
}

function listen() {
  const id = S.gameId;
  socket = socketTo(`/api/games/${id}/live`);
  socket.onopen = () => {
    if (id !== S.gameId) return;
    // A guest's seat says itself (a login's seat is known by its cookie): at the board.
    if (S.seat?.token) socket.send(JSON.stringify({ seat: S.seat.token }));
    // What changed while the connection was down; the clocks run again from that view.
    api('GET', `/api/games/${id}`).then((v) => {
      if (id !== S.gameId) return;
      setOnline(true);
      update(v);
    }).catch(() => setOnline(true));
  };
  socket.onmessage = (event) => {
    if (id !== S.gameId) return;
    const data = JSON.parse(event.data);
    // The socket carries the game's views and, while a review of it runs, the review's
    // progress ({"review": …}), which is not a view.
    if (data.review) reviewChanged(data.review);
    else if (data.chat) chatArrived(data.chat);
    else update(data);
  };
  socket.onclose = () => {
    // Reconnect while the game is open (a server restart, a network hiccup).
    if (id === S.gameId && !$('#game').hidden) {
      setOnline(false);
      setTimeout(() => id === S.gameId && listen(), 1000);
    }
  };
}

function setOnline(value) {
  if (S.online === value) return;
  if (!value) S.offlineSince = performance.now();
  S.online = value;
  $('#connection').hidden = value;
  render();
}

function update(v) {
  // Views arrive by two roads (the answer to a request, the WebSocket) in either order: an
  // older one never replaces a newer one.
  const old = S.view;
  if (old && old.id === v.id && v.events < old.events) return;
  const before = old?.id === v.id ? old : null;
  const wasMyTurn = myTurnLive();
  if (before && before.phase !== 'ended' && v.phase === 'ended' && v.rated) forgetRanks();
  S.view = v;
  S.receivedAt = performance.now();
  const mine = before && before.moves < v.moves && v.history.at(-1)?.color === S.seat?.color;
  if (before && before.moves !== v.moves && !mine) say('');
  if (before && v.moves > before.moves && v.history.at(-1)?.move !== 'pass') stoneSound();
  if (S.seat && v.undo_refused === S.seat.color && before?.undo_refused !== S.seat.color) say(t('undo_refused'), false);
  if (S.reviewAt === null) S.shown = v;
  foldSeatsOnceJoined(v);
  if (before && !wasMyTurn && myTurnLive()) notifyTurn();
  render();
}

// A notification when the player's move comes while the page is out of sight.
function notifyTurn() {
  if (!settings.notify || !('Notification' in window) || Notification.permission !== 'granted') return;
  if (!document.hidden && document.hasFocus()) return;
  try {
    new Notification('tengen', { body: t('your_move_title'), tag: `tengen-${S.gameId}` });
  } catch (e) {
    // Some browsers allow notifications from a service worker only.
  }
}

// Shows move `n` of the main line (the live position at the last move).
export async function goToMove(n) {
  const view = S.view;
  if (!view) return;
  // A refusal said about another position does not stand here.
  if (S.line || S.reviewAt !== n) say('');
  S.line = null;
  n = Math.max(0, Math.min(view.moves, n));
  S.reviewAt = n === view.moves ? null : n;
  const fresh = ticket('position');
  const position = S.reviewAt === null ? view : await api('GET', `/api/games/${S.gameId}?at=${n}`);
  if (!fresh()) return;
  S.shown = position;
  render();
}

// The player's turn in the live game (whatever move is being reviewed).
export const myTurnLive = () => {
  const { seat, view } = S;
  return Boolean(seat && view && !view.imported && !view.undo_request &&
    ((view.phase === 'playing' && view.to_move === seat.color) || (view.phase === 'placing' && seat.color === 'black')));
};
export const myTurn = () => S.reviewAt === null && myTurnLive();

// An action of the player's seat (POST /api/games/{id}/{path}); its answer is the new view.
export async function act(path, body) {
  say('');
  try {
    update(await api('POST', `/api/games/${S.gameId}/${path}`, body));
  } catch (e) {
    // Out of turn: whose turn it is, said plainly.
    if (e.reason === 'not_your_turn' && e.color) say(t('turn_of', colorName(e.color)), true, false);
    else say(refusal(e), true);
  }
}

// Free handicap: the stones are chosen one by one, sent when all are chosen.
function placeHandicap(vertex) {
  if (S.placing.has(vertex)) S.placing.delete(vertex);
  else S.placing.add(vertex);
  render();
  if (S.placing.size === S.view.handicap) {
    const points = [...S.placing];
    S.placing.clear();
    return act('handicap', { points });
  }
  return undefined;
}

function playAt(vertex) {
  const view = S.view;
  if (!view) return undefined;
  // A finished or imported game: a click plays a variation from the position shown.
  if (studyOpen()) return playVariation(vertex);
  if (view.phase === 'counting' && S.seat) return markChain(vertex);
  if (view.phase === 'placing' && S.seat?.color === 'black') return placeHandicap(vertex);
  if (!S.seat) return say(t('watching'));
  if (view.undo_request) return say(t(view.undo_request === S.seat.color ? 'undo_waits_mine' : 'undo_waits_yours'));
  // A click while reviewing plays on the live board when it is the player's move, else
  // goes back to the live position.
  if (S.reviewAt !== null) {
    if (!myTurnLive()) return goToMove(view.moves);
    S.reviewAt = null;
    S.shown = view;
    ticket('position');
  }
  if (!myTurn()) return say(view.phase === 'playing' ? t('to_move', colorName(view.to_move)) : t(view.phase), true);
  return act('move', { move: vertex, number: view.moves + 1 });
}

// The board of the position shown, with the marks of the moment.
export function renderBoard() {
  const v = S.shown, live = S.reviewAt === null;
  const numbers = $('#numbers').checked ? moveNumbers(v) : S.line ? moveNumbers(v, S.line.at) : new Map();
  const svg = $('#board');
  const empty = (vertex) => {
    const [c, r] = vertexAt(vertex);
    return v.board[v.size - 1 - r][c] === '.';
  };
  drawBoard(svg, v, {
    numbers,
    judged: v.phase === 'counting' && v.computer && live ? v.proposal || [] : [],
    chains: live ? disputeMarks(v) : [],
    ko: v.ko && live && v.phase === 'playing' ? v.ko : null,
    placing: S.placing,
    shadow: S.seat?.color ?? 'black',
    clickable: myTurn() || (v.phase === 'counting' && Boolean(S.seat)),
    canPlay: (vertex) => myTurn() && empty(vertex) && !(v.ko === vertex && live),
    onClick: playAt,
  });
  drawBestLine(svg, v);
  el('g', { id: 'analysis-layer' }, svg);
  drawAnalysis();
}

function resign() {
  if (!resignArmed) {
    resignArmed = true;
    say(t('confirm_resign'));
    setTimeout(() => { resignArmed = false; }, 4000);
    return;
  }
  resignArmed = false;
  act('resign');
}

// The arrows step through the moves (or a variation), Home and End go to the ends, `t` shows
// the territory, and a letter or digit starts typing a move.
function onKey(event) {
  const view = S.view;
  if ($('#game').hidden || !view) return;
  // The territory key works from the board and the study's check boxes, not while typing.
  const typing = event.target.tagName === 'INPUT' && !['checkbox', 'button'].includes(event.target.type);
  if (studyOpen() && !typing && (event.key === 't' || event.key === 'T') && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    return toggleTerritory();
  }
  if (event.target.tagName === 'INPUT') return undefined;
  if (S.line && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
    event.preventDefault();
    return stepVariation(event.key === 'ArrowLeft' ? -1 : 1);
  }
  const at = S.reviewAt ?? view.moves;
  const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: view.moves }[event.key];
  if (moves !== undefined) {
    event.preventDefault();
    goToMove(moves);
  } else if (/^[a-zA-Z0-9]$/.test(event.key)) {
    $('#move-input').focus();
  }
  return undefined;
}

export function init() {
  const pass = () => S.view && act('move', { move: 'pass', number: S.view.moves + 1 });
  $('#typed').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = $('#move-input'), text = input.value.trim();
    input.value = '';
    if (!text || !S.view) return;
    if (/^pass$/i.test(text)) pass();
    else playAt(text.toUpperCase());
  });
  $('#pass').addEventListener('click', pass);
  $('#undo').addEventListener('click', () => act('undo'));
  $('#undo-accept').addEventListener('click', () => act('undo/accept'));
  $('#undo-reject').addEventListener('click', () => act('undo/reject'));
  $('#resign').addEventListener('click', resign);
  $('#abort').addEventListener('click', () => act('abort'));
  $('#numbers').addEventListener('change', () => render());
  $('#first').addEventListener('click', () => goToMove(0));
  $('#prev').addEventListener('click', () => (S.line ? stepVariation(-1) : goToMove((S.reviewAt ?? S.view.moves) - 1)));
  $('#next').addEventListener('click', () => (S.line ? stepVariation(1) : goToMove((S.reviewAt ?? S.view.moves) + 1)));
  $('#last').addEventListener('click', () => goToMove(S.view.moves));
  $('#step').addEventListener('input', (event) => goToMove(Number(event.target.value)));
  document.addEventListener('keydown', onKey);
}
