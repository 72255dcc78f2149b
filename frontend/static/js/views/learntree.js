// @ts-check
// views/learntree.js: the classroom's alpha-beta tree as nested lists. Each node is a
// button that opens its children; a cut node says which bound was crossed and lists the
// moves it never searched.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { valueOf, cutReason } from '../learnmodel.js';

/** @typedef {import('../learnmodel.js').LearnNode} LearnNode */

/**
 * valueText writes a search value for people: a number, "wins in n", "loses in n", ±∞.
 * @param {number} v
 * @param {number} win
 */
export function valueText(v, win) {
  const x = valueOf(v, win);
  switch (x.kind) {
    case 'inf': return x.n > 0 ? '+∞' : '−∞';
    case 'win': return t('learn.val.win', { n: x.plies });
    case 'loss': return t('learn.val.loss', { n: x.plies });
    default: return String(x.n);
  }
}

/**
 * renderTree draws root into a list; onSelect(path) is called with the child indexes of
 * a node when it is opened or closed (the page shows its line on the board).
 * @param {LearnNode} root
 * @param {number} win
 * @param {(path: number[]) => void} onSelect
 */
export function renderTree(root, win, onSelect) {
  return h('ul.learn-tree', { role: 'tree' }, nodeItem(root, [], win, onSelect, true, true));
}

/**
 * @param {LearnNode} n
 * @param {number[]} path
 * @param {number} win
 * @param {(path: number[]) => void} onSelect
 * @param {boolean} open
 * @param {boolean} best
 */
function nodeItem(n, path, win, onSelect, open, best) {
  const kids = n.children || [];
  const hasKids = kids.length > 0 || (n.pruned || []).length > 0;
  const reason = cutReason(n);
  const label = [
    h('span.node-move', n.move ? n.move : t('learn.node.root')),
    h('span.node-kind', { class: n.max ? 'is-max' : 'is-min' }, t(n.max ? 'learn.node.max' : 'learn.node.min')),
    h('span.node-window', t('learn.node.window', { alpha: valueText(n.alpha, win), beta: valueText(n.beta, win) })),
    h('span.node-value', t('learn.node.value', { value: valueText(n.value, win) })),
    n.terminal ? h('span.node-tag', t('learn.node.terminal')) : n.leaf ? h('span.node-tag', t('learn.node.leaf')) : null,
    best && path.length > 0 ? h('span.node-tag.node-best', t('learn.node.best')) : null,
    reason ? h('span.node-cut', t(`learn.cut.badge.${n.cut_by || (n.max ? 'beta' : 'alpha')}`)) : null,
  ];
  const li = h('li.learn-node', { role: 'treeitem', dataset: { path: path.join('.') } });
  const btn = h('button.node-row', { type: 'button', 'aria-expanded': hasKids ? String(open) : null, disabled: !hasKids && path.length === 0 }, label);
  const body = h('div.node-body', { hidden: !open });
  let built = false;
  const build = () => {
    if (built) return;
    built = true;
    if (reason) {
      body.append(h('p.cut-why', t(reason.key, { value: valueText(reason.value, win), bound: valueText(reason.bound, win), moves: reason.pruned.join(', ') })));
    }
    const ul = h('ul', { role: 'group' },
      kids.map((c, i) => nodeItem(c, [...path, i], win, onSelect, false, i === n.best)),
      (n.pruned || []).map((m) => h('li.learn-node.is-pruned', h('span.node-row', h('span.node-move', m), h('span.node-tag', t('learn.node.pruned'))))));
    body.append(ul);
  };
  if (open) build();
  btn.addEventListener('click', () => {
    const nowOpen = body.hidden;
    if (hasKids) {
      if (nowOpen) build();
      body.hidden = !nowOpen;
      btn.setAttribute('aria-expanded', String(nowOpen));
    }
    onSelect(nowOpen || !hasKids ? path : path.slice(0, -1));
  });
  li.append(btn, body);
  return li;
}
