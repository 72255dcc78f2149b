// gameui.js: DOM builders for the game page's side panels (player cards, offers, AI panel,
// move list, chat, replay bar). They take plain data and callbacks; game.js owns the state.
import { h, s } from './dom.js';
import { t, levelName } from './i18n.js';
import { formatClock, isLow } from './clock.js';

/** stoneIcon draws a small stone. */
export function stoneIcon(color) {
  return s('svg.stone-icon', { viewBox: '0 0 30 30', 'aria-hidden': 'true' },
    s('circle', { cx: 15, cy: 15, r: 13, fill: color === 'black' ? '#151515' : '#f4f1ea', stroke: color === 'black' ? '#000' : '#999', 'stroke-width': 1 }));
}

/** seatName returns the display name of a seat. */
export function seatName(seat) {
  if (!seat) return t('seat.open');
  if (seat.kind !== 'human') return seat.level ? t('seat.ai', { level: levelName(seat.level) }) : seat.name;
  return seat.name;
}

/**
 * playerCard builds one player card.
 * p: {color, seat, you, toMove, clockMs, baseMs, presence:{connected, remainingMs, claimable}|null,
 *     canClaim, onClaim, canSit, onSit}
 */
export function playerCard(p) {
  const low = p.toMove && isLow(p.clockMs, p.baseMs);
  const sub = [h('span', t(`color.${p.color}`))];
  if (p.seat && p.seat.kind === 'human' && p.presence) {
    sub.push(h('span', null, h('i.conn-dot', { class: p.presence.connected ? '' : 'off', 'aria-hidden': 'true' }), ' ',
      t(p.presence.connected ? 'conn.online' : 'conn.offline')));
  }
  const card = h('section.card.pcard', { class: p.toMove ? 'to-move' : '', 'aria-label': `${t(`color.${p.color}`)}: ${seatName(p.seat)}`, dataset: { color: p.color } },
    stoneIcon(p.color),
    h('div.pname', null, h('span', { title: seatName(p.seat) }, seatName(p.seat)), p.you ? h('span.badge', t('seat.you')) : null,
      p.seat && p.seat.kind !== 'human' ? h('span.badge.badge-ai', 'AI') : null),
    h('div.psub', sub),
    h('div.clock', { class: low ? 'low' : '', role: 'timer', 'aria-label': `${t(`color.${p.color}`)} ${formatClock(p.clockMs)}`, dataset: { clock: p.color } }, formatClock(p.clockMs)));
  if (p.presence && !p.presence.connected && p.showAbandon) {
    const left = p.presence.remainingMs;
    card.append(h('div.claim', null,
      h('span', { dataset: { countdown: p.color } }, left > 0 ? t('conn.abandon', { time: formatClock(left) }) : ''),
      p.canClaim ? h('button.btn.btn-sm.btn-primary', { type: 'button', id: 'claim-btn', onclick: p.onClaim, disabled: left > 0 && !p.presence.claimable }, t('conn.claim')) : null));
  }
  if (p.canSit) {
    card.append(h('div.claim', null, h('button.btn.btn-sm.btn-green', { type: 'button', dataset: { sit: p.color }, onclick: p.onSit }, t('seat.take', { color: t(`color.${p.color}`) }))));
  }
  return card;
}

/** offerBox shows an offer from the opponent with accept/decline buttons (decline optional). */
export function offerBox(text, onAccept, onDecline, id) {
  return h('div.card.offer', { role: 'alert', id },
    h('span', text),
    h('span.actions', null,
      h('button.btn.btn-sm.btn-green', { type: 'button', onclick: onAccept, dataset: { answer: 'accept' } }, t('action.accept')),
      onDecline ? h('button.btn.btn-sm', { type: 'button', onclick: onDecline, dataset: { answer: 'decline' } }, t('action.decline')) : null));
}

/** formatScore renders an engine score (centi-stones, from the AI's side) or a mate. */
export function formatScore(score, mate) {
  if (mate) return mate > 0 ? t('panel.ai.mate', { n: mate }) : t('panel.ai.mated', { n: -mate });
  const v = (score || 0) / 100;
  return `${v > 0 ? '+' : ''}${v.toFixed(2)}`;
}

/** blackShare maps a score from `color`'s view to the share (0..1) of the bar that is black's. */
export function blackShare(score, mate, color) {
  let sc = mate ? (mate > 0 ? 1 : -1) * 1e6 : score || 0;
  if (color === 'white') sc = -sc;
  return 1 / (1 + Math.exp(-sc / 400));
}

function fmtNum(n) {
  if (n == null) return '–';
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

/**
 * aiPanel builds the AI thinking panel. info: last "ai" message (or null); elapsed: its
 * elapsed_ms extrapolated to now; opts: {show, pv, onShow, onPV}.
 */
export function aiPanel(info, elapsed, opts) {
  const header = h('header', null, h('h3', t('panel.ai')),
    h('label.check', null, h('input', { type: 'checkbox', id: 'ai-show', checked: opts.show, onchange: (e) => opts.onShow(e.target.checked) }), h('span.sr-only', t('panel.ai.show')), h('span', { 'aria-hidden': 'true' }, '👁')));
  if (!opts.show) return h('section.card.ai-panel', { 'aria-label': t('panel.ai') }, header);
  if (!info) {
    return h('section.card.ai-panel', { 'aria-label': t('panel.ai') }, header, h('p.muted', { style: 'margin:0' }, t('panel.ai.idle')));
  }
  const budget = info.budget_ms || 0;
  const pct = budget > 0 ? Math.min(100, (elapsed / budget) * 100) : 0;
  const share = blackShare(info.score, info.mate, info.color);
  return h('section.card.ai-panel', { 'aria-label': t('panel.ai'), id: 'ai-panel', dataset: { status: info.status || '' } },
    header,
    h('div', { class: 'muted', style: 'font-size:.85rem' }, `${t(`color.${info.color}`)} · ${info.status === 'queued' ? t('panel.ai.queued') : t('status.aiThinking')}`),
    h('div.bar', { role: 'progressbar', 'aria-label': t('panel.ai.time'), 'aria-valuemin': '0', 'aria-valuemax': String(budget), 'aria-valuenow': String(Math.round(elapsed)) },
      h('span', { style: `width:${pct.toFixed(1)}%`, id: 'ai-progress' })),
    h('dl.ai-stats', null,
      h('div', null, h('dt', t('panel.ai.depth')), h('dd', { id: 'ai-depth' }, `${info.depth || 0}${info.seldepth ? `/${info.seldepth}` : ''}`)),
      h('div', null, h('dt', t('panel.ai.nps')), h('dd', fmtNum(info.nps))),
      h('div', null, h('dt', t('panel.ai.nodes')), h('dd', fmtNum(info.nodes)))),
    h('div.evalbar', { role: 'meter', 'aria-label': t('panel.ai.eval'), 'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': String(Math.round(share * 100)) },
      h('span', { style: `width:${(share * 100).toFixed(1)}%` }), h('em', `${t(`color.${info.color}`)} ${formatScore(info.score, info.mate)}`)),
    info.pv && info.pv.length ? h('div.pv-line', null, h('strong', `${t('panel.ai.pvLabel')}: `), info.pv.join(' ')) : null,
    h('label.check', { style: 'font-size:.85rem' }, h('input', { type: 'checkbox', id: 'ai-pv', checked: opts.pv, onchange: (e) => opts.onPV(e.target.checked) }), t('panel.ai.pv')));
}

/** moveList builds the move list; current is the shown ply count; onPick(n) shows the position after n moves. */
export function moveList(moves, current, onPick) {
  const items = [];
  for (let i = 0; i < moves.length; i += 2) {
    items.push(h('li.n', `${i / 2 + 1}.`));
    for (const j of [i, i + 1]) {
      const m = moves[j];
      items.push(h('li', null, m ? h('button', { type: 'button', class: current === j + 1 ? 'current' : '', onclick: () => onPick(j + 1), 'aria-label': `${j + 1}. ${t(`color.${m.color}`)} ${m.point}` }, m.point) : ''));
    }
  }
  return h('ol.movelist', { id: 'move-list', 'aria-label': t('panel.moves') }, items);
}

/** chatLog builds the chat messages list. */
export function chatLog(messages) {
  return h('ul.chat-log', { id: 'chat-log', 'aria-live': 'polite' }, messages.map((m) => h('li', null,
    h('span.who', null, m.color ? h('i.dot', { class: `dot-${m.color}` }) : null, ' ', m.name || (m.color ? t(`color.${m.color}`) : t('chat.spectator')), ':'),
    h('span', m.text))));
}

const ICONS = {
  first: 'M5 4h2v16H5zM19 4v16L8 12z',
  prev: 'M15.5 4l2 2-6 6 6 6-2 2-8-8z',
  next: 'M8.5 4l-2 2 6 6-6 6 2 2 8-8z',
  last: 'M17 4h2v16h-2zM5 4v16l11-8z',
  play: 'M7 4v16l13-8z',
  pause: 'M6 4h4v16H6zM14 4h4v16h-4z',
};

/** icon draws a small media-control icon. */
export function icon(name) {
  return s('svg', { viewBox: '0 0 24 24', width: '16', height: '16', 'aria-hidden': 'true', fill: 'currentColor' }, s('path', { d: ICONS[name] }));
}

/** replayBar builds the replay controls. */
export function replayBar(n, total, playing, on) {
  const btn = (label, ic, fn, dis, id) => h('button.btn.btn-sm', { type: 'button', 'aria-label': t(label), title: t(label), onclick: fn, disabled: dis, id }, icon(ic));
  return h('div.replay', { role: 'group', 'aria-label': t('replay.title') },
    btn('replay.first', 'first', () => on.go(0), n === 0, 'rp-first'),
    btn('replay.prev', 'prev', () => on.go(n - 1), n === 0, 'rp-prev'),
    btn(playing ? 'replay.pause' : 'replay.play', playing ? 'pause' : 'play', on.toggle, total === 0, 'rp-play'),
    btn('replay.next', 'next', () => on.go(n + 1), n >= total, 'rp-next'),
    btn('replay.last', 'last', () => on.go(total), n >= total, 'rp-last'),
    h('input', { type: 'range', min: '0', max: String(total), value: String(n), 'aria-label': t('replay.title'), oninput: (e) => on.go(Number(e.target.value)) }),
    h('span.pos', { id: 'rp-pos' }, t('replay.position', { n, total })));
}
