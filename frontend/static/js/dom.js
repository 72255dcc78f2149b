// @ts-check
// dom.js: small DOM helpers (browser only).
import { t } from './i18n.js';

/**
 * h creates an element: h('button.btn.primary', {onclick, type: 'button'}, 'text', child...).
 * Attributes starting with "on" become listeners; `dataset` objects are merged; `style` (a
 * string or an object) is set through the CSSOM, which the Content-Security-Policy allows
 * (a style attribute would be refused);
 * false/null attributes are skipped; children may be strings, nodes, arrays, null.
 */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag.split('.')[0] || 'div'), tag, attrs, children);
}

/** s is h for SVG elements. */
export function s(tag, attrs, ...children) {
  return build(document.createElementNS('http://www.w3.org/2000/svg', tag.split('.')[0]), tag, attrs, children);
}

function build(el, tag, attrs, children) {
  const classes = tag.split('.').slice(1);
  if (classes.length) el.setAttribute('class', classes.join(' '));
  if (attrs && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v == null) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'style') { if (typeof v === 'string') el.style.cssText = v; else Object.assign(el.style, v); }
    else if (k === 'class') el.setAttribute('class', [el.getAttribute('class'), v].filter(Boolean).join(' '));
    else if (k === 'text') el.textContent = v;
    else if (k === 'value' || k === 'checked' || k === 'disabled' || k === 'selected') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c == null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/**
 * applyI18n fills [data-i18n], [data-i18n-title], [data-i18n-placeholder], [data-i18n-label] under root.
 * @param {ParentNode} [root]
 */
export function applyI18n(root = document) {
  root.querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = t(/** @type {HTMLElement} */ (el).dataset.i18n); });
  root.querySelectorAll('[data-i18n-title]').forEach((e) => {
    const el = /** @type {HTMLElement} */ (e);
    el.title = t(el.dataset.i18nTitle);
    el.setAttribute('aria-label', el.title);
  });
  root.querySelectorAll('[data-i18n-placeholder]').forEach((el) => {
    const input = /** @type {HTMLInputElement} */ (el);
    input.placeholder = t(input.dataset.i18nPlaceholder);
  });
  root.querySelectorAll('[data-i18n-label]').forEach((el) => { el.setAttribute('aria-label', t(/** @type {HTMLElement} */ (el).dataset.i18nLabel)); });
}

/** toast shows a short message; tone: info | error | success. */
export function toast(message, tone = 'info', ms = 4500) {
  const box = document.getElementById('toasts');
  if (!box) return;
  // The same message twice at once (a refusal reported twice, say) shows once.
  if ([...box.children].some((c) => c.textContent === message && !c.classList.contains('toast-out'))) return;
  const el = h('div.toast', { class: `toast-${tone}`, role: tone === 'error' ? 'alert' : 'status' }, message);
  box.append(el);
  setTimeout(() => el.classList.add('toast-out'), ms);
  setTimeout(() => el.remove(), ms + 400);
}

/**
 * banner shows (or hides with null) the connection banner under the top bar, with an
 * optional button.
 * @param {string | null} message
 * @param {string} [tone]
 * @param {{label: string, onclick: () => void} | null} [action]
 */
export function banner(message, tone = 'warn', action = null) {
  const el = document.getElementById('conn-banner');
  if (!el) return;
  if (!message) { el.hidden = true; el.textContent = ''; return; }
  el.hidden = false;
  el.className = `conn-banner conn-${tone}`;
  fill(el, h('span', { id: 'conn-text' }, message),
    action ? h('button.btn.btn-sm', { type: 'button', id: 'conn-retry', onclick: action.onclick }, action.label) : null);
}

/** copyText copies to the clipboard, falling back to a hidden textarea. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = h('textarea.offscreen', { readonly: true });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    ta.remove();
    return ok;
  }
}

/** fill replaces el's children, skipping null/false/undefined (replaceChildren would print "null"). */
export function fill(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c != null && c !== false));
  return el;
}
