// A player's page: the ranks and ratings by board size, a rating graph (SVG), the games.
import { $, tag } from './dom.js';
import { t, colorName } from './i18n.js';
import { api } from './api.js';
import { S } from './store.js';

const SVG = 'http://www.w3.org/2000/svg';

function svg(name, attrs) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// The rating after each rated game, one line per board size.
function graph(history) {
  const box = $('#player-graph');
  box.textContent = '';
  if (!history.length) return;
  const [w, h, pad] = [600, 180, 30];
  const values = history.flatMap((c) => [c.before.rating, c.after.rating]);
  const lo = Math.min(...values) - 50, hi = Math.max(...values) + 50;
  const chart = svg('svg', { viewBox: `0 0 ${w} ${h}`, class: 'rating-graph', role: 'img', 'aria-label': t('rating_graph') });
  const y = (r) => h - pad - ((r - lo) / (hi - lo)) * (h - 2 * pad);
  const x = (i) => pad + (i / Math.max(1, history.length)) * (w - 2 * pad);
  for (const r of [lo + 50, (lo + hi) / 2, hi - 50]) {
    chart.append(svg('line', { x1: pad, x2: w - pad, y1: y(r), y2: y(r), class: 'grid' }));
    const label = svg('text', { x: 2, y: y(r) + 4, class: 'axis' });
    label.textContent = Math.round(r);
    chart.append(label);
  }
  for (const size of [...new Set(history.map((c) => c.size))]) {
    const points = [];
    history.forEach((c, i) => {
      if (c.size !== size) return;
      if (!points.length) points.push(`${x(i)},${y(c.before.rating)}`);
      points.push(`${x(i + 1)},${y(c.after.rating)}`);
    });
    chart.append(svg('polyline', { points: points.join(' '), class: `size-${size}`, 'data-size': size }));
  }
  box.append(chart);
}

export async function openPlayer(name) {
  $('#player-name').textContent = name;
  $('#player-ratings').textContent = '';
  $('#player-games').textContent = '';
  $('#player-graph').textContent = '';
  let profile, history;
  try {
    [profile, history] = await Promise.all([
      api('GET', `/api/players/${encodeURIComponent(name)}`),
      api('GET', `/api/players/${encodeURIComponent(name)}/ratings`),
    ]);
  } catch (e) {
    $('#player-ratings').append(tag('p', 'error', t('no_player')));
    return;
  }
  document.title = `${profile.name} · tengen 天元`;
  $('#player-name').dataset.name = profile.name;
  $('#player-challenge').hidden = !S.me || S.me.name === profile.name || profile.deleted;
  $('#player-name').textContent = profile.deleted ? `${profile.name} ${t('deleted_mark')}` : profile.name;
  const table = tag('table', 'ratings');
  const head = tag('tr');
  for (const k of ['size_col', 'rank_col', 'rating_col', 'record_col']) {
    const th = tag('th', '', t(k));
    th.dataset.t = k; // switched with the language
    head.append(th);
  }
  table.append(head);
  for (const r of profile.ratings) {
    const row = tag('tr');
    row.dataset.size = r.size;
    row.append(tag('td', '', `${r.size}×${r.size}`), tag('td', 'rank', r.rank),
      tag('td', '', `${Math.round(r.rating)} ± ${Math.round(r.deviation)}`), tag('td', '', `${r.wins}–${r.losses}`));
    table.append(row);
  }
  const none = tag('p', 'hint', t('no_rated'));
  none.dataset.t = 'no_rated';
  $('#player-ratings').append(profile.ratings.length ? table : none);
  graph(history);
  // The games in play first.
  const games = [...profile.games].sort((a, b) => (a.phase === 'ended') - (b.phase === 'ended'));
  for (const g of games) {
    const li = tag('li');
    const a = tag('a', '', `${g.black} – ${g.white}`);
    a.href = `/games/${g.id}`;
    const what = [`${g.size}×${g.size}`, colorName(g.color), g.result || t(g.phase === 'ended' ? 'ended' : 'in_play')];
    li.append(a, tag('span', 'hint', ` · ${what.join(' · ')}`));
    $('#player-games').append(li);
  }
}
