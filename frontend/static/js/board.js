// @ts-check
// board.js: the SVG board (wooden board, coordinates, star points, stones, marks, hover
// preview, keyboard cursor). Rendering only: it draws the model session.js derives.
import { s, h } from './dom.js';
import { layout, coordLabels, pointToPixel, pixelToPoint, starPoints, colLetter, toNotation, moveCursor, centre, STONE_RADIUS } from './geometry.js';
import { t } from './i18n.js';

const VB = 1000;
let uid = 0;

/** BoardView draws a board and reports plays through onPlay(x, y). */
export class BoardView {
  /** @param {{size?: number, onPlay?: (x: number, y: number) => void}} [opts] */
  constructor({ size = 15, onPlay = () => {} } = {}) {
    this.id = `b${++uid}`;
    this.onPlay = onPlay;
    this.model = { stones: [] };
    this.hover = null;
    this.cursor = null;
    this.svg = s('svg.board', {
      viewBox: `0 0 ${VB} ${VB}`, tabindex: '0', role: 'application',
      'aria-roledescription': 'board', focusable: 'true',
    });
    this.live = h('p.sr-only', { 'aria-live': 'polite' });
    this.el = h('div.board-wrap', this.svg, this.live);
    this.svg.addEventListener('pointermove', (e) => this.onPointer(e));
    this.svg.addEventListener('pointerleave', () => { this.hover = null; this.drawOverlay(); });
    this.svg.addEventListener('click', (e) => this.onClick(e));
    this.svg.addEventListener('keydown', (e) => { this.keyboard = true; this.onKey(e); });
    this.svg.addEventListener('pointerdown', () => { this.keyboard = false; this.pointerAt = Date.now(); });
    this.svg.addEventListener('focus', () => {
      this.keyboard = !(this.pointerAt && Date.now() - this.pointerAt < 500);
      if (!this.cursor) this.cursor = this.model.last ? { ...this.model.last } : centre(this.size);
      this.drawOverlay();
      this.announce();
    });
    this.svg.addEventListener('blur', () => this.drawOverlay());
    this.setSize(size);
  }

  /** setSize rebuilds the static layers for a new board size. */
  setSize(size) {
    if (this.size === size) return;
    this.size = size;
    this.geo = layout(size, VB);
    this.cursor = null;
    this.svg.replaceChildren(this.defs(), this.background(), this.grid());
    this.stoneLayer = s('g.stones');
    this.markLayer = s('g.marks');
    this.overlay = s('g.overlay');
    this.svg.append(this.stoneLayer, this.markLayer, this.overlay);
    this.relabel();
  }

  relabel() {
    this.svg.setAttribute('aria-label', t('board.label', { size: this.size }));
  }

  defs() {
    const id = this.id;
    return s('defs', null,
      s('radialGradient', { id: `${id}-bs`, cx: '35%', cy: '30%', r: '70%' },
        s('stop', { offset: '0%', 'stop-color': '#6b6b6b' }),
        s('stop', { offset: '45%', 'stop-color': '#1e1e1e' }),
        s('stop', { offset: '100%', 'stop-color': '#000' })),
      s('radialGradient', { id: `${id}-ws`, cx: '35%', cy: '30%', r: '75%' },
        s('stop', { offset: '0%', 'stop-color': '#ffffff' }),
        s('stop', { offset: '70%', 'stop-color': '#ecebe6' }),
        s('stop', { offset: '100%', 'stop-color': '#bdb8ad' })),
      s('linearGradient', { id: `${id}-wood`, x1: '0', y1: '0', x2: '1', y2: '1' },
        s('stop', { offset: '0%', 'stop-color': '#e9be7c' }),
        s('stop', { offset: '55%', 'stop-color': '#dcaa62' }),
        s('stop', { offset: '100%', 'stop-color': '#cf9a52' })),
      s('filter', { id: `${id}-grain`, x: '0', y: '0', width: '100%', height: '100%' },
        s('feTurbulence', { type: 'fractalNoise', baseFrequency: '0.003 0.06', numOctaves: '3', seed: '7', result: 'n' }),
        s('feColorMatrix', { in: 'n', type: 'matrix', values: '0 0 0 0 0.45  0 0 0 0 0.27  0 0 0 0 0.08  0 0 0 0.55 -0.12' })),
    );
  }

  background() {
    return s('g.bg', null,
      s('rect', { x: 0, y: 0, width: VB, height: VB, rx: 18, fill: `url(#${this.id}-wood)` }),
      s('rect', { x: 0, y: 0, width: VB, height: VB, rx: 18, filter: `url(#${this.id}-grain)`, opacity: '0.9' }),
      s('rect', { x: 1.5, y: 1.5, width: VB - 3, height: VB - 3, rx: 17, fill: 'none', stroke: 'rgba(80,45,10,.45)', 'stroke-width': 3 }));
  }

  grid() {
    const { size, margin, cell } = this.geo;
    const g = s('g.grid');
    const end = margin + (size - 1) * cell;
    for (let i = 0; i < size; i++) {
      const p = margin + i * cell;
      const edge = i === 0 || i === size - 1;
      g.append(s('line', { x1: margin, y1: p, x2: end, y2: p, class: edge ? 'edge' : '' }));
      g.append(s('line', { x1: p, y1: margin, x2: p, y2: end, class: edge ? 'edge' : '' }));
    }
    for (const sp of starPoints(size)) {
      const { px, py } = pointToPixel(sp.x, sp.y, this.geo);
      g.append(s('circle.star', { cx: px, cy: py, r: cell * 0.11 }));
    }
    const lab = coordLabels(this.geo);
    const text = (x, y, label) => s('text.coord', { x, y, 'font-size': lab.fontSize, 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, label);
    for (let i = 0; i < size; i++) {
      const { px } = pointToPixel(i, 0, this.geo);
      const { py } = pointToPixel(0, i, this.geo);
      g.append(text(px, lab.top, colLetter(i)), text(px, lab.bottom, colLetter(i)));
      g.append(text(lab.left, py, String(i + 1)), text(lab.right, py, String(i + 1)));
    }
    return g;
  }

  stone(x, y, color, cls = '') {
    const { px, py } = pointToPixel(x, y, this.geo);
    const r = this.geo.cell * STONE_RADIUS;
    return s('g', { class: `stone stone-${color} ${cls}`, dataset: { point: toNotation(x, y) } },
      s('circle.shadow', { cx: px + r * 0.08, cy: py + r * 0.12, r }),
      s('circle', { cx: px, cy: py, r, fill: `url(#${this.id}-${color === 'black' ? 'bs' : 'ws'})` }));
  }

  /**
   * render draws a model (session.js boardModel).
   * @param {import('./session.js').BoardModel} model
   */
  render(model) {
    this.model = model;
    const { cell } = this.geo;
    const occupied = new Map(model.stones.map((st) => [`${st.x},${st.y}`, st]));
    this.occupied = occupied;
    this.forbiddenSet = new Map((model.forbidden || []).map((f) => [`${f.x},${f.y}`, f.kind]));
    const stones = [];
    for (const st of model.stones) {
      const el = this.stone(st.x, st.y, st.color);
      if (model.numbers) {
        const { px, py } = pointToPixel(st.x, st.y, this.geo);
        el.append(s('text.num', { x: px, y: py, 'font-size': cell * (st.n >= 100 ? 0.36 : 0.44), 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: st.color === 'black' ? '#f3f3f3' : '#1a1a1a' }, String(st.n)));
      }
      stones.push(el);
    }
    for (const p of model.pending || []) {
      if (!occupied.has(`${p.x},${p.y}`)) stones.push(this.stone(p.x, p.y, p.color, p.unsent ? 'pending unsent' : 'pending'));
    }
    this.stoneLayer.replaceChildren(...stones);

    const marks = [];
    for (const f of model.forbidden || []) {
      const { px, py } = pointToPixel(f.x, f.y, this.geo);
      const d = cell * 0.18;
      marks.push(s('path.forbidden', { d: `M${px - d} ${py - d}L${px + d} ${py + d}M${px + d} ${py - d}L${px - d} ${py + d}` },
        s('title', null, t(`forbidden.${f.kind}`))));
    }
    for (const p of model.pv || []) {
      if (occupied.has(`${p.x},${p.y}`)) continue;
      const el = this.stone(p.x, p.y, p.color, 'pv');
      const { px, py } = pointToPixel(p.x, p.y, this.geo);
      el.append(s('text.num', { x: px, y: py, 'font-size': cell * 0.42, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: p.color === 'black' ? '#fff' : '#111' }, String(p.n)));
      marks.push(el);
    }
    if (model.last && !model.numbers) {
      const { px, py } = pointToPixel(model.last.x, model.last.y, this.geo);
      const lastColor = (occupied.get(`${model.last.x},${model.last.y}`) || {}).color;
      marks.push(s('circle', { class: `last last-on-${lastColor}`, cx: px, cy: py, r: cell * 0.14 }));
    } else if (model.last) {
      const { px, py } = pointToPixel(model.last.x, model.last.y, this.geo);
      marks.push(s('circle.last-ring', { cx: px, cy: py, r: cell * 0.49 }));
    }
    for (const w of model.win || []) {
      const { px, py } = pointToPixel(w.x, w.y, this.geo);
      marks.push(s('circle.win', { cx: px, cy: py, r: cell * 0.5 }));
    }
    if (model.win && model.win.length >= 2) {
      const a = pointToPixel(model.win[0].x, model.win[0].y, this.geo);
      const b = pointToPixel(model.win[model.win.length - 1].x, model.win[model.win.length - 1].y, this.geo);
      marks.push(s('line.win-line', { x1: a.px, y1: a.py, x2: b.px, y2: b.py }));
    }
    if (model.hint) {
      const { px, py } = pointToPixel(model.hint.x, model.hint.y, this.geo);
      marks.push(s('circle.hint', { cx: px, cy: py, r: cell * 0.42 }));
    }
    this.markLayer.replaceChildren(...marks);
    this.svg.classList.toggle('playable', !!model.preview);
    this.drawOverlay();
  }

  drawOverlay() {
    const items = [];
    const pv = this.model.preview;
    if (this.hover && pv && !this.occupied?.has(`${this.hover.x},${this.hover.y}`)) {
      const forb = pv === 'black' && this.forbiddenSet?.has(`${this.hover.x},${this.hover.y}`);
      if (!forb) items.push(this.stone(this.hover.x, this.hover.y, pv, 'preview'));
    }
    if (this.cursor && this.keyboard && document.activeElement === this.svg) {
      const { px, py } = pointToPixel(this.cursor.x, this.cursor.y, this.geo);
      const r = this.geo.cell * 0.5;
      items.push(s('rect.cursor', { x: px - r, y: py - r, width: 2 * r, height: 2 * r, rx: r * 0.25 }));
      if (pv && !this.occupied?.has(`${this.cursor.x},${this.cursor.y}`)) items.push(this.stone(this.cursor.x, this.cursor.y, pv, 'preview'));
    }
    this.overlay.replaceChildren(...items);
  }

  pointFromEvent(e) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return null;
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    return pixelToPoint(pt.x, pt.y, this.geo);
  }

  onPointer(e) {
    if (e.pointerType === 'touch') return;
    const p = this.pointFromEvent(e);
    const same = p && this.hover && p.x === this.hover.x && p.y === this.hover.y;
    if (same || (!p && !this.hover)) return;
    this.hover = p;
    this.drawOverlay();
  }

  onClick(e) {
    const p = this.pointFromEvent(e);
    if (!p) return;
    this.cursor = p;
    this.play(p);
  }

  play(p) {
    if (!this.model.preview) return;
    if (this.occupied?.has(`${p.x},${p.y}`)) return;
    this.onPlay(p.x, p.y);
  }

  onKey(e) {
    if (!this.cursor) this.cursor = centre(this.size);
    if (e.key.startsWith('Arrow')) {
      e.preventDefault();
      this.cursor = moveCursor(this.cursor, e.key, this.size);
      this.drawOverlay();
      this.announce();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.play(this.cursor);
    }
  }

  announce() {
    if (!this.cursor) return;
    const key = `${this.cursor.x},${this.cursor.y}`;
    const point = toNotation(this.cursor.x, this.cursor.y);
    const st = this.occupied?.get(key);
    let msg = t('board.cursor', { point });
    if (st) msg = t(`board.cursor.${st.color}`, { point });
    else if (this.forbiddenSet?.has(key)) msg = t('board.cursor.forbidden', { point });
    this.live.textContent = msg;
  }

  /** say announces a message to screen readers. */
  say(msg) {
    this.live.textContent = msg;
  }
}
