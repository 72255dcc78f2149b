// @ts-check
// views/archive.js: the replay page of one finished game of a room (/r/{id}?game=N),
// drawn from the game's record (GET /api/rooms/{id}/record?format=json): board, replay
// controls, the engine's analysis (as on the game page), moves, players, result, downloads
// and the room's other games. Every game of a room stays replayable after rematches, as
// long as the room is kept.
import { h, fill, toast } from '../dom.js';
import { t, onLang } from '../i18n.js';
import { gameRecord, recordURL } from '../api.js';
import { BoardView } from '../board.js';
import { fromSnapshot, stonesAt, winLine } from '../state.js';
import { status } from '../statusline.js';
import { formatTimeControl } from '../clock.js';
import { ReplayView } from './replay.js';
import { AnalysisPanel } from './analysis.js';
import { MoveListView } from './movelist.js';
import { StatusView } from './status.js';
import { seatName, stoneIcon } from './players.js';
import { fatalPage } from './fatal.js';
import { errorText } from '../errors.js';

/** Autoplay: one move every STEP_MS. */
const STEP_MS = 900;

/**
 * @typedef {Object} GameRecord a game as GET /api/rooms/{id}/record?format=json serves it
 * @property {string} room
 * @property {number} game
 * @property {number} games
 * @property {import('../protocol.js').Settings} settings
 * @property {import('../protocol.js').SeatInfo} black
 * @property {import('../protocol.js').SeatInfo} white
 * @property {string[]} moves
 * @property {number} [opening_plies]
 * @property {string} [result]
 * @property {string} [reason]
 * @property {string[]} [line]
 * @property {number} [started_at]
 * @property {number} [ended_at]
 */

/**
 * fromRecord builds the page's game model from a record (the model of a finished game
 * the live page would have).
 * @param {GameRecord} rec
 * @returns {import('../state.js').Game}
 */
export function fromRecord(rec) {
  return fromSnapshot(/** @type {import('../protocol.js').Snapshot} */ (/** @type {unknown} */ ({
    id: rec.room, seq: 0, game: rec.game, phase: rec.result ? 'over' : 'playing', status: rec.result ? 'finished' : 'live',
    settings: rec.settings, black: rec.black, white: rec.white, moves: rec.moves, ply: rec.moves.length,
    opening_plies: rec.opening_plies || 0, result: rec.result || '', reason: rec.reason || '', line: rec.line || [],
    created_at: 0, updated_at: 0,
  })));
}

/**
 * gamesOf lists the links to every game of a room: [{n, href, current}], game 1 first.
 * The last game links to the room itself (the live page shows it, rematch included).
 * @param {string} roomId
 * @param {number} games
 * @param {number} current the game shown (0: none)
 */
export function gamesOf(roomId, games, current) {
  const base = `/r/${encodeURIComponent(roomId)}`;
  const out = [];
  for (let n = 1; n <= games; n++) out.push({ n, href: n === games ? base : `${base}?game=${n}`, current: n === current });
  return out;
}

/**
 * gamesNav draws the links to a room's games (nothing for a room of one game).
 * @param {string} roomId
 * @param {number} games
 * @param {number} current
 */
export function gamesNav(roomId, games, current) {
  if (games < 2) return null;
  return h('nav.games', { id: 'room-games', 'aria-label': t('archive.games') }, h('span.muted', `${t('archive.games')}:`),
    gamesOf(roomId, games, current).map((g) => (g.current
      ? h('span.btn.btn-sm.current', { 'aria-current': 'page' }, String(g.n))
      : h('a.btn.btn-sm', { href: g.href, id: `game-link-${g.n}` }, String(g.n)))));
}

/**
 * renderArchive draws game n of room roomId into main and returns its teardown.
 * @param {HTMLElement} main
 * @param {string} roomId
 * @param {number} n
 * @param {{navigate: (path: string, replace?: boolean) => void}} ctx
 */
export function renderArchive(main, roomId, n, ctx) {
  let closed = false;
  /** @type {ReturnType<typeof setInterval> | null} */
  let timer = null;
  /** @type {import('../state.js').Game | null} */
  let g = null;
  /** @type {GameRecord | null} */
  let rec = null;
  let shown = 0;
  const board = new BoardView({ size: 15 });
  const statusView = new StatusView();
  const stop = () => { if (timer) clearInterval(timer); timer = null; };
  const go = (/** @type {number} */ k) => {
    if (!g) return;
    shown = Math.max(0, Math.min(k, g.moves.length));
    if (shown === g.moves.length) stop();
    draw();
  };
  const replay = new ReplayView({
    go: (k) => { stop(); go(k); },
    toggle: () => {
      if (timer) { stop(); draw(); return; }
      if (g && shown >= g.moves.length) shown = 0;
      timer = setInterval(() => go(shown + 1), STEP_MS);
      draw();
    },
  });
  const moves = new MoveListView((k) => { stop(); go(k); });
  const analysis = new AnalysisPanel(roomId, {
    go: (k) => { stop(); go(k); }, changed: () => draw(), error: (e) => toast(errorText(e.code, e.message), 'error'),
  });
  const side = h('div.side', { id: 'archive-side' });
  main.replaceChildren(h('div.game.archive', { id: 'archive' },
    h('div.board-col', null, statusView.el, board.el, replay.el, analysis.el),
    h('aside.side', { 'aria-label': t('app.title') }, side, moves.el)));

  function draw() {
    if (closed || !g || !rec) return;
    board.setSize(g.size);
    analysis.sync({ phase: 'over', gameNo: rec.game });
    board.render({ stones: stonesAt(g, shown), last: lastAt(g, shown), win: shown === g.moves.length ? winLine(g) : [], numbers: false, forbidden: [], pending: [], preview: null,
      ...analysis.boardOverlay(shown, g.size) });
    statusView.render(status(g, 'spectator'));
    replay.render(true, shown, g.moves.length, !!timer);
    analysis.render(true, shown);
    moves.render(g.moves, shown, false);
    const id = rec.room;
    const seat = (/** @type {'black' | 'white'} */ c) => h('li.archive-seat', { dataset: { color: c } }, stoneIcon(c), ' ',
      g.seats[c] && g.seats[c].player_id
        ? h('a.name', { href: `/@/id/${encodeURIComponent(g.seats[c].player_id)}` }, seatName(g.seats[c]))
        : h('span.name', seatName(g.seats[c])));
    const file = `gomoku-${id}-${rec.game}`;
    fill(side,
      h('h2', { id: 'archive-title' }, t('archive.title', { n: rec.game, total: rec.games })),
      h('ul.archive-seats', null, seat('black'), seat('white')),
      h('div.info-row', { id: 'info' },
        h('span', `${t('game.rule')}: ${t(`rule.${g.rule}`)}`),
        h('span', `${t('game.size')}: ${g.size}×${g.size}`),
        h('span', `${t('game.time')}: ${formatTimeControl(g.time)}`),
        rec.started_at ? h('span', { id: 'archive-date' }, new Date(rec.started_at).toLocaleString()) : null),
      h('div.links', null,
        h('a.btn.btn-sm', { href: recordURL(id, 'sgf', rec.game), download: `${file}.sgf`, id: 'dl-sgf' }, `${t('replay.download')} SGF`),
        h('a.btn.btn-sm', { href: recordURL(id, 'psq', rec.game), download: `${file}.psq`, id: 'dl-psq' }, 'PSQ'),
        h('a.btn.btn-sm', { href: `/r/${encodeURIComponent(id)}`, id: 'archive-room' }, t('archive.room'))),
      gamesNav(id, rec.games, rec.game));
    document.title = `${t('archive.title', { n: rec.game, total: rec.games })} · ${t('app.title')}`;
  }

  if (!Number.isInteger(n) || n < 1) {
    fatalPage(main, 'archive.none', 'archive.none.text');
    return () => { closed = true; };
  }
  gameRecord(roomId, n).then((r) => {
    if (closed) return;
    // The game in play is the live page's.
    if (!r.result && r.game === r.games) { ctx.navigate(`/r/${encodeURIComponent(roomId)}`, true); return; }
    rec = r;
    g = fromRecord(r);
    shown = g.moves.length;
    draw();
  }, (e) => {
    if (closed) return;
    if (e.code === 'no_such_room') fatalPage(main, 'game.gone', 'game.gone.text');
    else if (e.code === 'no_such_game' || e.code === 'bad_request') fatalPage(main, 'archive.none', 'archive.none.text');
    else main.replaceChildren(h('p.muted', { id: 'archive-error' }, errorText(e.code, e.message)));
  });
  const offLang = onLang(() => { board.relabel(); draw(); });
  return () => { closed = true; stop(); analysis.stop(); offLang(); };
}

/**
 * lastAt is the last stone on the board after k moves, for its mark.
 * @param {import('../state.js').Game} g
 * @param {number} k
 */
function lastAt(g, k) {
  const m = k > 0 ? g.moves[k - 1] : null;
  return m && m.x >= 0 ? { x: m.x, y: m.y } : null;
}
