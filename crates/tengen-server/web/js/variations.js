// Variations: a click on a finished or imported game's board plays a line from the position
// shown (GET /api/games/{id}?at=N&then=…, checked by the rules); the lines form a tree (a Map
// of their starting move number to nodes whose children are keyed by move), downloaded as the
// SGF's branches.
import { $, say, tag } from './dom.js';
import { t, refusal } from './i18n.js';
import { S, render, ticket } from './store.js';
import { api } from './api.js';
import { goToMove } from './game.js';
import { studyOpen } from './review.js';

export function resetVariations() {
  S.line = null;
  S.tree = new Map();
}

// A record's own variations join the tree (GET /api/games/{id}/info gives them as lines).
export function addLines(lines) {
  for (const { at, moves } of lines ?? []) treeNode(at, moves, true);
}

function treeNode(at, moves, create) {
  if (!S.tree.has(at)) {
    if (!create) return null;
    S.tree.set(at, { children: new Map() });
  }
  let node = S.tree.get(at);
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
  for (const [at, root] of S.tree) {
    const stack = [[root, []]];
    while (stack.length) {
      const [node, moves] = stack.pop();
      if (!node.children.size && moves.length) out.push({ at, moves });
      for (const [m, child] of node.children) stack.push([child, [...moves, m]]);
    }
  }
  return out;
}

// Shows the position after `moves` played from move `at` of the main line.
async function goTo(at, moves) {
  if (!moves.length) return goToMove(at);
  const id = S.gameId, fresh = ticket('position');
  try {
    const v = await api('GET', `/api/games/${id}?at=${at}&then=${encodeURIComponent(moves.join(','))}`);
    if (id !== S.gameId || !fresh()) return undefined;
    treeNode(at, moves, true);
    S.line = { at, moves };
    S.reviewAt = at === S.view.moves ? null : at;
    S.shown = v;
    say('');
    render();
  } catch (e) {
    say(refusal(e), true);
  }
  return undefined;
}

export function playVariation(vertex) {
  const base = S.line ?? { at: S.reviewAt ?? S.view.moves, moves: [] };
  return goTo(base.at, [...base.moves, vertex]);
}

// One move back or forward (the first branch) in the variation shown.
export function stepVariation(step) {
  const { at, moves } = S.line;
  if (step < 0) return goTo(at, moves.slice(0, -1));
  const next = firstChild(at, moves);
  return next ? goTo(at, [...moves, next]) : undefined;
}

export function renderVariations() {
  const box = $('#variations');
  box.textContent = '';
  box.hidden = !S.view || !studyOpen();
  if (box.hidden) return;
  const line = S.line;
  box.append(tag('p', 'hint', line ? t('in_variation', line.moves.length, line.at) : t('click_to_vary')));
  if (!S.tree.size) return;
  box.append(tag('h3', '', t('variations')));
  const back = tag('button', '', t('main_line'));
  back.type = 'button';
  back.id = 'main-line';
  back.disabled = !line;
  back.addEventListener('click', () => goToMove(line ? line.at : S.reviewAt ?? S.view.moves));
  box.append(back);
  const list = tag('ul', 'variation-tree');
  for (const [at, root] of [...S.tree].sort((a, b) => a[0] - b[0])) {
    const li = tag('li');
    li.append(tag('span', 'from', t('from_move', at)));
    branches(li, at, [], root);
    list.append(li);
  }
  box.append(list);
}

// The children of `node`: a chain of single moves on one row, a nested list where it forks.
function branches(parent, at, prefix, node) {
  const ul = tag('ul');
  for (const [m, child] of node.children) {
    const li = tag('li');
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
  const b = tag('button', 'variation-move', `${at + moves.length}.${moves.at(-1)}`);
  b.type = 'button';
  const line = S.line;
  if (line && line.at === at && line.moves.join(',') === moves.join(',')) b.classList.add('current');
  b.dataset.line = `${at}:${moves.join(',')}`;
  b.addEventListener('click', () => goTo(at, moves));
  return b;
}

// The SGF, with the variations played here as branches of its tree.
async function downloadWithVariations(event) {
  if (!S.tree.size) return;
  event.preventDefault();
  const id = S.gameId;
  try {
    const response = await fetch(`/api/games/${id}/sgf`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ variations: treeLines() }),
    });
    if (!response.ok) throw new Error((await response.json()).detail);
    const url = URL.createObjectURL(await response.blob());
    const a = tag('a');
    a.href = url;
    a.download = `tengen-${id}.sgf`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (e) {
    say(refusal(e), true);
  }
}

export function init() {
  $('#sgf').addEventListener('click', downloadWithVariations);
}
