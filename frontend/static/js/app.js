// @ts-check
// app.js: entry point. Shell (top bar, language, sound, name), identity check, router ("/"
// lobby, "/r/{id}" game, "/r/{id}?game=N" replay of game N, "/learn" classroom,
// "/analysis" analysis board, "/puzzles" and "/puzzles/{id}" puzzle trainer, anything
// else "page not found").
import { detectLang, setLang, getLang, onLang, t } from './i18n.js';
import { applyI18n, toast } from './dom.js';
import { icon } from './icons.js';
import * as store from './store.js';
import * as sound from './sound.js';
import { renderLobby, openCreateDialog } from './lobby.js';
import { renderGame } from './game.js';
import { renderLearn } from './learn.js';
import { renderAnalyze } from './analyze.js';
import { renderPuzzles } from './puzzles.js';
import { puzzlePath } from './puzzlemodel.js';
import { errorText } from './errors.js';
import * as api from './api.js';
import { fatalPage } from './views/fatal.js';
import { renderArchive } from './views/archive.js';
import { renderPlayer, renderLeaderboard, playerKey } from './views/player.js';
import { setupAccount, refreshAccount } from './account.js';

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
  const game = new URLSearchParams(location.search).get('game');
  if (m && game) teardown = renderArchive(main, m[1], Number(game), { navigate });
  else if (m) teardown = renderGame(main, m[1], { navigate, playerName });
  else if (location.pathname === '/') teardown = renderLobby(main, { navigate, playerName });
  else if (/^\/learn\/?$/.test(location.pathname)) teardown = renderLearn(main);
  else if (/^\/analysis\/?$/.test(location.pathname)) teardown = renderAnalyze(main);
  else if (puzzlePath(location.pathname) !== null) teardown = renderPuzzles(main, { id: String(puzzlePath(location.pathname)), playerName });
  else if (playerKey(location.pathname)) teardown = renderPlayer(main, playerKey(location.pathname));
  else if (/^\/leaderboard\/?$/.test(location.pathname)) teardown = renderLeaderboard(main, new URLSearchParams(location.search).get('pool') || '', navigate);
  else fatalPage(main, 'page.notFound', 'page.notFound.text');
}

/** nameInput is the name field of the top bar. */
function nameInput() {
  return /** @type {HTMLInputElement} */ (document.getElementById('player-name'));
}

/**
 * rename sends a name typed in the top bar. Before the first registration it is only
 * stored (it names the player then); a refused name puts the current one back.
 */
async function rename() {
  const el = nameInput();
  const name = el.value.trim();
  const p = store.player();
  if (!p) { store.put('name', name); return; }
  if (name === p.name) return;
  try {
    const res = await api.renamePlayer(name);
    el.value = res.name;
    // An open game page rejoins: the server names a session's player at hello.
    window.dispatchEvent(new CustomEvent('gomoku:renamed', { detail: res }));
    toast(t('name.changed', { name: res.name }), 'success');
  } catch (e) {
    const now = store.player();
    el.value = now ? now.name : p.name;
    toast(e.code === 'bad_request' ? t('name.invalid') : errorText(e.code, e.message), 'error');
  }
}

/**
 * checkIdentity checks the stored token before any page uses it; an unknown one is
 * replaced (api.checkPlayer; the user is told through api.onRenewed).
 */
async function checkIdentity() {
  try {
    const { player } = await api.checkPlayer();
    if (player) nameInput().value = player.name;
    refreshAccount();
  } catch (e) {
    toast(errorText(e.code, e.message), 'error');
  }
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

  const input = nameInput();
  input.value = (store.player() && store.player().name) || store.get('name') || '';
  input.addEventListener('change', () => { rename(); });
  api.onRenewed((p, loggedOut) => {
    nameInput().value = p.name;
    refreshAccount();
    toast(t(loggedOut ? 'identity.loggedOut' : 'identity.renewed', { name: p.name }), 'info', 10000);
  });

  const sb = document.getElementById('sound-toggle');
  sb.addEventListener('click', () => { sound.setMuted(!sound.muted()); refreshSoundButton(); if (!sound.muted()) sound.play(); });
  refreshSoundButton();

  document.getElementById('nav-new').addEventListener('click', () => openCreateDialog({ navigate, playerName }));
  setupAccount({ navigate, setName: (name) => { nameInput().value = name; } });

  document.addEventListener('click', (e) => {
    const a = /** @type {HTMLAnchorElement | null} */ (/** @type {Element} */ (e.target).closest('a[href]'));
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || a.target || a.hasAttribute('download')) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || !(url.pathname === '/' || url.pathname === '/learn' || url.pathname === '/analysis' || puzzlePath(url.pathname) !== null || url.pathname === '/leaderboard' || url.pathname.startsWith('/@/') || url.pathname.startsWith('/r/'))) return;
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
checkIdentity().then(route);
