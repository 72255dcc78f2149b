// @ts-check
// views/fatal.js: a page that replaces the app's content when there is nothing to show
// (an unknown page, a game that no longer exists): what happened and the way back.
import { h } from '../dom.js';
import { t } from '../i18n.js';

/**
 * fatalPage fills main with a titled notice and a link to the lobby, and names the
 * document after it.
 * @param {HTMLElement} main
 * @param {string} titleKey
 * @param {string} textKey
 */
export function fatalPage(main, titleKey, textKey) {
  main.replaceChildren(h('section.card.fatal', null,
    h('h2', { id: 'fatal' }, t(titleKey)),
    h('p.muted', null, t(textKey)),
    h('a.btn.btn-primary', { href: '/', id: 'fatal-lobby' }, t('action.lobby'))));
  document.title = `${t(titleKey)} · ${t('app.title')}`;
}
