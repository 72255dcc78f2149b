// @ts-check
// icons.js: the app's icons as SVG path data in a 24-unit box, drawn inline with
// currentColor (no emoji: a machine without an emoji font would show empty boxes).
import { s } from './dom.js';

export const ICONS = {
  soundOn: 'M3 9h4l5-5v16l-5-5H3zM14.5 8.5a5 5 0 0 1 0 7l-1.4-1.4a3 3 0 0 0 0-4.2zM17.3 5.7a9 9 0 0 1 0 12.6l-1.4-1.4a7 7 0 0 0 0-9.8z',
  soundOff: 'M3 9h4l5-5v16l-5-5H3zM15 9.4l1.4-1.4 2.1 2.1 2.1-2.1 1.4 1.4-2.1 2.1 2.1 2.1-1.4 1.4-2.1-2.1-2.1 2.1-1.4-1.4 2.1-2.1z',
  eye: 'M12 5C6.5 5 2.7 9.1 1 12c1.7 2.9 5.5 7 11 7s9.3-4.1 11-7c-1.7-2.9-5.5-7-11-7zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-7a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z',
  mute: 'M4 3h16a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H9l-5 4zM7.3 7.7l1.4-1.4 3.3 3.3 3.3-3.3 1.4 1.4-3.3 3.3 3.3 3.3-1.4 1.4-3.3-3.3-3.3 3.3-1.4-1.4 3.3-3.3z',
  first: 'M5 4h2v16H5zM19 4v16L8 12z',
  prev: 'M15.5 4l2 2-6 6 6 6-2 2-8-8z',
  next: 'M8.5 4l-2 2 6 6-6 6 2 2 8-8z',
  last: 'M17 4h2v16h-2zM5 4v16l11-8z',
  play: 'M7 4v16l13-8z',
  pause: 'M6 4h4v16H6zM14 4h4v16h-4z',
  user: 'M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm0 2c-4.4 0-9 2.2-9 5v3h18v-3c0-2.8-4.6-5-9-5z',
};

/**
 * icon returns an inline SVG icon, hidden from screen readers (label its button instead).
 * @param {keyof typeof ICONS} name
 * @param {number} [size] CSS pixels
 */
export function icon(name, size = 16) {
  return s('svg.icon', { viewBox: '0 0 24 24', width: String(size), height: String(size), 'aria-hidden': 'true', fill: 'currentColor' }, s('path', { d: ICONS[name] }));
}
