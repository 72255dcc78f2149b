// @ts-check
// views/player.js: a player's page (/@/{username} for accounts, /@/id/{id} for anyone):
// ratings per pool with a rating-history chart (plain SVG), W/D/L and the latest games
// with links to their replays; and the leaderboard page (/leaderboard?pool=…).
import { h, s, fill } from '../dom.js';
import { t, onLang } from '../i18n.js';
import { call } from '../api.js';
import { fatalPage } from './fatal.js';
import { errorText } from '../errors.js';
import { deltaParams } from '../rating.js';

/**
 * playerKey reads a player page's path: {key} for GET /api/players/{key}, or null.
 * @param {string} path
 */
export function playerKey(path) {
  let m = /^\/@\/id\/([A-Za-z0-9_-]{1,64})\/?$/.exec(path);
  if (m) return m[1];
  m = /^\/@\/([A-Za-z0-9_-]{1,20})\/?$/.exec(path);
  return m ? `@${m[1]}` : null;
}

/**
 * playerPath is the page of a player: by username for an account, else by id.
 * @param {{id: string, username?: string}} p
 */
export function playerPath(p) {
  return p.username ? `/@/${encodeURIComponent(p.username)}` : `/@/id/${encodeURIComponent(p.id)}`;
}

/**
 * chartPath turns rating points into an SVG polyline's points in a w×h box (oldest on
 * the left), with the rating range it spans.
 * @param {{r: number}[]} pts
 * @param {number} w
 * @param {number} hgt
 */
export function chartPath(pts, w, hgt) {
  if (!pts.length) return { points: '', min: 0, max: 0 };
  const rs = pts.map((p) => p.r);
  let min = Math.min(...rs);
  let max = Math.max(...rs);
  if (max - min < 20) { min -= 10; max += 10; }
  const x = (/** @type {number} */ i) => (pts.length === 1 ? w / 2 : (i * w) / (pts.length - 1));
  const y = (/** @type {number} */ r) => hgt - ((r - min) / (max - min)) * hgt;
  return { points: pts.map((p, i) => `${x(i).toFixed(1)},${y(p.r).toFixed(1)}`).join(' '), min: Math.round(min), max: Math.round(max) };
}

/** @param {any} pool */
function poolName(pool) {
  return `${t(`rule.${pool.rule}`)} · ${t(`speed.${pool.speed}`)}`;
}

/** @param {any} r a pool's stats */
function chart(r) {
  const W = 300;
  const H = 80;
  const c = chartPath(r.history || [], W, H);
  return s('svg.rating-chart', { viewBox: `-4 -4 ${W + 8} ${H + 8}`, role: 'img', 'aria-label': t('player.chart', { pool: poolName(r), min: c.min, max: c.max }) },
    s('polyline', { points: c.points, fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }));
}

/**
 * changeText is a rated game's change in a player's games: the rating after it ("?"
 * while provisional) and the difference, e.g. "1662? (+162)".
 * @param {import('../protocol.js').RatingDelta} d
 */
export function changeText(d) {
  const p = deltaParams(d);
  return `${p.after} (${p.delta})`;
}

/** @param {any} o opponent side */
function opponent(o) {
  if (o.machine) return o.machine.replace(/^ai:/, 'AI ').replace(/^engine:/, '');
  if (!o.id) return '?';
  return h('a', { href: `/@/id/${encodeURIComponent(o.id)}` }, o.name || o.id);
}

/**
 * renderPlayer draws the page of player key (an id or "@username") into main.
 * @param {HTMLElement} main
 * @param {string} key
 */
export function renderPlayer(main, key) {
  let closed = false;
  /** @type {any} */
  let p = null;
  const draw = () => {
    if (closed || !p) return;
    document.title = `${p.name} · ${t('app.title')}`;
    fill(main, h('section.card.player', { id: 'player' },
      h('h2', { id: 'player-title' }, p.name, ' ', h('span.muted', p.account ? `@${p.username}` : t('player.guest'))),
      h('p', { id: 'player-wdl' }, t('player.wdl', { w: p.wins, d: p.draws, l: p.losses })),
      p.ratings.length ? h('div.ratings', { id: 'player-ratings' }, p.ratings.map((/** @type {any} */ r) => h('div.rating-pool', { dataset: { pool: r.pool } },
        h('h3', poolName(r)),
        h('p', null, h('strong.rating', r.display), ' ', h('span.muted', t('player.poolWdl', { n: r.games, w: r.wins, d: r.draws, l: r.losses }))),
        chart(r))))
        : h('p.muted', t('player.noRatings')),
      h('h3', t('player.games')),
      p.games.length ? h('table.games', { id: 'player-games' },
        h('thead', null, h('tr', null, ['player.opponent', 'player.result', 'game.rule', 'player.change', ''].map((k) => h('th', k ? t(k) : '')))),
        h('tbody', null, p.games.map((/** @type {any} */ g) => h('tr', null,
          h('td', null, opponent(g.opponent)),
          h('td', { class: `res-${g.result}` }, t(`player.res.${g.result}`)),
          h('td', t(`rule.${g.rule}`)),
          h('td', { class: 'change' }, g.change ? changeText(g.change) : (g.rated ? '' : t('player.casual'))),
          h('td', null, h('a.btn.btn-sm', { href: g.replay }, t('lobby.replay')))))))
        : h('p.muted', t('player.noGames'))));
  };
  call('GET', `/api/players/${encodeURIComponent(key).replace(/^%40/, '@')}`).then((res) => { p = res; draw(); }, (e) => {
    if (closed) return;
    if (e.code === 'not_found') fatalPage(main, 'player.none', 'player.none.text');
    else main.replaceChildren(h('p.muted', errorText(e.code, e.message)));
  });
  const off = onLang(draw);
  return () => { closed = true; off(); };
}

/**
 * renderLeaderboard draws the leaderboard of a pool (default freestyle-blitz) into main.
 * @param {HTMLElement} main
 * @param {string} pool
 * @param {(path: string) => void} navigate
 */
export function renderLeaderboard(main, pool, navigate) {
  let closed = false;
  /** @type {any} */
  let b = null;
  const draw = () => {
    if (closed || !b) return;
    document.title = `${t('leaders.title')} · ${t('app.title')}`;
    const sel = h('select', { id: 'board-pool', 'aria-label': t('leaders.pool'), onchange: (/** @type {Event} */ e) => navigate(`/leaderboard?pool=${/** @type {HTMLSelectElement} */ (e.target).value}`) },
      b.pools.map((/** @type {string} */ id) => {
        const [rule, speed] = id.split('-');
        return h('option', { value: id, selected: id === b.pool }, poolName({ rule, speed }));
      }));
    fill(main, h('section.card.leaderboard', { id: 'leaderboard' },
      h('h2', t('leaders.title')), sel,
      b.players.length ? h('table.games', { id: 'board-rows' },
        h('thead', null, h('tr', null, ['#', t('leaders.player'), t('leaders.rating'), t('leaders.games')].map((x) => h('th', x)))),
        h('tbody', null, b.players.map((/** @type {any} */ r) => h('tr', null, h('td', String(r.rank)),
          h('td', null, h('a', { href: `/@/id/${encodeURIComponent(r.id)}` }, r.name)), h('td', r.display),
          h('td', t('player.poolWdl', { n: r.games, w: r.wins, d: r.draws, l: r.losses }))))))
        : h('p.muted', t('leaders.empty'))));
  };
  call('GET', `/api/leaderboard?pool=${encodeURIComponent(pool || 'freestyle-blitz')}`).then((res) => { b = res; draw(); }, (e) => {
    if (!closed) main.replaceChildren(h('p.muted', errorText(e.code, e.message)));
  });
  const off = onLang(draw);
  return () => { closed = true; off(); };
}
