import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  newAttempt, started, over, canPlay, sent, refused, answered, hinted, solutionShown, step, animating,
  toMove, positionMoves, boardOf, ratingText, changeParams, taskKey, puzzlePath,
} from '../static/js/puzzlemodel.js';
import { TABLES, LANGS } from '../static/js/i18n.js';

/** A VCF for black: h8 i8 j8 k8 against white's stones above. */
const puzzle = {
  id: 'vcf-001', rule: 'freestyle', size: 15, to_move: 'black', moves: ['h8', 'h9', 'i8', 'i9', 'g7', 'a1'],
  category: 'vcf', source: 'shipped', rating: 1612.4, rd: 80, provisional: false, plays: 12, solved_by: 5,
};
const player = { rating: 1500, rd: 350, provisional: true };

test('a new attempt: the player to move, nothing sent, no attempt on the server yet', () => {
  const st = newAttempt(puzzle, player);
  assert.equal(st.phase, 'ready');
  assert.equal(st.attempt, '');
  assert.equal(toMove(st), 'black');
  assert.equal(over(st), false);
  assert.deepEqual(positionMoves(st), puzzle.moves);
  const s2 = started(st, { attempt: 'a1b2', player: { rating: 1490, rd: 200, provisional: false } });
  assert.equal(s2.attempt, 'a1b2');
  assert.equal(s2.player.rating, 1490);
  assert.equal(s2.puzzle, puzzle, 'an answer without the puzzle keeps it');
});

test('canPlay: the player\'s turn, an empty point on the board, nothing on its way', () => {
  const st = newAttempt(puzzle, player);
  for (const [name, s, move, want] of [
    ['empty point', st, 'j8', true],
    ['upper case', st, 'J8', true],
    ['occupied', st, 'h8', false],
    ['occupied, upper case', st, 'H9', false],
    ['off the board', st, 'p8', false],
    ['not a point', st, 'zz', false],
    ['waiting for the answer', sent(st, 'j8'), 'k8', false],
    ['the defender to move', { ...st, line: ['j8'] }, 'k8', false],
    ['over', { ...st, phase: 'solved' }, 'k8', false],
  ]) assert.equal(canPlay(/** @type {any} */ (s), /** @type {string} */ (move)), want, /** @type {string} */ (name));
});

test('a correct move: the reply is played and the player is to move again', () => {
  let st = sent(newAttempt(puzzle, player), 'j8');
  assert.equal(st.phase, 'waiting');
  assert.deepEqual(boardOf(st, null).pending, [{ x: 9, y: 7, color: 'black' }]);
  assert.equal(boardOf(st, null).preview, null, 'nothing to play while waiting');
  st = answered(st, { result: 'continue', reply: 'k8', line: ['j8', 'k8'] });
  assert.equal(st.phase, 'ready');
  assert.equal(st.feedback, 'correct');
  assert.deepEqual(st.line, ['j8', 'k8']);
  assert.equal(st.pending, null);
  assert.equal(st.rating, null);
  const b = boardOf(st, null);
  assert.deepEqual(b.last, { x: 10, y: 7 }, 'the reply is the last move');
  assert.equal(b.stones.length, 8);
  assert.equal(b.stones[7].color, 'white');
  assert.equal(b.preview, 'black');
});

test('without a line in the answer the move and its reply are appended', () => {
  const st = answered(sent(newAttempt(puzzle, player), 'j8'), { result: 'continue', reply: 'k8' });
  assert.deepEqual(st.line, ['j8', 'k8']);
});

test('solved: the rating change and the player\'s new rating', () => {
  let st = answered(sent(newAttempt(puzzle, player), 'j8'), { result: 'continue', reply: 'g8' });
  st = answered(sent(st, 'k8'), { result: 'solved', line: ['j8', 'g8', 'k8'], rating: { before: 1500, after: 1561.6, rd: 290, provisional: true } });
  assert.equal(st.phase, 'solved');
  assert.equal(st.feedback, 'solved');
  assert.equal(over(st), true);
  assert.deepEqual(st.player, { rating: 1561.6, rd: 290, provisional: true });
  assert.deepEqual(changeParams(/** @type {any} */ (st.rating)), { before: '1500', after: '1562?', delta: '+62' });
  assert.equal(boardOf(st, { line: ['h8', 'i8', 'j8', 'k8', 'l8'] }).win.length, 5);
  assert.equal(boardOf(st, null).preview, null);
});

test('wrong: the solution from the position before the wrong move, animated move by move', () => {
  let st = answered(sent(newAttempt(puzzle, player), 'j8'), { result: 'continue', reply: 'k8' });
  st = answered(sent(st, 'a15'), { result: 'wrong', line: ['j8', 'k8', 'a15'], solution: ['g8', 'f8', 'j9', 'j10'],
    rating: { before: 1500, after: 1440, rd: 290, provisional: false } });
  assert.equal(st.phase, 'wrong');
  assert.equal(st.feedback, 'wrong');
  assert.deepEqual(changeParams(/** @type {any} */ (st.rating)), { before: '1500', after: '1440', delta: '−60' });
  assert.deepEqual(st.solution, { from: ['j8', 'k8'], moves: ['g8', 'f8', 'j9', 'j10'], shown: 0 });
  assert.deepEqual(positionMoves(st), [...puzzle.moves, 'j8', 'k8'], 'the board goes back before the wrong move');
  assert.equal(animating(st), true);
  assert.deepEqual(boardOf(st, null).pv, []);
  st = step(st);
  st = step(st);
  assert.deepEqual(boardOf(st, null).pv, [{ x: 6, y: 7, color: 'black', n: 1 }, { x: 5, y: 7, color: 'white', n: 2 }]);
  st = step(step(st));
  assert.equal(animating(st), false);
  assert.equal(step(st), st, 'nothing more to show');
  assert.equal(boardOf(st, null).pv.length, 4);
});

test('a wrong move without a solution or a rating: nothing to animate, unrated', () => {
  const st = answered(sent(newAttempt(puzzle, player), 'a15'), { result: 'wrong' });
  assert.equal(st.solution, null);
  assert.equal(animating(st), false);
  assert.equal(st.rating, null);
  assert.equal(st.player, player);
});

test('refused: the move is taken back and the player may play again', () => {
  const st = refused(sent(newAttempt(puzzle, player), 'j8'));
  assert.equal(st.phase, 'ready');
  assert.equal(st.pending, null);
  assert.equal(refused({ ...st, phase: 'solved' }).phase, 'solved');
});

test('a hint marks the point and the attempt as assisted; the next move clears the mark', () => {
  let st = hinted(newAttempt(puzzle, player), 'j8');
  assert.equal(st.assisted, true);
  assert.deepEqual(boardOf(st, null).hint, { x: 9, y: 7 });
  st = sent(st, 'j8');
  assert.equal(st.hint, null);
  assert.equal(st.assisted, true);
});

test('the solution asked for ends the attempt and animates from the current position', () => {
  let st = answered(sent(newAttempt(puzzle, player), 'j8'), { result: 'continue', reply: 'k8' });
  st = solutionShown(hinted(st, 'g8'), ['g8', 'f8', 'j9']);
  assert.equal(st.phase, 'shown');
  assert.equal(over(st), true);
  assert.equal(st.hint, null);
  assert.deepEqual(st.solution, { from: ['j8', 'k8'], moves: ['g8', 'f8', 'j9'], shown: 0 });
  assert.equal(st.rating, null);
  st = step(st);
  assert.deepEqual(boardOf(st, null).pv, [{ x: 6, y: 7, color: 'black', n: 1 }]);
  const rated = solutionShown(newAttempt(puzzle, player), ['j8'], { before: 1500, after: 1470, rd: 300, provisional: true });
  assert.equal(rated.player.rating, 1470);
});

test('forbidden points are drawn only with black to move and no solution shown', () => {
  const renju = { ...puzzle, rule: 'renju' };
  const pos = { forbidden: [{ point: 'k10', kind: 'double_three' }, { point: 'zz', kind: 'overline' }] };
  let st = newAttempt(renju, player);
  assert.deepEqual(boardOf(st, pos).forbidden, [{ x: 10, y: 9, point: 'k10', kind: 'double_three' }]);
  st = { ...st, line: ['j8'] };
  assert.deepEqual(boardOf(st, pos).forbidden, [], 'white to move');
  st = solutionShown(newAttempt(renju, player), ['j8']);
  assert.deepEqual(boardOf(st, pos).forbidden, []);
  const white = newAttempt({ ...renju, to_move: 'white', moves: [...renju.moves, 'b2'] }, player);
  assert.equal(toMove(white), 'white');
  assert.deepEqual(boardOf(white, pos).forbidden, []);
  assert.equal(boardOf(white, pos).preview, 'white');
});

test('ratingText and taskKey', () => {
  assert.equal(ratingText({ rating: 1500, provisional: true }), '1500?');
  assert.equal(ratingText({ rating: 1612.6, provisional: false }), '1613');
  for (const [category, key] of [['vcf', 'puz.task.win'], ['win-in-one', 'puz.task.win'], ['renju-trap', 'puz.task.win'],
    ['must-block', 'puz.task.block'], ['open-three', 'puz.task.defend'], ['something-new', 'puz.task.win']]) {
    assert.equal(taskKey({ ...puzzle, category }), key, category);
  }
});

test('puzzlePath reads the page\'s puzzle id', () => {
  for (const [path, want] of [['/puzzles', ''], ['/puzzles/', ''], ['/puzzles/vcf-001', 'vcf-001'], ['/puzzles/m_3f2a/', 'm_3f2a'],
    ['/puzzlesx', null], ['/puzzles/a/b', null], ['/analysis', null], ['/puzzles/' + 'x'.repeat(65), null]]) {
    assert.equal(puzzlePath(/** @type {string} */ (path)), want, path);
  }
});

test('every category, source and puzzle error code has a message in both languages', () => {
  const keys = ['win-in-one', 'must-block', 'open-three', 'vcf', 'vct', 'renju-trap', 'overline-trap'].map((c) => `puz.cat.${c}`)
    .concat(['shipped', 'mined'].map((s) => `puz.source.${s}`))
    .concat(['no_such_puzzle', 'no_such_attempt', 'attempt_over', 'bad_move', 'puzzle_busy'].map((c) => `error.${c}`))
    .concat(['puz.task.win', 'puz.task.block', 'puz.task.defend', 'nav.puzzles']);
  for (const lang of LANGS) for (const k of keys) assert.ok(TABLES[lang][k], `${lang} ${k}`);
});
