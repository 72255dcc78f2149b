// @ts-check
// views/analysis.js: the post-game analysis panel of the game and replay pages: a button
// (games against the AI are analysed by the server by itself when the room has the setting
// auto_analysis, chosen in the New game dialog), progress while the server analyses, the
// evaluation graph with the marked moves, and for the position shown the engine's best
// move and line (drawn on the board on request). While the analysis is queued or runs it
// follows the server's stream of it (EventSource), or polls when the browser has none or
// the stream fails (docs/protocol.md, "Analysis").
import { h, s } from '../dom.js';
import { t } from '../i18n.js';
import * as api from '../api.js';
import { graphPoints, graphPaths, plyAt, marked, overlay, percent, follow } from '../analysismodel.js';

/** @typedef {import('../analysismodel.js').AResult} AResult */

const W = 300;
const H = 80;
const POLL_MS = 1000;

/** AnalysisPanel fetches and draws a game's analysis; `go(n)` shows the position after n moves. */
export class AnalysisPanel {
  /**
   * @param {string} roomId
   * @param {{go: (n: number) => void, changed: () => void, error: (e: any) => void}} on
   */
  constructor(roomId, on) {
    this.roomId = roomId;
    this.on = on;
    this.el = h('section.analysis', { id: 'analysis', 'aria-label': t('analysis.title') });
    /** @type {AResult | null} */
    this.result = null;
    /** idle (nothing asked), loading, queued, running, done, none (not analysed) */
    this.state = 'idle';
    this.game = 0;
    this.showLine = false;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.stopped = false;
    /** @type {EventSource | null} the stream following the analysis */
    this.es = null;
    this.streamFailed = typeof EventSource === 'undefined';
  }

  /**
   * sync follows the game: a finished game's analysis is looked up once (the server may be
   * analysing it by itself, or another viewer asked for it).
   * @param {{phase: string, gameNo: number}} g
   */
  sync(g) {
    if (g.phase !== 'over') {
      if (this.state !== 'idle') this.reset();
      return;
    }
    if (this.game === g.gameNo && this.state !== 'idle') return;
    this.reset();
    this.game = g.gameNo;
    this.fetch();
  }

  reset() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.closeStream();
    this.result = null;
    this.state = 'idle';
    this.game = 0;
  }

  async start() {
    this.state = 'loading';
    this.on.changed();
    try {
      this.apply(await api.startAnalysis(this.roomId, this.game));
    } catch (e) {
      this.state = 'none';
      this.on.error(e);
      this.on.changed();
    }
  }

  async fetch() {
    this.state = 'loading';
    const game = this.game;
    try {
      const r = await api.getAnalysis(this.roomId, game);
      if (game === this.game) this.apply(r);
    } catch (e) {
      if (game !== this.game || this.stopped) return;
      this.state = 'none';
      if (e.code !== 'not_found') this.on.error(e);
      this.on.changed();
    }
  }

  /** @param {AResult & {game: number}} r */
  apply(r) {
    if (this.stopped || r.game !== this.game) return;
    this.result = r;
    if (r.status === 'done') this.state = 'done';
    else this.state = r.status === 'queued' ? 'queued' : 'running';
    const step = follow(r.status, this.es ? 'open' : this.streamFailed ? 'failed' : 'closed');
    if (step === 'stream') this.openStream();
    else if (step === 'start' || step === 'poll') {
      // A stopped analysis (its node went away) is resumed by asking again.
      const next = step === 'start' ? () => this.start() : () => this.fetch();
      this.timer = setTimeout(() => { this.timer = null; next(); }, POLL_MS);
    }
    this.on.changed();
  }

  /** openStream follows the analysis of the game shown; a failed stream falls back to polling. */
  openStream() {
    const es = new EventSource(api.analysisStreamURL(this.roomId, this.game));
    this.es = es;
    /** @param {Event} e */
    const read = (e) => JSON.parse(/** @type {MessageEvent} */ (e).data);
    es.addEventListener('analysis', (e) => this.apply(read(e)));
    es.addEventListener('end', (e) => {
      // The last state: done, stopped, or still running when the stream reached its
      // time limit (then apply opens a new one).
      this.closeStream();
      this.apply(read(e));
    });
    es.onerror = () => {
      if (this.es !== es) return;
      this.closeStream();
      this.streamFailed = true;
      this.timer = setTimeout(() => { this.timer = null; this.fetch(); }, POLL_MS);
    };
  }

  closeStream() {
    if (this.es) this.es.close();
    this.es = null;
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.closeStream();
  }

  /**
   * boardOverlay is the best move and line to draw on the board at n moves.
   * @param {number} n
   * @param {number} size
   */
  boardOverlay(n, size) {
    return this.state === 'idle' ? { hint: null, pv: [] } : overlay(this.result, n, size, this.showLine);
  }

  /**
   * @param {boolean} over the game is finished
   * @param {number} n moves shown
   */
  render(over, n) {
    if (!over || this.state === 'idle') { this.el.replaceChildren(); return; }
    const r = this.result;
    const head = h('h2.analysis-title', t('analysis.title'));
    if (this.state === 'none' || this.state === 'loading') {
      this.el.replaceChildren(head, h('button.btn', { type: 'button', id: 'analysis-start', disabled: this.state === 'loading', onclick: () => this.start() }, t('analysis.start')));
      return;
    }
    const done = r ? r.positions.length : 0;
    const total = r ? r.total : 0;
    let progress;
    if (this.state === 'queued') progress = h('p.muted', { id: 'analysis-progress', role: 'status' }, t('analysis.queued'));
    else if (this.state === 'running') progress = h('p.muted', { id: 'analysis-progress', role: 'status' }, t('analysis.progress', { done, total }));
    else progress = h('a.btn.btn-sm', { href: api.analysisSGFURL(this.roomId, this.game), download: '', id: 'analysis-sgf' }, t('analysis.sgf'));
    this.el.replaceChildren(head, this.graph(r, n), progress, this.here(r, n), this.markList(r));
  }

  /**
   * @param {AResult | null} r
   * @param {number} n
   */
  graph(r, n) {
    if (!r) return null;
    const pts = graphPoints(r, W, H);
    const { line, area } = graphPaths(pts, H);
    const span = Math.max(1, r.total - 1);
    const cx = Math.round((n / span) * W * 10) / 10;
    const svg = s('svg.eval-graph', { id: 'analysis-graph', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('analysis.graph') },
      s('rect.eval-bg', { x: 0, y: 0, width: W, height: H }),
      s('path.eval-area', { d: area }),
      s('line.eval-mid', { x1: 0, y1: H / 2, x2: W, y2: H / 2 }),
      s('path.eval-line', { d: line }),
      s('line.eval-now', { x1: cx, y1: 0, x2: cx, y2: H }),
      pts.filter((p) => p.mark).map((p) => s('circle', { class: `eval-mark mark-${p.mark}`, cx: p.x, cy: p.y, r: 3.5 })));
    svg.addEventListener('click', (e) => {
      const box = svg.getBoundingClientRect();
      if (box.width > 0) this.on.go(plyAt(((e.clientX - box.left) / box.width) * W, W, r.total));
    });
    return svg;
  }

  /**
   * here describes the position shown: black's chances, the move played and its mark, the
   * engine's best move and line (a button draws the line on the board).
   * @param {AResult | null} r
   * @param {number} n
   */
  here(r, n) {
    const p = r && r.positions[n];
    if (!p) return h('p.muted', { id: 'analysis-here' }, r && n < r.total ? t('analysis.pending') : '');
    const rows = [h('div', null, t('analysis.black', { p: percent(p.black) }))];
    if (p.forced) rows.push(h('div.forced', null, t(`analysis.forced.${p.forced.kind}`, { color: t(`color.${p.to_move}`), line: p.forced.line.filter(Boolean).join(' ') })));
    if (p.played) {
      rows.push(h('div', null, t('analysis.played', { point: p.played }),
        p.mark ? h(`span.mark.mark-${p.mark}`, null, ` ${t(`analysis.mark.${p.mark}`)} (−${Math.round((p.drop || 0) * 100)}%)`) : null));
    }
    if (p.best) {
      rows.push(h('div', null, t('analysis.best', { point: p.best }), ' ',
        h('button.btn.btn-sm', { type: 'button', id: 'analysis-line', 'aria-pressed': String(this.showLine), onclick: () => { this.showLine = !this.showLine; this.on.changed(); } },
          this.showLine ? t('analysis.hideLine') : t('analysis.showLine')),
        h('span.muted', null, ` ${(p.pv || []).filter(Boolean).join(' ')}`)));
    }
    return h('div.analysis-here', { id: 'analysis-here' }, rows);
  }

  /** @param {AResult | null} r */
  markList(r) {
    if (!r) return null;
    const ms = marked(r);
    if (!ms.length) return h('p.muted', { id: 'analysis-marks' }, this.state === 'done' ? t('analysis.clean') : '');
    return h('ol.analysis-marks', { id: 'analysis-marks' }, ms.map((m) => h('li', null,
      h('button', { type: 'button', class: `mark-${m.mark}`, onclick: () => this.on.go(m.ply) },
        `${m.n}. ${t(`color.${m.color}`)} ${m.point} — ${t(`analysis.mark.${m.mark}`)}`))));
  }
}
