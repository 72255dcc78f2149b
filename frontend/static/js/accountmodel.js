// @ts-check
// accountmodel.js: the account rules and views the page needs before asking the server
// (pure; the server decides: docs/protocol.md, "Accounts and sessions").

/** The username rule: 3-20 of A-Z a-z 0-9 _ - (reserved words are the server's call). */
export const USERNAME_RE = /^[A-Za-z0-9_-]{3,20}$/;

export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 128;

/**
 * usernameProblem returns the error code the server would answer for a username that
 * breaks the pattern, or '' (the server still checks reserved words and uniqueness).
 * @param {string} u
 */
export function usernameProblem(u) {
  return USERNAME_RE.test(u) ? '' : 'bad_username';
}

/**
 * passwordProblem returns 'weak_password' for a password the server refuses for sure
 * (length, containing the username), or ''.
 * @param {string} pw
 * @param {string} username
 */
export function passwordProblem(pw, username) {
  const n = [...pw].length;
  if (n < MIN_PASSWORD || n > MAX_PASSWORD) return 'weak_password';
  if (username && pw.toLowerCase().includes(username.toLowerCase())) return 'weak_password';
  return '';
}

/**
 * deviceLabel names a session by its user agent: "Firefox · Windows"; '' when nothing
 * is recognised.
 * @param {string} ua
 */
export function deviceLabel(ua) {
  if (!ua) return '';
  const browsers = [['Edg/', 'Edge'], ['OPR/', 'Opera'], ['Firefox/', 'Firefox'], ['HeadlessChrome/', 'Headless Chrome'],
    ['Chrome/', 'Chrome'], ['Safari/', 'Safari'], ['curl/', 'curl']];
  const systems = [['Android', 'Android'], ['iPhone', 'iOS'], ['iPad', 'iPadOS'], ['Windows', 'Windows'],
    ['Mac OS X', 'macOS'], ['CrOS', 'ChromeOS'], ['Linux', 'Linux']];
  const b = browsers.find(([k]) => ua.includes(k));
  const s = systems.find(([k]) => ua.includes(k));
  return [b && b[1], s && s[1]].filter(Boolean).join(' · ');
}

/**
 * sessionRows orders GET /api/sessions for display: this device first, then the most
 * recently used.
 * @param {{id: string, created_ms: number, last_used_ms: number, user_agent: string, current: boolean}[]} list
 */
export function sessionRows(list) {
  return [...list].sort((a, b) => (Number(b.current) - Number(a.current)) || (b.last_used_ms - a.last_used_ms))
    .map((s) => ({ id: s.id, current: s.current, device: deviceLabel(s.user_agent), created: s.created_ms, used: s.last_used_ms }));
}
