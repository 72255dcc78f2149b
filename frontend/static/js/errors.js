// @ts-check
// errors.js: protocol errors as sentences in the current language (pure).
import { t } from './i18n.js';

/** The reasons a renju point is forbidden, as the server names them. */
const FORBIDDEN_KINDS = ['double_three', 'double_four', 'overline'];

/**
 * forbiddenText says why a point is forbidden for black; an unknown or missing reason
 * gives the sentence without one (never an empty pair of brackets).
 * @param {string} [kind] double_three | double_four | overline
 */
export function forbiddenText(kind) {
  return kind && FORBIDDEN_KINDS.includes(kind) ? t('error.forbidden', { why: t(`forbidden.${kind}`) }) : t('error.forbidden.plain');
}

/**
 * errorText turns a server error into a sentence in the current language.
 * @param {string} code
 * @param {string} [message]
 */
export function errorText(code, message) {
  if (code === 'forbidden') {
    const why = /double_three|double_four|overline/.exec(message || '');
    return forbiddenText(why ? why[0] : '');
  }
  const k = `error.${code}`;
  const s = t(k);
  return s === k ? t('error.generic', { message: message || code }) : s;
}
