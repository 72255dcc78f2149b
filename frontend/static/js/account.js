// @ts-check
// account.js: the top bar's account button and dialog: sign up, log in, log out; for an
// account, its signed-in devices (revocable) and a password change. Guests need none of
// it: they keep playing as before.
import { t, onLang } from './i18n.js';
import { h, fill, toast } from './dom.js';
import { icon } from './icons.js';
import * as store from './store.js';
import * as api from './api.js';
import { errorText } from './errors.js';
import { usernameProblem, passwordProblem, sessionRows } from './accountmodel.js';

/** @type {{navigate: (path: string, replace?: boolean) => void, setName: (name: string) => void}} */
let ctx;

/**
 * setupAccount adds the account button to the top bar.
 * @param {{navigate: (path: string, replace?: boolean) => void, setName: (name: string) => void}} c
 */
export function setupAccount(c) {
  ctx = c;
  const btn = h('button.btn.btn-ghost.btn-sm.account-btn', { type: 'button', id: 'account-btn', onclick: () => openAccountDialog() });
  const nav = document.querySelector('.topnav');
  nav.insertBefore(btn, document.getElementById('sound-toggle'));
  const dlg = h('dialog.dialog.account-dialog', { id: 'account-dialog', 'aria-labelledby': 'account-title' });
  document.body.append(dlg);
  refreshAccount();
  onLang(() => { refreshAccount(); if (dlg.open) openAccountDialog(); });
}

/** refreshAccount shows the stored identity on the button: the username, or "Log in". */
export function refreshAccount() {
  const btn = document.getElementById('account-btn');
  if (!btn) return;
  const p = store.player();
  const username = p && p.username;
  fill(btn, icon('user', 16), h('span.account-label', username || t('account.button.guest')));
  btn.title = username ? t('account.signedIn', { username }) : t('account.button.label');
  btn.setAttribute('aria-label', btn.title);
  btn.dataset.account = username ? 'yes' : 'no';
}

function dialog() {
  return /** @type {HTMLDialogElement} */ (document.getElementById('account-dialog'));
}

/** problemText is an error code as a sentence, or ''. */
function problemText(code) {
  return code ? errorText(code) : '';
}

/** busy runs fn with the form's submit button disabled; an API error is shown in err. */
async function busy(form, err, fn) {
  const submit = /** @type {HTMLButtonElement} */ (form.querySelector('button[type=submit]'));
  const label = submit.textContent;
  submit.disabled = true;
  submit.textContent = t('account.working');
  err.textContent = '';
  try {
    await fn();
  } catch (e) {
    err.textContent = errorText(e.code, e.message);
  } finally {
    submit.disabled = false;
    submit.textContent = label;
  }
}

function field(name, label, type, autocomplete, help) {
  return h('label.field', { for: `acct-${name}` }, h('span.label', label),
    h('input', { id: `acct-${name}`, name, type, autocomplete, required: true, spellcheck: 'false', autocapitalize: 'off' }),
    help ? h('span.muted.field-help', help) : null);
}

/** signedIn stores a new identity (sign-up or login) and shows it everywhere. */
function signedIn(res, message) {
  const before = store.player();
  store.setPlayer(res);
  store.put('name', res.name);
  ctx.setName(res.name);
  refreshAccount();
  dialog().close();
  toast(message, 'success');
  // A game page rejoins as the new player (another player: the page starts over).
  if (!before || before.id !== res.id) ctx.navigate(location.pathname + location.search, true);
}

/** openAccountDialog shows the guest forms (sign up, log in) or the account's page. */
export function openAccountDialog() {
  const p = store.player();
  const body = p && p.username ? accountView(p) : guestView(p ? 'signup' : 'login');
  const dlg = dialog();
  fill(dlg, body);
  if (!dlg.open) dlg.showModal();
  const first = /** @type {HTMLElement | null} */ (dlg.querySelector('input'));
  if (first) first.focus();
}

/** guestView: sign up (keeps the guest's id when there is one) or log in. */
function guestView(mode) {
  const err = h('p.form-error', { role: 'alert', id: 'account-error' });
  const tabs = h('div.account-tabs', { role: 'tablist' },
    ['signup', 'login'].map((m) => h('button.btn.btn-sm', {
      type: 'button', role: 'tab', id: `account-tab-${m}`, 'aria-selected': String(m === mode),
      class: m === mode ? 'active' : '', onclick: () => fill(dialog(), guestView(m)),
    }, t(`account.${m}`))));
  const form = h('form', { method: 'dialog', id: `account-${mode}` },
    h('h2', { id: 'account-title' }, t(`account.${mode}`)),
    tabs,
    h('p.muted', t(mode === 'signup' ? 'account.guest.note' : 'account.signup.keep')),
    field('username', t('account.username'), 'text', 'username', mode === 'signup' ? t('account.username.help') : ''),
    field('password', t('account.password'), 'password', mode === 'signup' ? 'new-password' : 'current-password',
      mode === 'signup' ? t('account.password.help') : ''),
    err,
    h('div.buttons', null,
      h('button.btn', { type: 'button', onclick: () => dialog().close() }, t('account.close')),
      h('button.btn.btn-primary', { type: 'submit', id: `account-${mode}-submit` }, t(`account.${mode}`))));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const f = /** @type {any} */ (form.elements);
    const username = f.username.value.trim();
    const password = f.password.value;
    if (mode === 'signup') {
      const local = usernameProblem(username) || passwordProblem(password, username);
      if (local) { err.textContent = problemText(local); return; }
      busy(form, err, async () => {
        // With the guest's token the guest becomes the account (same id, games, ratings).
        const res = await api.call('POST', '/api/accounts', { username, password }, true);
        signedIn(res, t('account.signup.done', { username: res.username }));
      });
    } else {
      busy(form, err, async () => {
        const res = await api.call('POST', '/api/sessions', { username, password });
        signedIn(res, t('account.login.done', { username: res.username }));
      });
    }
  });
  return form;
}

/** accountView: the account's devices, a password change and logging out. */
function accountView(p) {
  const list = h('ul.session-list', { id: 'session-list' }, h('li.muted', t('misc.loading')));
  const err = h('p.form-error', { role: 'alert', id: 'account-error' });
  const loadSessions = async () => {
    try {
      const res = await api.call('GET', '/api/sessions', undefined, true);
      fill(list, sessionRows(res.sessions).map((s) => h('li.session', { dataset: { session: s.id } },
        h('div.session-text', null,
          h('strong', s.device || t('account.unknownDevice')),
          s.current ? h('span.session-badge', t('account.session.current')) : null,
          h('div.muted', t('account.session.meta', { created: when(s.created), used: when(s.used) }))),
        s.current ? null : h('button.btn.btn-sm', {
          type: 'button', class: 'session-revoke', onclick: async () => {
            try {
              await api.call('DELETE', `/api/sessions/${encodeURIComponent(s.id)}`, undefined, true);
              toast(t('account.session.revoked'), 'success');
            } catch (e) {
              toast(errorText(e.code, e.message), 'error');
            }
            loadSessions();
          },
        }, t('account.session.revoke')))));
    } catch (e) {
      fill(list, h('li.form-error', errorText(e.code, e.message)));
    }
  };
  const pwForm = h('form', { method: 'dialog', id: 'account-password' },
    h('h3', t('account.password.change')),
    field('current', t('account.password.current'), 'password', 'current-password', ''),
    field('new', t('account.password.new'), 'password', 'new-password', t('account.password.help')),
    err,
    h('div.buttons', null, h('button.btn.btn-primary', { type: 'submit', id: 'account-password-submit' }, t('account.password.change'))));
  pwForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const f = /** @type {any} */ (pwForm.elements);
    const local = passwordProblem(f.new.value, p.username);
    if (local) { err.textContent = problemText(local); return; }
    busy(pwForm, err, async () => {
      await api.call('PUT', '/api/accounts/me/password', { current_password: f.current.value, new_password: f.new.value }, true);
      f.current.value = '';
      f.new.value = '';
      toast(t('account.password.changed'), 'success');
      loadSessions();
    });
  });
  loadSessions();
  return h('div.account-page', null,
    h('h2', { id: 'account-title' }, t('account.signedIn', { username: p.username })),
    h('h3', t('account.sessions')), list,
    pwForm,
    h('div.buttons', null,
      h('button.btn', { type: 'button', id: 'account-logout', onclick: logout }, t('account.logout')),
      h('button.btn', { type: 'button', onclick: () => dialog().close() }, t('account.close'))));
}

/** logout ends this session; the page goes on as a new guest when it next needs one. */
async function logout() {
  try {
    await api.call('DELETE', '/api/sessions/current', undefined, true);
  } catch (e) {
    if (e.code !== 'unauthorized') { toast(errorText(e.code, e.message), 'error'); return; }
  }
  store.put('player', null);
  store.put('name', '');
  ctx.setName('');
  refreshAccount();
  dialog().close();
  toast(t('account.logout.done'), 'success');
  ctx.navigate(location.pathname + location.search, true);
}

/** when formats a time as the browser's locale does. */
function when(ms) {
  return ms ? new Date(ms).toLocaleString() : '–';
}
