import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ICONS } from '../static/js/icons.js';

const STATIC = new URL('../static/', import.meta.url).pathname;

/** files lists the text files under dir. */
function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return files(p);
    return /\.(js|html|css|svg)$/.test(name) ? [p] : [];
  });
}

test('no emoji in the web app: icons are SVG (a machine without an emoji font shows boxes)', () => {
  const emoji = /[\p{Extended_Pictographic}\u{FE0F}]/u;
  for (const f of files(STATIC)) {
    readFileSync(f, 'utf8').split('\n').forEach((line, i) => {
      assert.doesNotMatch(line, emoji, `${f.slice(STATIC.length)}:${i + 1}`);
    });
  }
});

test('every icon is SVG path data in a 24-unit box', () => {
  for (const [name, d] of Object.entries(ICONS)) {
    assert.match(d, /^M[-\d.]+[ ,][-\d.]+[MmLlHhVvCcSsQqTtAaZz\d\s.,-]*$/, name);
  }
});
