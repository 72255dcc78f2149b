// @ts-check
// app.js: entry point. Shell (top bar, language, sound, name), router ("/" lobby, "/r/{id}" game).
import { detectLang, setLang, getLang, onLang, t } from './i18n.js';
import { applyI18n, toast } from './dom.js';
import { icon } from './icons.js';
import * as store from './store.js';
import * as sound from './sound.js';
import { renderLobby, openCreateDialog } from './lobby.js';
import { renderGame } from './game.js';

let teardown = null;

/** guestName returns a default player name. */
function guestName() {
  return `${getLang() === 'zh' ? '棋手' : 'Guest'}${Math.floor(1000 + Math.random() * 9000)}`;
}

/** playerName returns the name in the top bar (stored), creating a guest name if empty. */
export function playerName() {
  const el = /** @type {HTMLInputElement} */ (document.getElementById('player-name'));
  let name = (el.value || '').trim();
  if (!name) {
    name = guestName();
    el.value = name;
    store.put('name', name);
  }
  return name;
}

/** navigate changes the page without a reload. */
export function navigate(path, replace = false) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  route();
}

function route() {
  if (teardown) { teardown(); teardown = null; }
  const main = document.getElementById('main');
  const m = /^\/r\/([A-Za-z0-9_-]{1,64})\/?$/.exec(location.pathname);
  window.scrollTo(0, 0);
  if (m) teardown = renderGame(main, m[1], { navigate, playerName });
  else teardown = renderLobby(main, { navigate, playerName });
}

function setupShell() {
  const lang = store.get('lang') || detectLang(navigator.language);
  setLang(lang);
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  applyI18n();
  onLang((l) => {
    document.documentElement.lang = l === 'zh' ? 'zh-CN' : 'en';
    store.put('lang', l);
    applyI18n();
    refreshSoundButton();
  });
  document.getElementById('lang-toggle').addEventListener('click', () => setLang(getLang() === 'zh' ? 'en' : 'zh'));

  const nameInput = /** @type {HTMLInputElement} */ (document.getElementById('player-name'));
  nameInput.value = (store.player() && store.player().name) || store.get('name') || '';
  nameInput.addEventListener('change', () => store.put('name', nameInput.value.trim()));

  const sb = document.getElementById('sound-toggle');
  sb.addEventListener('click', () => { sound.setMuted(!sound.muted()); refreshSoundButton(); if (!sound.muted()) sound.play(); });
  refreshSoundButton();

  document.getElementById('nav-new').addEventListener('click', () => openCreateDialog({ navigate, playerName }));

  document.addEventListener('click', (e) => {
    const a = /** @type {HTMLAnchorElement | null} */ (/** @type {Element} */ (e.target).closest('a[href]'));
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || a.target || a.hasAttribute('download')) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || !(url.pathname === '/' || url.pathname.startsWith('/r/'))) return;
    e.preventDefault();
    navigate(url.pathname + url.search);
  });
  window.addEventListener('popstate', route);
  window.addEventListener('unhandledrejection', (e) => toast(t('error.generic', { message: e.reason && e.reason.message ? e.reason.message : String(e.reason) }), 'error'));
}

function refreshSoundButton() {
  const sb = document.getElementById('sound-toggle');
  const on = !sound.muted();
  sb.replaceChildren(icon(on ? 'soundOn' : 'soundOff', 20));
  sb.setAttribute('aria-pressed', String(on));
  sb.title = t(on ? 'nav.sound.on' : 'nav.sound.off');
  sb.setAttribute('aria-label', sb.title);
}

setupShell();
route();
